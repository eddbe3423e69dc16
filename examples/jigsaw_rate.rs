//! Solves the shipped jigsaw sample (`data/jigsaw_sample.csv`) single-threaded with one
//! algorithm and prints puzzles/s (best round of CPU time) and the counters per puzzle, mean
//! and median: a quick look for developing the jigsaw engine, not a benchmark (the criterion
//! bench `algorithms`, group `jigsaw_vs_standard`, is the reference).
//!
//! `cargo run --release --example jigsaw_rate -- [algorithm] [limit] [rounds]`

use sudoku_bulk::solver::{Algorithm, SearchStats, SolveOptions, solve};
use sudoku_bulk::{Grid, Layout};

/// CPU time of this thread, in seconds: less disturbed by other processes than wall time.
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn median(mut values: Vec<u64>) -> f64 {
    values.sort_unstable();
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2] as f64
    } else {
        (values[n / 2 - 1] + values[n / 2]) as f64 / 2.0
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let algorithm: Algorithm = args.get(1).map_or(Algorithm::Fast, |s| s.parse().unwrap());
    let limit: u64 = args.get(2).map_or(2, |s| s.parse().expect("limit"));
    let rounds: usize = args.get(3).map_or(20, |s| s.parse().expect("rounds"));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/jigsaw_sample.csv");
    let puzzles: Vec<(Grid, Layout)> = csv::Reader::from_path(path)
        .expect("the jigsaw sample")
        .records()
        .map(|r| {
            let r = r.expect("a record");
            (
                r[0].parse().expect("a puzzle"),
                Layout::parse(r[1].as_bytes()).expect("a layout"),
            )
        })
        .collect();
    let options = SolveOptions {
        algorithm,
        max_solutions: limit,
        ..SolveOptions::default()
    };
    let mut best = f64::INFINITY;
    let mut stats: Vec<SearchStats> = Vec::new();
    for _ in 0..rounds {
        let start = cpu_seconds();
        stats = puzzles
            .iter()
            .map(|(p, layout)| solve(p, layout, &options).expect("valid givens").stats)
            .collect();
        best = best.min(cpu_seconds() - start);
    }
    let n = puzzles.len() as f64;
    let column = |f: fn(&SearchStats) -> u64| stats.iter().map(f).collect::<Vec<u64>>();
    let mean = |v: &[u64]| v.iter().sum::<u64>() as f64 / n;
    println!(
        "{algorithm} on {} jigsaw puzzles: best of {rounds} rounds {:.0} puzzles/s",
        puzzles.len(),
        n / best
    );
    for (name, values) in [
        ("recursions", column(|s| s.recursions)),
        ("max_depth", column(|s| s.max_depth)),
        ("guesses", column(|s| s.guesses)),
        ("backtracks", column(|s| s.backtracks)),
        ("naked_singles", column(|s| s.naked_singles)),
        ("hidden_singles", column(|s| s.hidden_singles)),
    ] {
        println!(
            "  {name:<15} mean {:>9.2}  median {:>7.1}",
            mean(&values),
            median(values)
        );
    }
}
