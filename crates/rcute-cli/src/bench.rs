//! `rcute bench`: time the evaluation of each statement of a script.
//!
//! Each statement is parsed and prepared once ([`Prepared`]: literals
//! become values, operation names are resolved); the prepared statement is
//! then evaluated over and over in-process (no re-parsing) for at least `--min-time` milliseconds,
//! in batches whose size is calibrated so that one batch takes about 50 us
//! (at least 11 batches). Per statement it reports the median and the
//! minimum over the batches of the time per evaluation, and the heap
//! allocations per evaluation counted by the binary's global allocator
//! (`CountingAlloc`, installed only when the binary is built with the
//! `count-allocs` feature; otherwise the allocations are unknown).

use std::fs;
use std::hint::black_box;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use rcute::notation::parser::parse_statement;
use rcute::notation::prepare::Prepared;
use rcute::notation::{Session, Value};

#[cfg(feature = "count-allocs")]
pub use counting::CountingAlloc;

/// The allocation counter of the `count-allocs` feature.
#[cfg(feature = "count-allocs")]
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    /// The global allocator of the `rcute` binary built with the
    /// `count-allocs` feature: the system allocator, with a per-thread count
    /// of the allocations (and reallocations) made through it.
    pub struct CountingAlloc;

    thread_local! {
        static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    }

    #[inline]
    fn count_one() {
        // `try_with`: never fails on a const-initialised, destructor-free slot,
        // but stays quiet during thread teardown if it ever did
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
    }

    // SAFETY: every call is forwarded unchanged to the system allocator; the
    // only addition is a thread-local counter increment.
    unsafe impl GlobalAlloc for CountingAlloc {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            count_one();
            System.alloc(layout)
        }
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            count_one();
            System.alloc_zeroed(layout)
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            count_one();
            System.realloc(ptr, layout, new_size)
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            System.dealloc(ptr, layout)
        }
    }

    /// Heap allocations made so far by the calling thread.
    pub fn allocations() -> u64 {
        ALLOCATIONS.try_with(Cell::get).unwrap_or(0)
    }
}

/// Heap allocations made so far by the calling thread, when the binary
/// counts them (feature `count-allocs`); `None` otherwise.
#[inline]
fn allocations() -> Option<u64> {
    #[cfg(feature = "count-allocs")]
    {
        Some(counting::allocations())
    }
    #[cfg(not(feature = "count-allocs"))]
    {
        None
    }
}

/// Arguments of `rcute bench`.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  rcute bench                                     # the built-in cases (bench/cases.cute)
  rcute bench --json --min-time 500
  rcute bench --reference bench/reference_ns.json # from the repository's root: with the
                                                  # pure-Python reference's times
  rcute bench -f my_layouts.cute                  # your own script

Without -f, rcute bench times the 33 benchmark cases of the repository's
bench/cases.cute, built into the binary (so it runs from any directory);
bench/reference_ns.json holds the reference implementation's times for them.

Each statement is parsed once and then evaluated repeatedly in-process (the
parsed form is re-evaluated: layout literals are rebuilt, operations
dispatched, results built and dropped, on every evaluation). An assignment
is timed as the evaluation of its right-hand side and then bound once, so
later lines can use the name. `allocs` is the number of heap allocations per
evaluation, counted only by a binary built with the `count-allocs` feature
(`cargo build --release -p rcute-cli --features count-allocs`); otherwise it
is `-` (`null` with --json).")]
pub struct BenchArgs {
    /// The script to time, one statement per line (`-` reads standard
    /// input) [default: the built-in benchmark cases, bench/cases.cute]
    #[arg(short = 'f', long = "file", value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// Print one JSON object per statement instead of a table
    #[arg(long)]
    pub json: bool,

    /// Minimum time spent evaluating each statement, in milliseconds
    #[arg(long = "min-time", value_name = "MS", default_value_t = 200)]
    pub min_time: u64,

