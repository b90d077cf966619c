//! Times `rcute::tensor::copy` of 2^24 f32 through a transposing layout,
//! the counterpart of numpy's `np.ascontiguousarray(a.T)` for a C-ordered
//! 4096 x 4096 `a` (see `copy_bench.py` and docs/performance.md).
//!
//! Run: `cargo run --release -p rcute --example copy_bench [reps]`.
//!
//! `b[i, j] = a[j, i]` with `b` row-major is the copy from the source layout
//! `(N,N):(1,N)` over `a`'s buffer to the destination layout `(N,N):(N,1)`.
//! A contiguous copy of the same size is timed for comparison.

use std::time::Instant;

use rcute::tensor::{copy, Tensor};
use rcute::{HTuple, Layout, Scalar};

fn layout(n: i64, s0: i64, s1: i64) -> Layout {
    Layout::new(
        HTuple::flat([n, n]),
        HTuple::flat([Scalar::Int(s0), Scalar::Int(s1)]),
    )
    .expect("a valid layout")
}

fn time(reps: usize, mut f: impl FnMut()) -> (f64, f64) {
    f(); // warm-up (first touch of the destination pages)
    let mut ts: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    ts.sort_by(f64::total_cmp);
    (ts[0], ts[ts.len() / 2])
}

fn main() -> rcute::Result<()> {
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let n: i64 = 4096;
    let len = (n * n) as usize;
    let a: Vec<f32> = (0..len).map(|i| i as f32).collect();
    let src_t = Tensor::from_vec(a.clone(), layout(n, 1, n))?; // a.T
    let src_c = Tensor::from_vec(a, layout(n, n, 1))?; // a
    let mut dst = Tensor::from_vec(vec![0f32; len], layout(n, n, 1))?;

    let (tmin, tmed) = time(reps, || copy(&src_t, &mut dst).expect("copy"));
    // check the result: b[i, j] = a[j, i]
    let b = dst.accessor().as_slice();
    for &(i, j) in &[(0usize, 1usize), (1, 0), (4095, 17), (1234, 4095)] {
        assert_eq!(b[i * 4096 + j], (j * 4096 + i) as f32);
    }
    let (cmin, cmed) = time(reps, || copy(&src_c, &mut dst).expect("copy"));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let gbs = |ms: f64| 2.0 * (len * 4) as f64 / (ms * 1e-3) / 1e9;
    println!("rcute copy, 2^24 f32, {threads} hardware threads, {reps} reps");
    println!(
        "transpose (N,N):(1,N) -> (N,N):(N,1): min {tmin:.2} ms, median {tmed:.2} ms ({:.1} GB/s at min)",
        gbs(tmin)
    );
    println!(
        "contiguous (N,N):(N,1) -> (N,N):(N,1): min {cmin:.2} ms, median {cmed:.2} ms ({:.1} GB/s at min)",
        gbs(cmin)
    );
    Ok(())
}
