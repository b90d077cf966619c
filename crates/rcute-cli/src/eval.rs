//! `rcute eval`: evaluate one statement or a script of statements
//! (`docs/language.md`).

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use rcute::notation::emit::{emit, CodeStyle};
use rcute::notation::{format_value, Session, Style, Value};
use rcute::Error;

use crate::hints;

/// Output style of `rcute eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StyleArg {
    /// PyCuTe's print() (str): `(4, 8):(1, 4)`
    Str,
    /// PyCuTe's repr(): `Layout((4, 8), (1, 4))`
    Repr,
    /// C++ cute::print: `(4,8):(1,4)`, `(3)` for a 1-tuple
    Cpp,
    /// The static C++ CuTe type: `Layout<Shape<_4,_8>,Stride<_1,_4>>`
    CppType,
    /// The C++ CuTe expression: `make_layout(make_shape(4,8), make_stride(1,4))`
    CppMake,
    /// The CuTe DSL expression: `cute.make_layout((4, 8), stride=(1, 4))`
    Dsl,
}

impl StyleArg {
    /// The text of `v` in this style; the code styles fail (`type`) for a
    /// value they cannot express.
    fn format(self, v: &Value) -> Result<String, Error> {
        let text = |st| Ok(format_value(v, st));
        match self {
            StyleArg::Str => text(Style::Str),
            StyleArg::Repr => text(Style::Repr),
            StyleArg::Cpp => text(Style::Cpp),
            StyleArg::CppType => emit(v, CodeStyle::CppType),
            StyleArg::CppMake => emit(v, CodeStyle::CppMake),
            StyleArg::Dsl => emit(v, CodeStyle::Dsl),
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
  printf 'A = (4,8):(1,4)\\nsize[1](A)\\n' | rcute eval  # a script on standard input
  rcute eval --echo -f examples/tour.cute             # a commented transcript
  rcute eval --json 'size((4,8))'                     # {\"input\": \"size((4,8))\", \"output\": \"32\"}

Output: a script has one statement per line; `#` starts a comment. Blank and
comment lines print nothing; every other line prints exactly one line on
standard output, in order, as soon as it is evaluated: its value, or
`error: KIND: message` (KIND is parse, type, rank, congruence, divisibility,
injectivity, overflow, bounds or value) - and the next line still runs.
A single EXPR is a one-statement script. `NAME = expr` binds NAME and prints
the value.

Exit status: 0 when every statement succeeded, 1 when any failed (its error
line is on standard output), 2 for a usage error or a file that cannot be
read (the message is on standard error).

With --echo, each statement is printed as `> STATEMENT` before its output
line, and comment and blank lines are copied, so a commented script reads as
a transcript. With --json, each statement prints one JSON object on one line:
{\"input\": STATEMENT, \"output\": TEXT} or
{\"input\": STATEMENT, \"error\": {\"kind\": KIND, \"message\": MESSAGE}}, the
error object having a \"hint\" as well where there is one.

Hints: when a statement written in C++ CuTe or Python style fails, e.g.
make_layout(make_shape(4,8), make_stride(1,4)), a `hint:` line on standard
error suggests the notation's form, (4,8):(1,4). Standard output is unchanged.
The language is described in docs/language.md.

Limits (docs/limits.md): a statement is at most 64 KiB; brackets and unary
signs nest at most 100 levels and an expression tree is at most 256 high;
a call takes at most 16 keyword arguments; a value nests at most 128 levels
(a shape or a coordinate value 64) and has at most 65536 parts (so do the
operands of one call together); a layout has at most 4096 leaves;
integers are signed 64-bit. Inputs beyond them are errors, never crashes.")]
pub struct EvalArgs {
    /// The statement to evaluate (e.g. 'logical_divide(24:1, 4:2)'); without
    /// it, or with `-`, statements are read from standard input, one per line
    #[arg(
        value_name = "EXPR",
        conflicts_with = "file",
        allow_hyphen_values = true
    )]
    pub expr: Option<String>,

    /// Run a script, one statement per line (`-` reads standard input)
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// Output style
    #[arg(long, value_enum, default_value_t = StyleArg::Str)]
    pub style: StyleArg,

    /// Print each statement (`> STATEMENT`) before its output; copy comment
    /// and blank lines
    #[arg(long, conflicts_with = "json")]
    pub echo: bool,

    /// Print one JSON object per statement: {"input": ..., "output": ...} or
    /// {"input": ..., "error": {"kind": ..., "message": ...}}
    #[arg(long)]
    pub json: bool,
}

/// Evaluates one line; `None` for a blank or comment line, else the output
/// text or the error. A panic inside the library is reported as an error
/// instead of ending the script.
fn eval_line(session: &mut Session, line: &str, style: StyleArg) -> Option<Result<String, Error>> {
    let r = catch_unwind(AssertUnwindSafe(|| session.eval_line(line)));
    match r {
        Ok(None) => None,
        Ok(Some(Ok(v))) => Some(style.format(&v)),
        Ok(Some(Err(e))) => Some(Err(e)),
        Err(_) => Some(Err(Error::value(
            "internal error while evaluating this statement",
        ))),
    }
}

/// How the statements' results are written.
struct Printer<'a, W: Write> {
    out: &'a mut W,
    echo: bool,
    json: bool,
}

impl<W: Write> Printer<'_, W> {
    /// Writes the result of `input` (the statement's text): one line, after
    /// the echo line with `--echo`; a hint, if any, goes to standard error
    /// (into the JSON object with `--json`). Fails when standard output is
    /// gone.
    fn statement(&mut self, input: &str, result: &Result<String, Error>) -> io::Result<()> {
        let hint = result.as_ref().err().and_then(|e| hints::hint(input, e));
        if self.json {
            let line = match result {
                Ok(text) => format!("{{\"input\": {}, \"output\": {}}}", json(input), json(text)),
                Err(e) => {
                    let hint = hint
                        .as_deref()
                        .map(|h| format!(", \"hint\": {}", json(h)))
                        .unwrap_or_default();
                    format!(
                        "{{\"input\": {}, \"error\": {{\"kind\": {}, \"message\": {}{hint}}}}}",
                        json(input),
                        json(e.kind().name()),
                        json(e.message())
                    )
                }
            };
            writeln!(self.out, "{line}")?;
            return self.out.flush();
        }
        if self.echo {
            writeln!(self.out, "> {input}")?;
        }
        match result {
            Ok(text) => writeln!(self.out, "{text}")?,
            Err(e) => writeln!(self.out, "error: {e}")?,
        }
        self.out.flush()?;
        if let Some(h) = hint {
            eprintln!("hint: {h}");
        }
        Ok(())
    }

    /// A blank or comment line: copied with `--echo`, else nothing.
    fn other(&mut self, line: &str) -> io::Result<()> {
        if self.echo && !self.json {
            writeln!(self.out, "{line}")?;
            self.out.flush()?;
        }
        Ok(())
    }
}

/// `s` as a JSON string.
fn json(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_string())
}

