//! `rcute eval`: evaluate one statement or a script of statements
//! (`NOTATION.md`, "Running it").

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use rcute::notation::{format_value, Session, Style};

/// Output style of `rcute eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StyleArg {
    /// PyCuTe's print() (str): `(4, 8):(1, 4)`
    Str,
    /// PyCuTe's repr(): `Layout((4, 8), (1, 4))`
    Repr,
    /// C++ cute::print: `(4,8):(1,4)`, `(3)` for a 1-tuple
    Cpp,
}

impl From<StyleArg> for Style {
    fn from(s: StyleArg) -> Style {
        match s {
            StyleArg::Str => Style::Str,
            StyleArg::Repr => Style::Repr,
            StyleArg::Cpp => Style::Cpp,
        }
    }
}

/// Arguments of `rcute eval`.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  rcute eval '((4,8):(8,1))(2,3)'                     # 19
  rcute eval 'composition((6,2):(8,2), (4,3):(3,1))'  # ((2, 2), 3):((24, 2), 8)
  rcute eval --style cpp 'Layout((3,),(1,))'          # (3):(1)
  rcute eval --style repr 'LayoutRight((4,8))'        # Layout((4, 8), (8, 1))
  printf 'A = (4,8):(1,4)\\nsize[1](A)\\n' | rcute eval -f -

A script has one statement per line; `#` starts a comment; blank and comment
lines print nothing, every other line prints exactly one line. An error prints
`error: KIND: message` and the next line still runs; the exit status is 1 if
any statement failed. The language is described in docs/language.md.

Limits (docs/limits.md): a statement is at most 64 KiB; brackets and unary
signs nest at most 100 levels and an expression tree is at most 256 high;
a call takes at most 16 keyword arguments; a value nests at most 128 levels
(a shape or a coordinate value 64) and has at most 65536 parts (so do the
operands of one call together); a layout has at most 4096 leaves;
integers are signed 64-bit. Inputs beyond them are errors, never crashes.")]
pub struct EvalArgs {
    /// The statement to evaluate (e.g. 'logical_divide(24:1, 4:2)')
    #[arg(
        value_name = "EXPR",
        conflicts_with = "file",
        required_unless_present = "file",
        allow_hyphen_values = true
    )]
    pub expr: Option<String>,

    /// Run a script, one statement per line (`-` reads standard input)
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// Output style
    #[arg(long, value_enum, default_value_t = StyleArg::Str)]
    pub style: StyleArg,
}

/// Evaluates one line; `None` for a blank or comment line, else the output
/// line and whether it was an error. A panic inside the library is reported
/// as an error line instead of ending the script.
fn eval_line(session: &mut Session, line: &str, style: Style) -> Option<(String, bool)> {
    let r = catch_unwind(AssertUnwindSafe(|| session.eval_line(line)));
    match r {
        Ok(None) => None,
        Ok(Some(Ok(v))) => Some((format_value(&v, style), false)),
        Ok(Some(Err(e))) => Some((format!("error: {e}"), true)),
        Err(_) => Some((
            "error: value: internal error while evaluating this statement".to_string(),
            true,
        )),
    }
}

/// Runs `rcute eval`; returns the exit status.
pub fn run(args: &EvalArgs) -> i32 {
    let style: Style = args.style.into();
    let mut session = Session::new();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if let Some(expr) = &args.expr {
        let (text, failed) = eval_line(&mut session, expr, style)
            .unwrap_or_else(|| ("error: parse: column 1: empty statement".to_string(), true));
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
        return i32::from(failed);
    }
    let Some(path) = &args.file else {
        eprintln!("rcute eval: give an expression or -f FILE");
        return 2;
    };
    let reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(BufReader::new(io::stdin()))
    } else {
        match File::open(path) {
            Ok(f) => Box::new(BufReader::new(f)),
            Err(e) => {
                eprintln!("rcute eval: cannot open {}: {e}", path.display());
                return 2;
            }
        }
    };
    run_script(reader, &mut session, style, &mut out)
}

fn run_script(
    mut reader: Box<dyn BufRead>,
    session: &mut Session,
    style: Style,
    out: &mut impl Write,
) -> i32 {
    let mut failed = false;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("rcute eval: read error: {e}");
                return 2;
            }
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim_end_matches(['\n', '\r']);
        if let Some((text, err)) = eval_line(session, line, style) {
            failed |= err;
            if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
                // the reader went away (e.g. a closed pipe): stop quietly
                return i32::from(failed);
            }
        }
    }
    i32::from(failed)
}
