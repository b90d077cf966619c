//! `rcute`: the command-line shell over the rcute library.
//!
//! Each subcommand lives in its own module; this file only parses the
//! command line and dispatches.

use clap::{CommandFactory, Parser, Subcommand};

mod bench;
mod completions;
mod draw;
mod eval;
mod help;
mod hints;
mod show;

/// Counts heap allocations for `rcute bench` when built with the
/// `count-allocs` feature (a measuring build; the shipped binary uses the
/// system allocator and `rcute bench` reports the allocations as unknown).
#[cfg(feature = "count-allocs")]
#[global_allocator]
static GLOBAL: bench::CountingAlloc = bench::CountingAlloc;

/// CuTe's layout algebra on the command line.
#[derive(Parser, Debug)]
#[command(name = "rcute", version, about, long_about = None, disable_help_subcommand = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Evaluate CuTe notation: one expression, or a script (one statement per line)
    Eval(eval::EvalArgs),
    /// Time the evaluation of each statement of a script (parsed once, evaluated repeatedly)
    Bench(bench::BenchArgs),
    /// Print a layout, swizzled layout or tensor as a table (print_layout, print_tensor, print_table)
    Show(show::ShowArgs),
    /// Draw a layout or thread-value layout to SVG, TikZ (.tex) or PNG
    Draw(draw::DrawArgs),
    /// List the operations of the notation, or describe one: `rcute help OP`
    Help(help::HelpArgs),
    /// Print the names of the operations of the notation, one per line
    Ops,
    /// Print a shell completion script: rcute completions bash|zsh|fish
    Completions(completions::CompletionsArgs),
}

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Eval(args) => eval::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Draw(args) => draw::run(&args),
        Command::Help(args) => help::run(&args, &mut Cli::command()),
        Command::Ops => help::run_ops(),
        Command::Completions(args) => completions::run(&args, &mut Cli::command()),
    };
    std::process::exit(code);
}
