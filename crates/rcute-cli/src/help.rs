//! `rcute help` and `rcute ops`: the operations of the notation, generated
//! from the operation table (`rcute::ops`). `rcute help --markdown` writes
//! `docs/operations.md`.

use std::io::{self, Write};

use clap::Args;
use rcute::ops::{lookup, Group, Operation, OPERATIONS};

/// Arguments of `rcute help`.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  rcute help                  # every operation, grouped, with a one-line summary
  rcute help logical_divide   # its signature, definition and an example
  rcute help eval             # the options of `rcute eval`
  rcute help --markdown > docs/operations.md")]
pub struct HelpArgs {
    /// An operation of the notation (or a subcommand such as `eval`)
    #[arg(value_name = "OP")]
    pub op: Option<String>,

    /// Print Markdown (the whole reference, or OP's section)
    #[arg(long)]
    pub markdown: bool,
}

/// The width help text is wrapped to.
const WIDTH: usize = 79;

/// Runs `rcute help`; `cli` is the command line's definition (for the help
/// of the subcommands). Returns the exit status: 1 for an unknown name.
pub fn run(args: &HelpArgs, cli: &mut clap::Command) -> i32 {
    let text = match (&args.op, args.markdown) {
        (None, false) => overview(cli),
        (None, true) => markdown(),
        (Some(name), markdown) => match lookup(name) {
            Some(op) if markdown => markdown_section(op),
            Some(op) => detail(op),
            None => {
                // built, the subcommands know their full name: the usage
                // line reads `rcute eval ...`, not `eval ...`
                cli.build();
                if let Some(sub) = cli.find_subcommand_mut(name) {
                    let help = sub.render_long_help().to_string();
                    return print(&help);
                }
                eprintln!("{}", unknown(name, cli));
                return 1;
            }
        },
    };
    print(&text)
}

/// Runs `rcute ops`: the operation names, one per line.
pub fn run_ops() -> i32 {
    let mut s = String::new();
    for op in OPERATIONS {
        s.push_str(op.name);
        s.push('\n');
    }
    print(&s)
}

/// Writes `text` to standard output (a closed pipe is not an error).
fn print(text: &str) -> i32 {
    let mut out = io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    0
}

/// The operations of `group`, in table order.
fn in_group(group: Group) -> impl Iterator<Item = &'static Operation> {
    OPERATIONS.iter().filter(move |op| op.group == group)
}

/// `rcute help`: the operations by group, one line each.
fn overview(cli: &clap::Command) -> String {
    let commands: Vec<&str> = cli
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name())
        .collect();
    let mut s = format!(
        "rcute: CuTe's layout algebra. Commands: {}\n",
        commands.join(", ")
    );
    s.push_str(
        "(`rcute help COMMAND` or `rcute COMMAND --help` for their options).\n\n\
         Operations of the notation (`rcute help OP` for the signature, definition\n\
         and an example; `rcute ops` lists the names):\n",
    );
    let width = OPERATIONS.iter().map(|op| op.name.len()).max().unwrap_or(0);
    for g in Group::ALL {
        s.push('\n');
        s.push_str(g.title());
        s.push_str(":\n");
        for op in in_group(g) {
            s.push_str(&format!("  {:width$}  {}\n", op.name, op.summary));
        }
    }
    s
}

/// The forms an operation is called in, derived from its flags.
fn forms(op: &Operation) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(m) = op.mode_signature() {
        let what = match op.group {
            Group::Properties => "reads mode (i, ...) of the first argument",
            Group::Algebra => {
                "applies the operation to mode (i, ...) of the first argument, whose other \
                 modes are kept"
            }
            _ => "takes the subscripts as a path, as described above",
        };
        v.push(format!(
            "`{m}` {what} (the keyword `mode=(i, ...)` is the same)."
        ));
    }
    if op.tensor_first {
        v.push(
            "The first argument may be a tensor: the operation applies to its layout and \
             keeps its accessor."
                .to_string(),
        );
    }
    v
}

/// The arguments that may be passed by keyword.
fn keywords(op: &Operation) -> Option<String> {
    let names: Vec<String> = op
        .params
        .iter()
        .filter(|p| p.kind == rcute::ops::ParamKind::Positional)
        .map(|p| format!("`{}`", p.name))
        .collect();
    (!names.is_empty()).then(|| format!("Keywords: {}.", names.join(", ")))
}

