//! Fuzz target (c): tensors and copies. The input chooses the operation
//! (copy, fill/clear, element access and slicing, partitioning, gemm) and
//! builds memory tensors over small buffers with random layouts (aliasing,
//! broadcasting, negative strides, offset bases, buffers one element short)
//! through `arbitrary::Unstructured`. Results are compared with a
//! sequential model of the reference loops (`crates/rcute/tests/all/
//! oracle/tensor.rs`); a failing operation must leave the destination
//! untouched.
#![no_main]

use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

#[path = "../../crates/rcute/tests/all/oracle/mod.rs"]
mod oracle;

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
    let ops = oracle::tensor::TENSOR_OPS;
    let op = u.choose_index(ops.len()).unwrap_or(0);
    if let Err(msg) = oracle::tensor::run_tensor_op(op, &mut Bytes(&mut u)) {
        panic!("{}: {msg}", ops[op]);
    }
});
