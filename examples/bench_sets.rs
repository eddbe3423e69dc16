//! Writes one of three reproducible benchmark sets, one puzzle a line (81 cells, `.` blank), for
//! speed comparisons on kinds of puzzles the shipped sets lack (`../shared/peers/compare.sh`):
//!
//! - `easy`: Kaggle-like puzzles with 30 to 37 givens and a unique solution: a random complete
//!   grid, then clues removed in random order while the solution stays unique, down to a floor
//!   drawn uniformly from 30..=37 (a few stop above it when no clue can go);
//! - `random`: random givens that never conflict (no digit twice in a row, column or box), 24 to
//!   28 of them; most have no solution, some several, a few one;
//! - `minimal`: puzzles with a unique solution from which no clue can be removed (clues removed
//!   in random order while the solution stays unique, no floor).
//!
//! ```text
//! cargo run --release --example bench_sets -- easy 10000 1 > easy.txt
//! cargo run --release --example bench_sets -- random 10000 2 > random.txt
//! cargo run --release --example bench_sets -- minimal 10000 3 > minimal.txt
//! ```
//!
//! Arguments: the kind, the number of puzzles, the seed. Puzzle `k` of a set is drawn from
//! `seed * 1_000_000 + k` alone, so a longer set starts with the puzzles of a shorter one.

use std::io::{BufWriter, Write};

use sudoku_bulk::generate::{random_solution, remove_clues};
use sudoku_bulk::rng::SplitMix64;
use sudoku_bulk::{Grid, Layout};

/// The kinds of set this program writes.
#[derive(Clone, Copy)]
enum Kind {
    Easy,
    Random,
    Minimal,
}

fn puzzle(kind: Kind, seed: u64) -> Grid {
    let layout = Layout::standard();
    let mut rng = SplitMix64::new(seed);
    match kind {
        Kind::Easy | Kind::Minimal => {
            let solution = random_solution(&layout, rng.next_u64(), u64::MAX, 1)
                .expect("the standard layout always has a complete grid");
            let floor = match kind {
                Kind::Easy => 30 + rng.below(8),
                _ => 0,
            };
            remove_clues(&solution, &layout, rng.next_u64(), floor)
        }
        Kind::Random => {
            let givens = 24 + rng.below(5);
            let mut grid = Grid::EMPTY;
            let mut placed = 0;
            while placed < givens {
                let (cell, digit) = (rng.below(81), rng.below(9) as u8 + 1);
                if grid.get(cell) != 0 {
                    continue;
                }
                grid.set(cell, digit);
                if layout.check_givens(&grid).is_ok() {
                    placed += 1;
                } else {
                    grid.set(cell, 0);
                }
            }
            grid
        }
    }
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: bench_sets easy|random|minimal COUNT SEED";
    let [kind, count, seed] = args.as_slice() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let kind = match kind.as_str() {
        "easy" => Kind::Easy,
        "random" => Kind::Random,
        "minimal" => Kind::Minimal,
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let (Ok(count), Ok(seed)) = (count.parse::<u64>(), seed.parse::<u64>()) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    for k in 0..count {
        let grid = puzzle(kind, seed.wrapping_mul(1_000_000).wrapping_add(k));
        writeln!(out, "{}", grid.to_line())?;
    }
    out.flush()
}
