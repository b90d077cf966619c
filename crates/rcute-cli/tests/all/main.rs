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
