//! The whole pipeline (read, parse, solve, verify, format, write) on a file of 1,000,000
//! puzzles, with one and with two worker threads, against the core alone (solving the same
//! puzzles, already parsed, in a plain loop on one thread). Ends with the ratios the pipeline
//! issue sets targets for: 2 threads / 1 thread (>= 1.8) and pipeline with 1 thread / core
//! (>= 0.85).
//!
//! The file is built at bench time under `target/bench-data/` (not committed) by cycling through
//! the puzzles of the shipped sets named in `SUDOKU_PIPELINE_SETS` (default `17_clue`: easy
//! puzzles, where the pipeline's own costs weigh most). `SUDOKU_PIPELINE_PUZZLES` changes the
//! count for a quick run.
//!
//! `cargo bench --bench pipeline`

use std::fs::File;
use std::hint::black_box;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput};
use sudoku_bulk::files::input::Input;
use sudoku_bulk::pipeline::{self, Events, Job, Settings};
use sudoku_bulk::row::RowStatus;
use sudoku_bulk::solver::{SolveOptions, solve};
use sudoku_bulk::{Grid, Layout};

mod common;

const SETS: &[(&str, &str)] = &[
    ("17_clue", "puzzles2_17_clue.txt.gz"),
    ("magictour", "puzzles3_magictour_top1465.txt.gz"),
    (
        "forum_hardest_1905",
        "puzzles5_forum_hardest_1905_11+.txt.gz",
    ),
    ("forum_hardest_1106", "puzzles6_forum_hardest_1106.txt.gz"),
    ("serg", "puzzles7_serg_benchmark.txt.gz"),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn count() -> usize {
    std::env::var("SUDOKU_PIPELINE_PUZZLES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000)
}

fn set_names() -> String {
    std::env::var("SUDOKU_PIPELINE_SETS").unwrap_or_else(|_| "17_clue".to_string())
}

/// The puzzles of the chosen sets.
fn source_puzzles() -> Vec<String> {
    let names = set_names();
    let mut out = Vec::new();
    for (name, file) in SETS {
        if !names.split(',').any(|n| name.contains(n.trim())) {
            continue;
        }
        out.extend(common::shipped_lines(file));
    }
    assert!(!out.is_empty(), "no set matches {names}");
    out
}

/// Writes the bench file (once per set choice and size) and returns its path and puzzles.
fn bench_file() -> (PathBuf, Vec<String>) {
    let n = count();
    let source = source_puzzles();
    let puzzles: Vec<String> = source.iter().cycle().take(n).cloned().collect();
    let dir = root().join("target/bench-data");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!(
        "pipeline-{}-{n}.txt",
        set_names().replace(',', "+")
    ));
    if !path.exists() {
        let temp = path.with_extension("tmp");
        let mut out = BufWriter::new(File::create(&temp).unwrap());
        for p in &puzzles {
            writeln!(out, "{p}").unwrap();
        }
        out.into_inner().unwrap().sync_all().unwrap();
        std::fs::rename(&temp, &path).unwrap();
    }
    (path, puzzles)
}

struct Quiet;

impl Events for Quiet {
    fn progress(&mut self, _: u64, _: u64) {}
    fn flagged(&mut self, _: &str, _: u64, _: RowStatus, _: &str) {}
}

fn settings(threads: usize) -> Settings {
    Settings::new(
        Job::Solve(SolveOptions {
            max_recursions: sudoku_bulk::command::config::DEFAULT_MAX_RECURSIONS,
            ..SolveOptions::default()
        }),
        threads,
    )
}

/// One run of the pipeline as the binary does it, writing to /dev/null.
fn run_pipeline(input: &Input, threads: usize) -> u64 {
    let mut out = BufWriter::with_capacity(256 * 1024, File::create("/dev/null").unwrap());
    let summary = pipeline::run(
        std::slice::from_ref(input),
        &settings(threads),
        &mut out,
        "/dev/null",
        &mut Quiet,
        &AtomicBool::new(false),
    )
    .unwrap();
    out.flush().unwrap();
    summary.tally.records()
}

fn bench(c: &mut Criterion) {
    let (path, lines) = bench_file();
    let input = Input::file(path);
    let grids: Vec<Grid> = lines.iter().map(|l| l.parse().unwrap()).collect();
    let layout = Layout::standard();
    let options = settings(1);
    let Job::Solve(options) = options.job else {
        unreachable!()
    };

    let mut group = c.benchmark_group("pipeline");
    group.throughput(Throughput::Elements(grids.len() as u64));
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("core_1_thread", |b| {
        b.iter(|| {
            let mut found = 0u64;
            for g in &grids {
                found += solve(g, &layout, &options).unwrap().solutions;
            }
            black_box(found)
        })
    });
    for threads in [1, 2] {
        group.bench_function(format!("pipeline_{threads}_thread"), |b| {
            b.iter(|| black_box(run_pipeline(&input, threads)))
        });
    }
    group.finish();
}

/// Reads criterion's estimates back and prints rates and the ratios.
fn print_ratios(n: usize) {
    let (Some(core), Some(one), Some(two)) = (
        common::rate("pipeline/core_1_thread"),
        common::rate("pipeline/pipeline_1_thread"),
        common::rate("pipeline/pipeline_2_thread"),
    ) else {
        return;
    };
    println!("\n{n} puzzles from {}", set_names());
    println!("core, 1 thread:      {core:>10.0} puzzles/s");
    println!("pipeline, 1 thread:  {one:>10.0} puzzles/s");
    println!("pipeline, 2 threads: {two:>10.0} puzzles/s");
    println!(
        "2 threads / 1 thread:       {:.3} (target >= 1.8)",
        two / one
    );
    println!(
        "pipeline 1 thread / core:   {:.3} (target >= 0.85)",
        one / core
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
    print_ratios(count());
}
