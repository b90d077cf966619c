//! The integration tests of the rcute library, built as one test binary
//! (`cargo test -p rcute --test all`) instead of one per file: one module
//! per area below, and the shared helpers (`common`, `compose_util`,
//! `divprod_util`, `inverse_support`, `oracle`) compiled once, reached as
//! `crate::<helper>`.
//!
//! Run one area with a name filter, e.g.
//! `cargo test -p rcute --test all composition::`. The ignored long runs
//! (`extended`, `composition::oracle_stress`) say in their modules how to
//! run them.
//!
//! Proptest keeps the regression seeds of `all/<module>.rs` in
//! `tests/proptest-regressions/<module>.txt` (its default `SourceParallel`
//! persistence finds this `main.rs` and uses a `proptest-regressions`
//! folder beside `all/`) and replays them before new cases.

mod common;
mod compose_util;
mod divprod_util;
mod inverse_support;
mod oracle;

mod bad_input;
mod coalesce;
mod complement;
mod composition;
mod cpp_forms;
mod cpp_names;
mod divide;
mod docs_examples;
mod extended;
mod filter;
mod htuple;
mod inline_lists;
mod inverse;
mod layout;
mod layout_add;
mod max_common;
mod newcomer_errors;
mod notation;
mod notation_props;
mod offsets;
mod prepare;
mod product;
mod recast;
mod stride;
mod swizzle;
mod swizzled;
mod sym;
mod tensor;
mod tensor_examples;
mod typed_allocs;
mod viz;
