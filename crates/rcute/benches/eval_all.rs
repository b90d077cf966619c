//! Whole-layout evaluation against memory bandwidth: `fill_offsets` of
//! rank-2 and rank-3 layouts of 2^24 elements, next to a plain `memcpy`
//! (`copy_from_slice`) and a plain fill of the same 128 MiB output buffer,
//! measured in the same run. Prints one line per variant: best and median
//! time of the repetitions, GB/s of output written, and the ratio of its
//! speed to memcpy's and to fill's.
//!
//! Run: `cargo bench -p rcute --bench eval_all`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rcute::notation::{eval_value, Value};
use rcute::offsets::{fill_offsets, fill_offsets_with};
use rcute::Layout;

const N: usize = 1 << 24;
const REPS: usize = 9;

fn layout(src: &str) -> Layout {
    match eval_value(src) {
        Ok(Value::Layout(l)) => l,
        other => panic!("{src}: {other:?}"),
    }
}

fn time(mut f: impl FnMut()) -> (Duration, Duration) {
    let mut v: Vec<Duration> = (0..REPS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    v.sort();
    (v[0], v[REPS / 2])
}

fn main() {
    let mut out = vec![1i64; N];
    let src: Vec<i64> = (0..N as i64).collect();
    let bytes = (N * 8) as f64;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "output: {N} x i64 = {} MiB; {threads} hardware threads",
        (N * 8) >> 20
    );
    let memcpy = time(|| {
        out.copy_from_slice(black_box(&src));
        black_box(&out);
    });
    let fill = time(|| {
        out.fill(black_box(7));
        black_box(&out);
    });
    let rows: Vec<(String, (Duration, Duration))> = vec![
        ("memcpy (copy_from_slice)".into(), memcpy),
        ("fill".into(), fill),
        {
            let l = layout("(4096,4096):(4096,1)");
            let t = time(|| fill_offsets(&l, black_box(&mut out)).unwrap());
            assert_eq!(out[1], 4096);
            (format!("fill_offsets {l}"), t)
        },
        {
            let l = layout("(256,256,256):(65536,1,256)");
            let t = time(|| fill_offsets(&l, black_box(&mut out)).unwrap());
            assert_eq!(out[1], 65536);
            (format!("fill_offsets {l}"), t)
        },
        {
            let l = layout("((64,4),(256,256)):((1,16777216),(64,16384))");
            let t = time(|| fill_offsets(&l, black_box(&mut out)).unwrap());
            (format!("fill_offsets {l}"), t)
        },
        {
            let l = layout("(256,256,256):(65536,1,256)");
            let t = time(|| fill_offsets_with(&l, black_box(&mut out), 1).unwrap());
            (format!("fill_offsets {l}, 1 thread"), t)
        },
    ];
    println!(
        "{:<58} {:>9} {:>9} {:>7} {:>9} {:>7}",
        "variant", "best_ms", "median_ms", "GB/s", "/memcpy", "/fill"
    );
    for (name, (best, median)) in &rows {
        let gbs = bytes / median.as_secs_f64() / 1e9;
        println!(
            "{:<58} {:>9.2} {:>9.2} {:>7.2} {:>9.2} {:>7.2}",
            name,
            best.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e3,
            gbs,
            memcpy.1.as_secs_f64() / median.as_secs_f64(),
            fill.1.as_secs_f64() / median.as_secs_f64(),
        );
    }
}
