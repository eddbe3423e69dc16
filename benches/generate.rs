//! Minimal-puzzle generation, one thread, against the `sudoku` crate's generator in the same run:
//! ours is [`Generator::puzzle`] with no symmetry (a random complete grid, one removal pass, and
//! the final check by the solver and the verifier); theirs is
//! `Sudoku::generate_with_symmetry(Symmetry::None)` (a random complete grid and one removal pass,
//! their documented minimal generator). Ends with puzzles/s and the ratio ours / crate.
//!
//! `cargo bench --bench generate`

use std::hint::black_box;
use std::time::Duration;

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

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_minimal(&mut c);
    c.final_summary();
    let ours = common::rate("generate_minimal/sudoku-bulk");
    let theirs = common::rate("generate_minimal/sudoku-crate");
    if let (Some(a), Some(b)) = (ours, theirs) {
        println!(
            "\n{:>14} {:>14} {:>8}\n{a:>14.0} {b:>14.0} {:>8.3}",
            "ours/s",
            "crate/s",
            "ratio",
            a / b
        );
    }
}
