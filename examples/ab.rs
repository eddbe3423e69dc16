//! Interleaved timing of the `fast` engine and the `sudoku` crate on one puzzle file: a quick
//! ratio for development on a shared machine (the criterion bench is the reference).
//!
//! `cargo run --release --example ab -- FILE [limit] [rounds]`

use std::io::Read;

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

use sudoku_bulk::files::input::Input;
use sudoku_bulk::solver::{SolveOptions, solve};
use sudoku_bulk::{Grid, Layout};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = &args[1];
    let limit: u64 = args.get(2).map_or(2, |s| s.parse().unwrap());
    let rounds: usize = args.get(3).map_or(10, |s| s.parse().unwrap());
    // Plain or gzip, as the tool reads its inputs.
    let mut text = String::new();
    Input::file(path.into())
        .open(Default::default())
        .unwrap()
        .reader
        .read_to_string(&mut text)
        .unwrap();
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let ours: Vec<Grid> = lines.iter().map(|l| l.parse().unwrap()).collect();
    let theirs: Vec<sudoku::Sudoku> = lines
        .iter()
        .map(|l| sudoku::Sudoku::from_str_line(l).unwrap())
        .collect();
    if let Ok(level) = std::env::var("SUDOKU_BULK_ISA") {
        sudoku_bulk::solver::choose_instruction_set(level.parse().unwrap()).unwrap();
    }
    let layout = Layout::standard();
    let budget = std::env::var("BUDGET").map_or(u64::MAX, |s| s.parse().unwrap());
    let options = SolveOptions {
        max_solutions: limit,
        max_recursions: budget,
        ..SolveOptions::default()
    };
    let (mut best_ours, mut best_theirs) = (f64::INFINITY, f64::INFINITY);
    let mut ratios = Vec::new();
    for _ in 0..rounds {
        let t = cpu_seconds();
        let mut n = 0;
        for g in &ours {
            n += solve(g, &layout, &options).unwrap().solutions;
        }
        std::hint::black_box(n);
        let a = cpu_seconds() - t;
        let t = cpu_seconds();
        let mut n = 0;
        for s in &theirs {
            n += if limit == 1 {
                s.some_solution().is_some() as usize
            } else {
                s.solutions_count_up_to(limit as usize)
            };
        }
        std::hint::black_box(n);
        let b = cpu_seconds() - t;
        best_ours = best_ours.min(a);
        best_theirs = best_theirs.min(b);
        ratios.push(b / a);
    }
    ratios.sort_by(f64::total_cmp);
    let n = lines.len() as f64;
    println!(
        "{path} limit {limit}: ours {:.0}/s, crate {:.0}/s, best ratio {:.3}, median round ratio {:.3}",
        n / best_ours,
        n / best_theirs,
        best_theirs / best_ours,
        ratios[ratios.len() / 2]
    );
}
