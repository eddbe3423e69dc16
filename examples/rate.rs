//! Solves a puzzle file single-threaded and prints puzzles/s and mean counters (a quick look,
//! not a benchmark: use `cargo bench` for comparisons).
//!
//! `cargo run --release --example rate -- data/puzzles2_17_clue.txt.gz [limit] [repeats]`

use std::io::Read;
use std::time::Instant;

use sudoku_bulk::solver::{SearchStats, SolveOptions, solve};
use sudoku_bulk::{Grid, Layout};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: rate FILE [limit] [repeats]");
    let limit: u64 = args.get(2).map_or(2, |s| s.parse().expect("limit"));
    let repeats: usize = args.get(3).map_or(3, |s| s.parse().expect("repeats"));
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .expect("open")
        .read_to_end(&mut bytes)
        .expect("read");
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .expect("gzip");
        bytes = out;
    }
    let puzzles: Vec<Grid> = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.trim_ascii().is_empty() && !l.starts_with(b"#"))
        .map(|l| Grid::parse(l).expect("puzzle"))
        .collect();
    let layout = Layout::standard();
    let options = SolveOptions {
        max_solutions: limit,
        ..SolveOptions::default()
    };
    let mut best = f64::INFINITY;
    let mut total = SearchStats::default();
    for _ in 0..repeats {
        total = SearchStats::default();
        let start = Instant::now();
        for p in &puzzles {
            let s = solve(p, &layout, &options).unwrap().stats;
            total.recursions += s.recursions;
            total.guesses += s.guesses;
            total.backtracks += s.backtracks;
            total.naked_singles += s.naked_singles;
            total.hidden_singles += s.hidden_singles;
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    let n = puzzles.len() as f64;
    println!(
        "{path}: {} puzzles, best {:.0}/s; per puzzle: recursions {:.2}, guesses {:.2}, backtracks {:.2}, naked {:.2}, hidden {:.2}",
        puzzles.len(),
        n / best,
        total.recursions as f64 / n,
        total.guesses as f64 / n,
        total.backtracks as f64 / n,
        total.naked_singles as f64 / n,
        total.hidden_singles as f64 / n
    );
}
