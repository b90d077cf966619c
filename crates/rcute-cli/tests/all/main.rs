//! The integration tests of the `rcute` command-line tool, built as one test
//! binary (`cargo test -p rcute-cli --test all`) instead of one per file.
//! Each module runs the built `rcute` binary (`CARGO_BIN_EXE_rcute`); run
//! one of them with a name filter, e.g. `cargo test -p rcute-cli --test all
//! draw::`.

mod bad_input;
mod cli;
mod draw;
mod newcomer;
mod operations;
mod show_tensor;
mod symbols;

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the built `rcute` with `args` and `input` on its standard input
/// (written from a second thread, so that a large input and a large output
/// cannot block each other), and returns its output.
pub(crate) fn rcute_with_input(args: &[&str], input: Vec<u8>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rcute"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn rcute");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        // the process may stop reading early; a broken pipe is fine
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait rcute");
    writer.join().expect("writer thread");
    out
}
