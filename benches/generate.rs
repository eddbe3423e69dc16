//! Minimal-puzzle generation, one thread, against the `sudoku` crate's generator in the same run:
//! ours is [`Generator::puzzle`] with no symmetry (a random complete grid, one removal pass, and
//! the final check by the solver and the verifier); theirs is
//! `Sudoku::generate_with_symmetry(Symmetry::None)` (a random complete grid and one removal pass,
//! their documented minimal generator). Ends with puzzles/s and the ratio ours / crate, from
//! criterion's results and from an interleaved measurement: batches of ours and theirs
//! alternated and timed, so that a shared machine's changing load falls on both alike.
//!
//! `cargo bench --bench generate`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use sudoku_bulk::generate::{GenerateOptions, Generator};

mod common;

/// Puzzles per iteration.
const BATCH: u64 = 200;

fn bench_minimal(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate_minimal");
    group.throughput(Throughput::Elements(BATCH));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(8));
    let generator = Generator::new(GenerateOptions {
        minimal: true,
        ..GenerateOptions::default()
    })
    .unwrap();
    // Each iteration makes the next puzzles of the batch, so no puzzle is timed twice.
    let mut next = 0u64;
    group.bench_function("sudoku-bulk", |b| {
        b.iter(|| {
            let mut givens = 0;
            for _ in 0..BATCH {
                givens += generator.puzzle(next).unwrap().givens();
                next += 1;
            }
            black_box(givens)
        })
    });
    group.bench_function("sudoku-crate", |b| {
        b.iter(|| {
            let mut givens = 0;
            for _ in 0..BATCH {
                let s = sudoku::Sudoku::generate_with_symmetry(sudoku::Symmetry::None);
                givens += usize::from(s.n_clues());
            }
            black_box(givens)
        })
    });
    group.finish();
}

/// Rounds of the interleaved measurement, and puzzles per batch in each.
const ROUNDS: u64 = 20;
const ROUND_BATCH: u64 = 50;

/// Puzzles/s of ours and of the crate, batches alternated (ours first in even rounds).
fn interleaved() -> (f64, f64) {
    let generator = Generator::new(GenerateOptions {
        minimal: true,
        seed: 1,
        ..GenerateOptions::default()
    })
    .unwrap();
    let (mut ours, mut theirs) = (Duration::ZERO, Duration::ZERO);
    let mut next = 0;
    for round in 0..ROUNDS {
        let mut time_ours = || {
            let started = Instant::now();
            for _ in 0..ROUND_BATCH {
                black_box(generator.puzzle(next).unwrap());
                next += 1;
            }
            started.elapsed()
        };
        let time_theirs = || {
            let started = Instant::now();
            for _ in 0..ROUND_BATCH {
                black_box(sudoku::Sudoku::generate_with_symmetry(
                    sudoku::Symmetry::None,
                ));
            }
            started.elapsed()
        };
        if round % 2 == 0 {
            ours += time_ours();
            theirs += time_theirs();
        } else {
            theirs += time_theirs();
            ours += time_ours();
        }
    }
    let puzzles = (ROUNDS * ROUND_BATCH) as f64;
    (puzzles / ours.as_secs_f64(), puzzles / theirs.as_secs_f64())
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_minimal(&mut c);
    c.final_summary();
    let ours = common::rate("generate_minimal/sudoku-bulk");
    let theirs = common::rate("generate_minimal/sudoku-crate");
    println!(
        "\n{:<12} {:>14} {:>14} {:>8}",
        "measured", "ours/s", "crate/s", "ratio"
    );
    if let (Some(a), Some(b)) = (ours, theirs) {
        println!("{:<12} {a:>14.0} {b:>14.0} {:>8.3}", "criterion", a / b);
    }
    let (a, b) = interleaved();
    println!("{:<12} {a:>14.0} {b:>14.0} {:>8.3}", "interleaved", a / b);
}
