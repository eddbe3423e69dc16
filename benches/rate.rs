//! The rater (`sudoku_bulk::rate`), single thread, on every shipped set: puzzles/s of rating
//! alone (each puzzle's uniqueness is settled before timing, by the solver). Ends with a
//! table of puzzles/s per set. The comparison with hodoku-py is `scripts/compare_hodoku.py`
//! (Python cannot run inside criterion).
//!
//! `cargo bench --bench rate`; `SUDOKU_BENCH_SETS=magictour,qqwing` picks sets by substring.
//!
//! Sets and how much of each is rated per iteration (the slow ones are cut so that one
//! iteration stays near a second): the four QQWing-graded sets of `data/graded/` (all 1000),
//! the first 2000 17-clue puzzles, the first 200 of magictour top1465, the first 30 of
//! forum_hardest_1106 and of forum_hardest_1905_11+, and the first 100 of serg's benchmark,
//! whose puzzles have several solutions (rated without uniqueness techniques).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use sudoku_bulk::rate::{RateOptions, Rater};
use sudoku_bulk::solver::{SolveOptions, solve};
use sudoku_bulk::{Grid, Layout};

mod common;

/// (name, file under data/, puzzles rated).
const SETS: &[(&str, &str, usize)] = &[
    ("qqwing_simple", "graded/qqwing_simple.txt.gz", 1000),
    ("qqwing_easy", "graded/qqwing_easy.txt.gz", 1000),
    (
        "qqwing_intermediate",
        "graded/qqwing_intermediate.txt.gz",
        1000,
    ),
    ("qqwing_expert", "graded/qqwing_expert.txt.gz", 1000),
    ("17_clue", "puzzles2_17_clue.txt.gz", 2000),
    (
        "magictour_top1465",
        "puzzles3_magictour_top1465.txt.gz",
        200,
    ),
    (
        "forum_hardest_1106",
        "puzzles6_forum_hardest_1106.txt.gz",
        30,
    ),
    (
        "forum_hardest_1905_11+",
        "puzzles5_forum_hardest_1905_11+.txt.gz",
        30,
    ),
    ("serg_benchmark", "puzzles7_serg_benchmark.txt.gz", 100),
];

fn wanted(name: &str) -> bool {
    match std::env::var("SUDOKU_BENCH_SETS") {
        Ok(list) => list.split(',').any(|s| name.contains(s.trim())),
        Err(_) => true,
    }
}

fn bench_sets(c: &mut Criterion) {
    let layout = Layout::standard();
    for &(name, file, take) in SETS.iter().filter(|(name, _, _)| wanted(name)) {
        let puzzles: Vec<(Grid, bool)> = common::shipped_lines(file)
            .iter()
            .take(take)
            .map(|l| {
                let grid: Grid = l[..81].parse().unwrap();
                let outcome = solve(&grid, &layout, &SolveOptions::default()).unwrap();
                (grid, outcome.solutions == 1)
            })
            .collect();
        let mut group = c.benchmark_group("rate");
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(5));
        let mut rater = Rater::new(&layout);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut score = 0u64;
                for (grid, unique) in &puzzles {
                    let options = RateOptions {
                        unique: *unique,
                        ..RateOptions::default()
                    };
                    score += u64::from(rater.rate(grid, &options).unwrap().score);
                }
                black_box(score)
            })
        });
        group.finish();
    }
}

fn print_rates() {
    println!("\n{:<24} {:>12}", "set", "puzzles/s");
    for &(name, _, _) in SETS.iter().filter(|(name, _, _)| wanted(name)) {
        if let Some(r) = common::rate(&format!("rate/{name}")) {
            println!("{name:<24} {r:>12.1}");
        }
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_sets(&mut c);
    c.final_summary();
    print_rates();
}