    /// Reference timings (`{"reference_median_ns": {expr: ns, ...}}`):
    /// adds the reference time and the speed-up to each row
    #[arg(long, value_name = "FILE")]
    pub reference: Option<PathBuf>,
}

/// The timing of one statement.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// median over the batches of the time per evaluation, ns
    pub median_ns: f64,
    /// minimum over the batches of the time per evaluation, ns
    pub min_ns: f64,
    /// heap allocations per evaluation; `None` when the binary does not
    /// count them (built without the `count-allocs` feature)
    pub allocs: Option<f64>,
    /// evaluations timed in all
    pub evaluations: u64,
}

/// Times `f` for at least `min_time`: calibrates a batch size (about
/// 50 us per batch), then runs batches (at least 11) and reports the per-evaluation median and minimum
/// over the batches and the allocations per evaluation.
pub fn time_it<R>(min_time: Duration, mut f: impl FnMut() -> R) -> Timing {
    // short batches (about 50 us): many samples, and on a busy machine most
    // of them fall between two preemptions, so the minimum and the median
    // are not inflated by other processes' time slices
    let target = (min_time / 1000).clamp(Duration::from_micros(10), Duration::from_micros(50));
    let mut n: u64 = 1;
    loop {
        let t = Instant::now();
        for _ in 0..n {
            // by reference: the result is built and dropped, not copied
            black_box(&f());
        }
        let e = t.elapsed();
        if e >= target || n >= 1 << 30 {
            break;
        }
        let scale = if e.as_nanos() == 0 {
            16
        } else {
            ((target.as_nanos() * 5 / 4) / e.as_nanos()).clamp(2, 16) as u64
        };
        n = n.saturating_mul(scale);
    }
    let mut samples: Vec<f64> = Vec::with_capacity(4096);
    let start = Instant::now();
    let mut evaluations: u64 = 0;
    // counted inside the batches only (growing `samples` is not the
    // evaluation's)
    let mut allocated: Option<u64> = Some(0);
    while samples.len() < 11 || start.elapsed() < min_time {
        let a0 = allocations();
        let t = Instant::now();
        for _ in 0..n {
            // by reference: the result is built and dropped, not copied
            black_box(&f());
        }
        let e = t.elapsed();
        allocated = match (allocated, a0, allocations()) {
            (Some(total), Some(a0), Some(a1)) => Some(total + (a1 - a0)),
            _ => None,
        };
        samples.push(e.as_nanos() as f64 / n as f64);
        evaluations += n;
    }
    let allocs = allocated.map(|a| a as f64 / evaluations as f64);
    samples.sort_by(f64::total_cmp);
    let k = samples.len();
    let median_ns = if k % 2 == 1 {
        samples[k / 2]
    } else {
        (samples[k / 2 - 1] + samples[k / 2]) / 2.0
    };
    Timing {
        median_ns,
        min_ns: samples[0],
        allocs,
        evaluations,
    }
}

/// One row of the report.
struct Row {
    expr: String,
    outcome: Result<Timing, String>,
    reference_ns: Option<f64>,
}

/// The benchmark cases timed without `-f`: the repository's
/// `bench/cases.cute`, built in.
pub const BUILTIN_CASES: &str = include_str!("../bench/cases.cute");

