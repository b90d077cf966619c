//! The extended property run: every operation of `tests/all/oracle` on
//! 1,000,000 random structured cases, post-conditions checked on every
//! success (`docs/fuzzing.md`). Ignored by default; run it with
//!
//! ```text
//! cargo test --release -p rcute --test all extended:: -- --ignored --nocapture
//! ```
//!
//! (the filter `extended::` keeps the run to this module of the `all` test
//! binary; one group runs alone by its name, e.g. `extended::composition`,
//! with `--exact` where it is a prefix of another: `extended::coalesce`).
//! `RCUTE_EXTENDED_CASES=N` changes the number of cases per operation and
//! `RCUTE_EXTENDED_SEED=S` the base seed. A failure names the operation and
//! the seed of the failing case; `RCUTE_EXTENDED_REPLAY=OP:SEED` with
//! `cargo test --release -p rcute --test all extended::replay -- --ignored
//! --nocapture` reruns that one case (algebra and tensor groups). The
//! default (not ignored) tests, `extended::oracle_smoke` and
//! `extended::tensor_smoke`, run 300 cases per operation so that the oracle
//! itself stays exercised in every test run.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::oracle::{self, run_op, Outcome, Rng, OPS};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// The seed of case `k` of operation `op`.
fn case_seed(base: u64, op: usize, k: u64) -> u64 {
    base ^ ((op as u64) << 48) ^ k.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// Runs `cases` cases of `op`; panics with the op, seed and message of the
/// first failure (a violated post-condition or a panic in the library).
fn run(op: usize, cases: u64) {
    let base = env_u64("RCUTE_EXTENDED_SEED", 0x5EED_CAFE);
    let (mut checked, mut rejected) = (0u64, 0u64);
    for k in 0..cases {
        let seed = case_seed(base, op, k);
        let r = catch_unwind(AssertUnwindSafe(|| run_op(op, &mut Rng(seed))));
        match r {
            Ok(Ok(Outcome::Checked)) => checked += 1,
            Ok(Ok(Outcome::Rejected)) => rejected += 1,
            Ok(Err(msg)) => panic!("{} (seed {seed:#x}): {msg}", OPS[op]),
            Err(_) => panic!("{} (seed {seed:#x}): the library panicked", OPS[op]),
        }
    }
    println!(
        "{:<18} {cases} cases: {checked} checked, {rejected} rejected (errors), 0 failures",
        OPS[op]
    );
}

#[test]
fn oracle_smoke() {
    for op in 0..OPS.len() {
        run(op, env_u64("RCUTE_SMOKE_CASES", 300));
    }
}

#[test]
#[ignore]
fn replay() {
    let Ok(spec) = std::env::var("RCUTE_EXTENDED_REPLAY") else {
        return;
    };
    let (name, seed) = spec.split_once(':').expect("RCUTE_EXTENDED_REPLAY=OP:SEED");
    let seed = u64::from_str_radix(seed.trim_start_matches("0x"), 16).expect("a hex seed");
    // the algebra groups, then the tensor groups
    let r = if let Some(op) = OPS.iter().position(|&n| n == name) {
        run_op(op, &mut Rng(seed))
    } else if let Some(op) = oracle::tensor::TENSOR_OPS.iter().position(|&n| n == name) {
        oracle::tensor::run_tensor_op(op, &mut Rng(seed))
    } else {
        panic!("{name} is not an operation group");
    };
    println!("{r:?}");
    assert!(r.is_ok(), "{name} (seed {seed:#x}): {r:?}");
}

macro_rules! extended {
    ($($name:ident = $op:expr;)*) => {$(
        #[test]
        #[ignore]
        fn $name() {
            assert_eq!(OPS[$op], stringify!($name));
            run($op, env_u64("RCUTE_EXTENDED_CASES", 1_000_000));
        }
    )*};
}

extended! {
    size_cosize_eval = 0;
    coalesce = 1;
    coalesce_z = 2;
    filter = 3;
    composition = 4;
    complement = 5;
    logical_divide = 6;
    divide_variants = 7;
    logical_product = 8;
    product_variants = 9;
    right_inverse = 10;
    left_inverse = 11;
    nullspace = 12;
    layout_add = 13;
    max_common = 14;
    recast = 15;
    slice_and_offset = 16;
    swizzle = 17;
    constructors = 18;
    by_mode = 19;
}

/// The tensor cases (`oracle/tensor.rs`).
fn run_tensor(op: usize, cases: u64) {
    use oracle::tensor::{run_tensor_op, TENSOR_OPS};
    let base = env_u64("RCUTE_EXTENDED_SEED", 0x5EED_CAFE) ^ 0x7E45_0000_0000_0000;
    let (mut checked, mut rejected) = (0u64, 0u64);
    for k in 0..cases {
        let seed = case_seed(base, op, k);
        let r = catch_unwind(AssertUnwindSafe(|| run_tensor_op(op, &mut Rng(seed))));
        match r {
            Ok(Ok(Outcome::Checked)) => checked += 1,
            Ok(Ok(Outcome::Rejected)) => rejected += 1,
            Ok(Err(msg)) => panic!("{} (seed {seed:#x}): {msg}", TENSOR_OPS[op]),
            Err(_) => panic!("{} (seed {seed:#x}): the library panicked", TENSOR_OPS[op]),
        }
    }
    println!(
        "{:<18} {cases} cases: {checked} checked, {rejected} rejected (errors), 0 failures",
        TENSOR_OPS[op]
    );
}

#[test]
fn tensor_smoke() {
    for op in 0..oracle::tensor::TENSOR_OPS.len() {
        run_tensor(op, env_u64("RCUTE_SMOKE_CASES", 300));
    }
}

macro_rules! extended_tensor {
    ($($name:ident = $op:expr;)*) => {$(
        #[test]
        #[ignore]
        fn $name() {
            assert_eq!(oracle::tensor::TENSOR_OPS[$op], stringify!($name));
            run_tensor($op, env_u64("RCUTE_EXTENDED_CASES", 1_000_000));
        }
    )*};
}

extended_tensor! {
    copy = 0;
    fill_clear = 1;
    tensor_slice = 2;
    partition = 3;
    gemm = 4;
}
