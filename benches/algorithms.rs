//! The algorithms side by side, single thread: puzzles/s of `fast`, `naive`, `candidates`,
//! `random` and `logic` on small samples every one of them finishes, then `fast` on the
//! shipped jigsaw sample against standard puzzles of similar clue counts.
//!
//! `cargo bench --bench algorithms`; add `-- --warm-up-time 0.2 --measurement-time 0.5` for
//! a quick look. Criterion prints each result as puzzles/s (elements/s); a summary table
//! follows.
//!
//! - `serg`: the first 200 puzzles of the serg set (34 clues, several solutions each).
//! - `17_clue_easier`: the first 50 17-clue puzzles with cells filled in from their solution
//!   until 45 are blank (plain backtracking cannot do the originals).
//! - `jigsaw_vs_standard`: the 40 jigsaw puzzles of `data/jigsaw_sample.csv` (14-20 clues,
//!   minimal) against the first 40 puzzles of the 17-clue set.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use sudoku_bulk::solver::{Algorithm, SolveOptions, solve};
use sudoku_bulk::{Grid, Layout};

mod common;

fn load(name: &str, count: usize) -> Vec<Grid> {
    common::shipped_lines(name)
        .iter()
        .take(count)
        .map(|l| l.parse().expect("a puzzle"))
        .collect()
}

fn jigsaw_sample() -> Vec<(Grid, Layout)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/jigsaw_sample.csv");
    csv::Reader::from_path(path)
        .expect("the jigsaw sample")
        .records()
        .map(|r| {
            let r = r.expect("a record");
            (
                r[0].parse().expect("a puzzle"),
                Layout::parse(r[1].as_bytes()).expect("a layout"),
            )
        })
        .collect()
}

/// `puzzle` with cells filled in from its solution, spread over the grid, until `blanks` remain.
fn easier(puzzle: &Grid, blanks: usize) -> Grid {
    let solution = solve(puzzle, &Layout::standard(), &SolveOptions::default())
        .expect("valid givens")
        .solution
        .expect("a solution");
    let mut g = *puzzle;
    let mut open: Vec<usize> = (0..81).filter(|&i| g.get(i) == 0).collect();
    let mut k = 0;
    while open.len() > blanks {
        k = (k + 7) % open.len();
        let i = open.remove(k);
        g.set(i, solution.get(i));
    }
    g
}

fn options(algorithm: Algorithm) -> SolveOptions {
    SolveOptions {
        algorithm,
        max_solutions: 2,
        max_recursions: u64::MAX,
        seed: 1,
    }
}

/// Solves every puzzle once; returns the solutions found so nothing is optimised away.
fn solve_all(puzzles: &[(Grid, Layout)], options: &SolveOptions) -> u64 {
    puzzles
        .iter()
        .map(|(p, layout)| solve(p, layout, options).expect("valid givens").solutions)
        .sum()
}

fn configure<'c>(c: &'c mut Criterion, name: &str, n: usize) -> BenchmarkGroup<'c, WallTime> {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(n as u64));
    group
}

const SAMPLES: [&str; 2] = ["serg", "17_clue_easier"];

fn bench_algorithms(c: &mut Criterion) {
    let standard = Layout::standard();
    let serg: Vec<(Grid, Layout)> = load("puzzles7_serg_benchmark.txt.gz", 200)
        .into_iter()
        .map(|g| (g, standard.clone()))
        .collect();
    let easier_17: Vec<(Grid, Layout)> = load("puzzles2_17_clue.txt.gz", 50)
        .iter()
        .map(|g| (easier(g, 45), standard.clone()))
        .collect();
    for (name, puzzles) in SAMPLES.iter().zip([&serg, &easier_17]) {
        let mut group = configure(c, name, puzzles.len());
        for &algorithm in Algorithm::ALL {
            let options = options(algorithm);
            group.bench_function(BenchmarkId::from_parameter(algorithm), |b| {
                b.iter(|| black_box(solve_all(puzzles, &options)))
            });
        }
        group.finish();
    }
}

fn bench_jigsaw(c: &mut Criterion) {
    let jigsaw = jigsaw_sample();
    let standard: Vec<(Grid, Layout)> = load("puzzles2_17_clue.txt.gz", jigsaw.len())
        .into_iter()
        .map(|g| (g, Layout::standard()))
        .collect();
    let mut group = configure(c, "jigsaw_vs_standard", jigsaw.len());
    let options = options(Algorithm::Fast);
    for (name, puzzles) in [("jigsaw", &jigsaw), ("standard", &standard)] {
        group.bench_function(BenchmarkId::new("fast", name), |b| {
            b.iter(|| black_box(solve_all(puzzles, &options)))
        });
    }
    group.finish();
}

/// Reads criterion's results back and prints puzzles/s for this run.
fn print_summary() {
    println!("\n{:<16} {:>12} {:>14}", "sample", "algorithm", "puzzles/s");
    for sample in ["serg", "17_clue_easier"] {
        for algorithm in Algorithm::ALL {
            if let Some(rate) = common::rate(&format!("{sample}/{}", algorithm.name())) {
                println!("{sample:<16} {:>12} {rate:>14.0}", algorithm.name());
            }
        }
    }
    for layout in ["jigsaw", "standard"] {
        if let Some(rate) = common::rate(&format!("jigsaw_vs_standard/fast/{layout}")) {
            println!("{layout:<16} {:>12} {rate:>14.0}", "fast");
        }
    }
}

fn main() {
    // Defaults for a short run; the command line can override them.
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    bench_algorithms(&mut c);
    bench_jigsaw(&mut c);
    c.final_summary();
    print_summary();
}
