//! Canonical forms per second, one thread: the shipped 17-clue list, minimal puzzles and easy
//! puzzles (both made by `generate` from fixed seeds, so every run measures the same puzzles),
//! and complete grids, these also by the `sudoku` crate's `canonicalized` (the same form for
//! complete grids; for puzzles it canonicalises the solution instead, so it is no peer there).
//! Ends with a table of forms/s per set.
//!
//! `cargo bench --bench canon`; `SUDOKU_BENCH_SETS=17_clue,minimal` picks sets by substring.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use sudoku_bulk::canon::Canonicaliser;
use sudoku_bulk::generate::{GenerateOptions, Generator, GivensRange, random_standard_grid};
use sudoku_bulk::rng::SplitMix64;
use sudoku_bulk::{Grid, Layout};

mod common;

/// Puzzles made for each generated set.
const GENERATED: u64 = 2000;

fn wanted(name: &str) -> bool {
    match std::env::var("SUDOKU_BENCH_SETS") {
        Ok(list) => list.split(',').any(|s| name.contains(s.trim())),
        Err(_) => true,
    }
}

/// Puzzles `0..GENERATED` of a batch with `options`.
fn generated(options: GenerateOptions) -> Vec<Grid> {
    let generator = Generator::new(options).expect("options that can be met");
    (0..GENERATED)
        .map(|i| generator.puzzle(i).expect("a puzzle").puzzle)
        .collect()
}

/// The sets: name and puzzles.
fn sets() -> Vec<(&'static str, Vec<Grid>)> {
    let mut sets = Vec::new();
    if wanted("17_clue") {
        let lines = common::shipped_lines("puzzles2_17_clue.txt.gz");
        sets.push((
            "17_clue",
            lines.iter().map(|l| l.parse().unwrap()).collect(),
        ));
    }
    if wanted("minimal") {
        // Minimal puzzles, no symmetry: 20 to 30 givens, most 22 to 26.
        let options = GenerateOptions {
            seed: 1,
            ..GenerateOptions::default()
        };
        sets.push(("minimal", generated(options)));
    }
    if wanted("easy") {
        // 36 to 40 givens, not minimal.
        let options = GenerateOptions {
            seed: 2,
            givens: Some(GivensRange::new(36, 40).unwrap()),
            ..GenerateOptions::default()
        };
        sets.push(("easy", generated(options)));
    }
    if wanted("complete") {
        let mut rng = SplitMix64::new(3);
        sets.push((
            "complete",
            (0..200).map(|_| random_standard_grid(&mut rng)).collect(),
        ));
    }
    sets
}

fn bench_sets(c: &mut Criterion, sets: &[(&'static str, Vec<Grid>)]) {
    let layout = Layout::standard();
    let mut group = c.benchmark_group("canon");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    for (name, puzzles) in sets {
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(*name, |b| {
            let mut canonicaliser = Canonicaliser::new();
            b.iter(|| {
                let mut ones = 0u64;
                for p in puzzles {
                    let form = canonicaliser.canonical(p, &layout).unwrap().form;
                    ones += u64::from(form.get(8));
                }
                black_box(ones)
            })
        });
    }
    if let Some((_, grids)) = sets.iter().find(|(name, _)| *name == "complete") {
        let theirs: Vec<sudoku::Sudoku> = grids
            .iter()
            .map(|g| sudoku::Sudoku::from_bytes(*g.cells()).unwrap())
            .collect();
        group.throughput(Throughput::Elements(grids.len() as u64));
        group.bench_function("complete-sudoku-crate", |b| {
            b.iter(|| {
                let mut ones = 0u64;
                for s in &theirs {
                    ones += u64::from(s.canonicalized().unwrap().0.to_bytes()[8]);
                }
                black_box(ones)
            })
        });
    }
    group.finish();
}

/// Reads criterion's results back and prints forms/s for this run.
fn print_rates(sets: &[(&'static str, Vec<Grid>)]) {
    println!("\n{:<12} {:>8} {:>14}", "set", "puzzles", "forms/s");
    for (name, puzzles) in sets {
        if let Some(rate) = common::rate(&format!("canon/{name}")) {
            println!("{name:<12} {:>8} {rate:>14.0}", puzzles.len());
        }
    }
    if let (Some(a), Some(b)) = (
        common::rate("canon/complete"),
        common::rate("canon/complete-sudoku-crate"),
    ) {
        println!("complete grids, ours / sudoku crate: {:.3}", a / b);
    }
}

fn main() {
    let sets = sets();
    let mut c = Criterion::default().configure_from_args();
    bench_sets(&mut c, &sets);
    c.final_summary();
    print_rates(&sets);
}
