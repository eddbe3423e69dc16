//! The core solver against the `sudoku` crate (a Rust port of JCZSolve), single thread, in one
//! run: each shipped benchmark set and three generated ones (`common/generated.rs`: easy,
//! random givens, minimal; 2,000 puzzles each), with the solution limit 1 (first solution) and
//! 2 (uniqueness check). Ends with a table of puzzles/s and the ratio ours / crate.
//!
//! `cargo bench --bench solver`; `SUDOKU_BENCH_SETS=17_clue,serg` picks sets by substring.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use sudoku_bulk::solver::{Algorithm, SolveOptions, solve};
use sudoku_bulk::{Grid, Layout};

mod common;
#[path = "common/generated.rs"]
mod generated;

/// Where a set's puzzles come from.
enum Source {
    /// A shipped file in `data/`.
    Shipped(&'static str),
    /// Generated: the kind, and the seed.
    Generated(generated::Kind, u64),
}

const SETS: &[(&str, Source)] = &[
    ("17_clue", Source::Shipped("puzzles2_17_clue.txt.gz")),
    (
        "magictour_top1465",
        Source::Shipped("puzzles3_magictour_top1465.txt.gz"),
    ),
    (
        "forum_hardest_1905_11+",
        Source::Shipped("puzzles5_forum_hardest_1905_11+.txt.gz"),
    ),
    (
        "serg_benchmark",
        Source::Shipped("puzzles7_serg_benchmark.txt.gz"),
    ),
    (
        "easy_generated",
        Source::Generated(generated::Kind::Easy, 1),
    ),
    (
        "random_generated",
        Source::Generated(generated::Kind::Random, 2),
    ),
    (
        "minimal_generated",
        Source::Generated(generated::Kind::Minimal, 3),
    ),
];

/// Puzzles in each generated set.
const GENERATED: u64 = 2_000;

/// The puzzle lines of a set.
fn lines(source: &Source) -> Vec<String> {
    match *source {
        Source::Shipped(file) => common::shipped_lines(file),
        Source::Generated(kind, seed) => generated::puzzles(kind, GENERATED, seed)
            .iter()
            .map(Grid::to_line)
            .collect(),
    }
}

fn wanted(name: &str) -> bool {
    match std::env::var("SUDOKU_BENCH_SETS") {
        Ok(list) => list.split(',').any(|s| name.contains(s.trim())),
        Err(_) => true,
    }
}

fn bench_sets(c: &mut Criterion) {
    for (name, source) in SETS.iter().filter(|(name, _)| wanted(name)) {
        let lines = lines(source);
        let ours: Vec<Grid> = lines.iter().map(|l| l.parse().unwrap()).collect();
        let theirs: Vec<sudoku::Sudoku> = lines
            .iter()
            .map(|l| sudoku::Sudoku::from_str_line(l).unwrap())
            .collect();
        let layout = Layout::standard();
        let mut group = c.benchmark_group(*name);
        group.throughput(Throughput::Elements(lines.len() as u64));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(5));
        for limit in [1u64, 2] {
            let options = SolveOptions {
                algorithm: Algorithm::Fast,
                max_solutions: limit,
                ..SolveOptions::default()
            };
            group.bench_function(
                BenchmarkId::new("sudoku-bulk", format!("limit{limit}")),
                |b| {
                    b.iter(|| {
                        let mut found = 0u64;
                        for g in &ours {
                            found += solve(g, &layout, &options).unwrap().solutions;
                        }
                        black_box(found)
                    })
                },
            );
            group.bench_function(
                BenchmarkId::new("sudoku-crate", format!("limit{limit}")),
                |b| {
                    b.iter(|| {
                        let mut found = 0usize;
                        for s in &theirs {
                            found += if limit == 1 {
                                s.some_solution().is_some() as usize
                            } else {
                                s.solutions_count_up_to(2)
                            };
                        }
                        black_box(found)
                    })
                },
            );
        }
        group.finish();
    }
}

/// Reads criterion's results back and prints puzzles/s and ratios for this run.
fn print_ratios() {
    println!(
        "\n{:<24} {:>5} {:>14} {:>14} {:>8}",
        "set", "limit", "ours/s", "crate/s", "ratio"
    );
    for (name, _) in SETS.iter().filter(|(name, _)| wanted(name)) {
        for limit in [1, 2] {
            if let (Some(a), Some(b)) = (
                common::rate(&format!("{name}/sudoku-bulk/limit{limit}")),
                common::rate(&format!("{name}/sudoku-crate/limit{limit}")),
            ) {
                println!("{name:<24} {limit:>5} {a:>14.0} {b:>14.0} {:>8.3}", a / b);
            }
        }
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_sets(&mut c);
    c.final_summary();
    print_ratios();
}