/// Runs `rcute eval`; returns the exit status.
pub fn run(args: &EvalArgs) -> i32 {
    let style = args.style;
    let mut session = Session::new();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut printer = Printer {
        out: &mut out,
        echo: args.echo,
        json: args.json,
    };
    let path = match (&args.expr, &args.file) {
        (Some(expr), _) if expr != "-" => {
            let result = eval_line(&mut session, expr, style)
                .unwrap_or_else(|| Err(Error::parse("column 1: empty statement")));
            let _ = printer.statement(expr.trim(), &result);
            return i32::from(result.is_err());
        }
        (_, Some(path)) if path.as_os_str() != "-" => path,
        _ => {
            let stdin = io::stdin();
            if stdin.is_terminal() {
                eprintln!(
                    "rcute eval: reading statements from standard input, one per line \
                     (end with Ctrl-D; `rcute eval --help` for more)"
                );
            }
            return run_script(Box::new(stdin.lock()), &mut session, style, &mut printer);
        }
    };
    match File::open(path) {
        Ok(f) => run_script(
            Box::new(BufReader::new(f)),
            &mut session,
            style,
            &mut printer,
        ),
        Err(e) => {
            eprintln!("rcute eval: cannot open {}: {e}", path.display());
            2
        }
    }
}

fn run_script<W: Write>(
    mut reader: Box<dyn BufRead + '_>,
    session: &mut Session,
    style: StyleArg,
    printer: &mut Printer<'_, W>,
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
        let written = match eval_line(session, line, style) {
            Some(result) => {
                failed |= result.is_err();
                printer.statement(line.trim(), &result)
            }
            None => printer.other(line),
        };
        if written.is_err() {
            // the reader went away (e.g. a closed pipe): stop quietly
            return i32::from(failed);
        }
    }
    i32::from(failed)
}
