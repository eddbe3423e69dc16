//! Rates puzzles read one per line (81 cells) on standard input and prints
//! `line,level,score,hardest` as CSV: the interim front end of the rater, for the comparison
//! with HoDoKu (`scripts/compare_hodoku.py`), until the `rate` command replaces it.
//!
//! ```text
//! zcat data/puzzles3_magictour_top1465.txt.gz | cargo run --release --example rate_file
//! ```
//!
//! Each puzzle is first solved by the crate's solver (up to two solutions): a unique puzzle is
//! rated with uniqueness techniques allowed and every step checked against its solution; a
//! puzzle with no solution or several prints `none`/`multiple` as its level. Lines starting
//! with `#` and blank lines are skipped (but counted). On standard error: puzzles rated and
//! puzzles/s of the rating alone (the solving before it is not timed), single thread.
//! `--steps` also prints every step after its puzzle's row, each line starting with `#`.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use anyhow::Result;
use sudoku_bulk::rate::{RateOptions, Rater};
use sudoku_bulk::solver::{SolveOptions, solve};
use sudoku_bulk::{Grid, Layout};

fn main() -> Result<()> {
    let print_steps = std::env::args().any(|a| a == "--steps");
    let layout = Layout::standard();
    let mut rater = Rater::new(&layout);
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    writeln!(out, "line,level,score,hardest")?;
    let (mut rated, mut spent) = (0u64, Duration::ZERO);
    for (n, line) in stdin.lock().lines().enumerate() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let text = &text[..text.len().min(81)];
        let grid: Grid = match text.parse() {
            Ok(g) => g,
            Err(e) => {
                writeln!(out, "{},invalid,,{e}", n + 1)?;
                continue;
            }
        };
        let outcome = match solve(&grid, &layout, &SolveOptions::default()) {
            Ok(o) => o,
            Err(e) => {
                writeln!(out, "{},invalid,,{e}", n + 1)?;
                continue;
            }
        };
        if outcome.solutions != 1 {
            let what = if outcome.solutions == 0 {
                "none"
            } else {
                "multiple"
            };
            writeln!(out, "{},{what},,", n + 1)?;
            continue;
        }
        let options = RateOptions {
            unique: true,
            solution: outcome.solution,
            record_steps: print_steps,
        };
        let start = Instant::now();
        let rating = rater.rate(&grid, &options);
        spent += start.elapsed();
        match rating {
            Ok(r) => {
                rated += 1;
                let hardest = r.hardest.map_or("", |t| t.key());
                writeln!(out, "{},{},{},{}", n + 1, r.level, r.score, hardest)?;
                for s in &r.steps {
                    writeln!(out, "# {s}")?;
                }
            }
            Err(e) => writeln!(out, "{},error,,{e}", n + 1)?,
        }
    }
    out.flush()?;
    let secs = spent.as_secs_f64();
    eprintln!(
        "rated {rated} puzzles in {secs:.3} s: {:.1} puzzles/s",
        rated as f64 / secs.max(1e-9)
    );
    Ok(())
}