/// Runs `rcute bench`; returns the exit status.
pub fn run(args: &BenchArgs) -> i32 {
    let text = match &args.file {
        None => BUILTIN_CASES.to_string(),
        Some(file) if file.as_os_str() == "-" => {
            let mut s = String::new();
            if let Err(e) = io::Read::read_to_string(&mut io::stdin(), &mut s) {
                eprintln!("rcute bench: read error: {e}");
                return 2;
            }
            s
        }
        Some(file) => match fs::read_to_string(file) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("rcute bench: cannot open {}: {e}", file.display());
                return 2;
            }
        },
    };
    let reference = match &args.reference {
        None => Vec::new(),
        Some(p) => match fs::read_to_string(p) {
            Ok(s) => parse_reference(&s),
            Err(e) => {
                eprintln!("rcute bench: cannot open {}: {e}", p.display());
                return 2;
            }
        },
    };
    let min_time = Duration::from_millis(args.min_time);
    let mut session = Session::new();
    let mut rows = Vec::new();
    let mut failed = false;
    for line in text.lines() {
        let stmt = match parse_statement(line) {
            Ok(None) => continue,
            Ok(Some(s)) => s,
            Err(e) => {
                failed = true;
                let row = Row {
                    expr: line.trim().to_string(),
                    outcome: Err(e.to_string()),
                    reference_ns: None,
                };
                if args.json {
                    print_json(&row);
                }
                rows.push(row);
                continue;
            }
        };
        let expr = line.trim().to_string();
        let reference_ns = reference.iter().find(|(k, _)| *k == expr).map(|&(_, v)| v);
        let prepared = Prepared::new(&stmt);
        let name = prepared.assigns().map(str::to_string);
        let outcome = match session.eval_prepared(&prepared) {
            Err(err) => Err(err.to_string()),
            Ok(v) => {
                let t = {
                    let s = &session;
                    // each evaluation writes its value into one slot (built in
                    // place, not moved out; `Session::eval_prepared_into`)
                    let mut slot = Value::None;
                    time_it(min_time, || {
                        let r = s.eval_prepared_into(&prepared, &mut slot);
                        black_box(&slot);
                        r
                    })
                };
                if let Some(n) = name {
                    if let Err(err) = session.set(&n, v) {
                        failed = true;
                        eprintln!("rcute bench: {expr}: {err}");
                    }
                }
                Ok(t)
            }
        };
        failed |= outcome.is_err();
        let row = Row {
            expr,
            outcome,
            reference_ns,
        };
        if args.json {
            print_json(&row);
        }
        rows.push(row);
    }
    if !args.json {
        print_table(&rows);
    }
    i32::from(failed)
}

fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn print_json(row: &Row) {
    let mut out = io::stdout().lock();
    let line = match &row.outcome {
        Ok(t) => {
            let mut s = format!(
                "{{\"expr\": {}, \"median_ns\": {:.1}, \"min_ns\": {:.1}, \"allocs\": {}",
                json_string(&row.expr),
                t.median_ns,
                t.min_ns,
                fmt_allocs(t.allocs, "null")
            );
            if let Some(r) = row.reference_ns {
                s.push_str(&format!(
                    ", \"reference_ns\": {r}, \"speedup\": {:.1}",
                    r / t.median_ns
                ));
            }
            s.push('}');
            s
        }
        Err(e) => format!(
            "{{\"expr\": {}, \"error\": {}}}",
            json_string(&row.expr),
            json_string(e)
        ),
    };
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The allocations per evaluation as `--json` and the table write them:
/// `unknown` (`null` / `-`) when the binary does not count them.
fn fmt_allocs(a: Option<f64>, unknown: &str) -> String {
    match a {
        None => unknown.to_string(),
        Some(a) if a == a.trunc() => format!("{a:.0}"),
        Some(a) => format!("{a:.2}"),
    }
}

fn print_table(rows: &[Row]) {
    let mut out = io::stdout().lock();
    let with_ref = rows.iter().any(|r| r.reference_ns.is_some());
    let w = rows.iter().map(|r| r.expr.len()).max().unwrap_or(4).max(4);
    let mut header = format!(
        "{:<w$}  {:>10}  {:>10}  {:>6}",
        "expr", "median_ns", "min_ns", "allocs"
    );
    if with_ref {
        header.push_str(&format!(
            "  {:>12}  {:>8}  {:>7}",
            "reference_ns", "speedup", "ratio"
        ));
    }
    let _ = writeln!(out, "{header}");
    let mut speedups = Vec::new();
    let mut worst: Option<(f64, &str)> = None;
    for r in rows {
        match &r.outcome {
            Ok(t) => {
                let mut line = format!(
                    "{:<w$}  {:>10.1}  {:>10.1}  {:>6}",
                    r.expr,
                    t.median_ns,
                    t.min_ns,
                    fmt_allocs(t.allocs, "-")
                );
                if let Some(x) = r.reference_ns {
                    let s = x / t.median_ns;
                    speedups.push(s);
                    if worst.is_none_or(|(ws, _)| s < ws) {
                        worst = Some((s, &r.expr));
                    }
                    line.push_str(&format!("  {:>12.0}  {:>7.0}x  {:>6.2}%", x, s, 100.0 / s));
                }
                let _ = writeln!(out, "{line}");
            }
            Err(e) => {
                let _ = writeln!(out, "{:<w$}  error: {e}", r.expr);
            }
        }
    }
    if !speedups.is_empty() {
        speedups.sort_by(f64::total_cmp);
        let k = speedups.len();
        let median = if k % 2 == 1 {
            speedups[k / 2]
        } else {
            (speedups[k / 2 - 1] + speedups[k / 2]) / 2.0
        };
        let _ = writeln!(
            out,
            "median speed-up {median:.0}x over {k} cases; smallest {:.0}x ({})",
            worst.map_or(0.0, |w| w.0),
            worst.map_or("", |w| w.1)
        );
    }
    let _ = out.flush();
}

/// Reads the `"expr": ns` pairs of a reference file: every string key
/// followed by a number, anywhere in the JSON text (the file's one object
/// of timings; other string-valued keys are skipped).
fn parse_reference(text: &str) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'"' {
            i += 1;
            continue;
        }
        // a string literal
        let mut s = String::new();
        let mut j = i + 1;
        while j < b.len() && b[j] != b'"' {
            if b[j] == b'\\' && j + 1 < b.len() {
                j += 1;
            }
            j += 1;
        }
        if let Some(raw) = text.get(i + 1..j) {
            s.push_str(&raw.replace("\\\"", "\"").replace("\\\\", "\\"));
        }
        i = j + 1;
        // a key is followed by ':'; its value may be a number
        let mut k = i;
        while k < b.len() && b[k].is_ascii_whitespace() {
            k += 1;
        }
        if k < b.len() && b[k] == b':' {
            k += 1;
            while k < b.len() && b[k].is_ascii_whitespace() {
                k += 1;
            }
            let st = k;
            while k < b.len() && (b[k].is_ascii_digit() || b"+-.eE".contains(&b[k])) {
                k += 1;
            }
            if let Some(Ok(v)) = text.get(st..k).map(str::parse::<f64>) {
                out.push((s, v));
                i = k;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_file_pairs() {
        let r = parse_reference(
            "{\"note\": \"x: 1\", \"reference_median_ns\": {\"a(1, 2)\": 12653, \"b\": 7.5}}",
        );
        assert_eq!(
            r,
            vec![("a(1, 2)".to_string(), 12653.0), ("b".to_string(), 7.5)]
        );
    }

    #[test]
    #[cfg(feature = "count-allocs")]
    fn timing_counts_allocations() {
        let t = time_it(Duration::from_millis(5), || vec![1u8; 3]);
        assert!(t.allocs.is_some_and(|a| a >= 1.0), "{t:?}");
        let t = time_it(Duration::from_millis(5), || 3u8);
        assert_eq!(t.allocs, Some(0.0));
        assert!(t.min_ns <= t.median_ns);
    }

    #[test]
    #[cfg(not(feature = "count-allocs"))]
    fn timing_without_counting_allocations() {
        let t = time_it(Duration::from_millis(5), || vec![1u8; 3]);
        assert_eq!(t.allocs, None);
        assert!(t.min_ns > 0.0 && t.min_ns <= t.median_ns, "{t:?}");
        assert_eq!(fmt_allocs(t.allocs, "null"), "null");
        assert_eq!(fmt_allocs(Some(0.0), "null"), "0");
        assert_eq!(fmt_allocs(Some(1.5), "-"), "1.50");
    }
}
