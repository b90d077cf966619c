//! Fuzz target (b): the layout algebra. The input chooses the operation and
//! builds structured operands (shapes with small, huge, near-2^62 and
//! invalid extents; compact, permuted, random, basis and F2 strides;
//! tilers, coordinates, scales) through `arbitrary::Unstructured`; every
//! successful operation is checked against its post-conditions with exact
//! `i128` models (`crates/rcute/tests/all/oracle`, shared with the extended
//! property run). A violated post-condition or a panic is a crash.
#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/rcute/tests/all/oracle/mod.rs"]
mod oracle;

/// The fuzzer's bytes as a source of choices.
struct Bytes<'a, 'b>(&'b mut Unstructured<'a>);

impl oracle::Src for Bytes<'_, '_> {
    fn below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        self.0.int_in_range(0..=n - 1).unwrap_or(0)
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let op = u.choose_index(oracle::OPS.len()).unwrap_or(0);
    if let Err(msg) = oracle::run_op(op, &mut Bytes(&mut u)) {
        panic!("{}: {msg}", oracle::OPS[op]);
    }
});