/// `text` wrapped to [`WIDTH`] columns, each line starting with `indent`.
fn wrap(text: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::from(indent);
    for word in text.split_whitespace() {
        if line.len() > indent.len() && line.len() + 1 + word.len() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(indent);
        }
        if line.len() > indent.len() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// `rcute help OP`.
fn detail(op: &Operation) -> String {
    let mut s = op.signature();
    s.push('\n');
    if let Some(m) = op.mode_signature() {
        s.push_str(&m);
        s.push('\n');
    }
    s.push_str(&format!("  {} ({})\n\n", op.summary, op.group.title()));
    s.push_str(&wrap(op.doc, ""));
    let extra: Vec<String> = forms(op).into_iter().chain(keywords(op)).collect();
    if !extra.is_empty() {
        s.push('\n');
        s.push_str(&wrap(&extra.join(" "), ""));
    }
    s.push_str(&format!(
        "\nExample:\n  $ rcute eval '{}'\n  {}\n",
        op.example, op.example_output
    ));
    s
}

/// The Markdown anchor of an operation's section.
fn anchor(op: &Operation) -> String {
    op.name.to_lowercase()
}

/// The Markdown section of one operation.
fn markdown_section(op: &Operation) -> String {
    let mut s = format!("### {}\n\n`{}`", op.name, op.signature());
    if let Some(m) = op.mode_signature() {
        s.push_str(&format!(" · `{m}`"));
    }
    s.push_str(&format!(" — {}\n\n{}\n", op.summary, op.doc));
    let extra = forms(op);
    if !extra.is_empty() {
        s.push('\n');
        s.push_str(&extra.join(" "));
        s.push('\n');
    }
    s.push_str(&format!(
        "\n```console\n$ rcute eval '{}'\n{}\n```\n",
        op.example, op.example_output
    ));
    s
}

/// `docs/operations.md`.
fn markdown() -> String {
    let mut s = String::from(
        "# Operations\n\n\
         <!-- Generated from the operation table (`rcute::ops`); do not edit.\n     \
         Regenerate with: cargo run -p rcute-cli -- help --markdown > docs/operations.md -->\n\n\
         Every operation of the CuTe notation (`rcute eval`, the Python module `rcute`,\n\
         and `rcute::notation::call` in Rust), grouped as `rcute help` lists them. A call\n\
         is `name(arg, ..., key=value)`; every named parameter may also be passed by\n\
         keyword. The operations with a mode-indexed form also accept\n\
         `name[i, j](...)`, which applies them to mode `(i, j)` of the first argument\n\
         (the keyword `mode=(i, j)` is the same). Each example shows the output of\n\
         `rcute eval` (the default print style, PyCuTe's `str`).\n\n\
         `rcute help OP` prints the same entry in the terminal; `rcute ops` lists the\n\
         names.\n",
    );
    for g in Group::ALL {
        s.push_str(&format!(
            "\n## {}\n\n| operation | |\n|---|---|\n",
            g.title()
        ));
        for op in in_group(g) {
            s.push_str(&format!(
                "| [`{}`](#{}) | {} |\n",
                op.name,
                anchor(op),
                op.summary
            ));
        }
        for op in in_group(g) {
            s.push('\n');
            s.push_str(&markdown_section(op));
        }
    }
    s
}

/// The message for an unknown name, with the closest names.
fn unknown(name: &str, cli: &clap::Command) -> String {
    let candidates = OPERATIONS
        .iter()
        .map(|op| op.name.to_string())
        .chain(cli.get_subcommands().map(|c| c.get_name().to_string()));
    let mut scored: Vec<(usize, String)> = candidates
        .map(|c| (distance(&name.to_lowercase(), &c.to_lowercase()), c))
        .collect();
    scored.sort();
    let limit = (name.chars().count() / 3).max(2);
    let close: Vec<String> = scored
        .iter()
        .take_while(|(d, _)| *d <= limit)
        .take(3)
        .map(|(_, c)| format!("'{c}'"))
        .collect();
    let mut msg = format!("rcute help: '{name}' is not an operation of the notation");
    if close.is_empty() {
        msg.push_str("; `rcute help` lists them");
    } else {
        msg.push_str(&format!("; did you mean {}?", close.join(" or ")));
    }
    msg
}

/// The edit (Levenshtein) distance between `a` and `b`, by characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let subst = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = subst.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance() {
        assert_eq!(distance("", ""), 0);
        assert_eq!(distance("coalesc", "coalesce"), 1);
        assert_eq!(distance("colaesce", "coalesce"), 2);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("abc", ""), 3);
    }

    #[test]
    fn wrapping_keeps_every_word() {
        let doc = lookup("composition").map(|op| op.doc).unwrap_or_default();
        let w = wrap(doc, "  ");
        assert!(w
            .lines()
            .all(|l| l.len() <= WIDTH || !l.trim().contains(' ')));
        let words: Vec<&str> = w.split_whitespace().collect();
        assert_eq!(words, doc.split_whitespace().collect::<Vec<_>>());
    }
}
