//! Writes the shipped jigsaw sample, `data/jigsaw_sample.csv`: 40 jigsaw puzzles, each with a
//! unique solution, made reproducibly from fixed seeds by `sudoku_bulk::generate`.
//!
//! ```text
//! cargo run --example make_jigsaw > data/jigsaw_sample.csv
//! ```
//!
//! Columns: `puzzle` (81 cells, `.` blank), `regions` (81 region labels `a`-`i` in reading
//! order), `solution` (81 digits). Puzzle `k` (0-based) uses seed `BASE_SEED + k`: a layout
//! made from the 3x3 boxes by 40 boundary swaps with all regions connected, a complete grid by
//! the `random` algorithm, then clues removed in random order while the solution stays unique
//! (no floor: the puzzles are minimal).

use anyhow::Result;
use sudoku_bulk::generate::{random_jigsaw, remove_clues};

/// Seed of the first puzzle.
const BASE_SEED: u64 = 20_261_122;
/// Puzzles in the sample.
const COUNT: u64 = 40;
/// Boundary swaps applied to the boxes for each layout.
const SWAPS: usize = 40;

fn main() -> Result<()> {
    let mut out = csv::Writer::from_writer(std::io::stdout().lock());
    out.write_record(["puzzle", "regions", "solution"])?;
    for k in 0..COUNT {
        let seed = BASE_SEED + k;
        let (layout, solution) = random_jigsaw(seed, SWAPS);
        let puzzle = remove_clues(&solution, &layout, seed, 0);
        out.write_record([puzzle.to_line(), layout.to_line(), solution.to_line()])?;
    }
    out.flush()?;
    Ok(())
}
