//! Reproducible puzzle sets of three kinds the shipped sets lack, for the benchmarks and for
//! `examples/bench_sets.rs` (which writes them to files for `../shared/peers/compare.sh`):
//!
//! - [`Kind::Easy`]: Kaggle-like puzzles with 30 to 37 givens and a unique solution: a random
//!   complete grid, then clues removed in random order while the solution stays unique, down to
//!   a floor drawn uniformly from 30..=37 (a few stop above it when no clue can go);
//! - [`Kind::Random`]: random givens that never conflict (no digit twice in a row, column or
//!   box), 24 to 28 of them; most have no solution, some several, a few one;
//! - [`Kind::Minimal`]: puzzles with a unique solution from which no clue can be removed (clues
//!   removed in random order while the solution stays unique, no floor).
//!
//! Puzzle `k` of a set is drawn from `seed * 1_000_000 + k` alone, so a longer set starts with
//! the puzzles of a shorter one.

use sudoku_bulk::generate::{random_givens, random_solution, remove_clues};
use sudoku_bulk::rng::SplitMix64;
use sudoku_bulk::{Grid, Layout};

/// The kinds of generated set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// 30 to 37 givens, unique solution.
    Easy,
    /// 24 to 28 random givens that do not conflict; mostly no solution.
    Random,
    /// Unique solution, no clue removable.
    Minimal,
}

/// Puzzles `0..count` of the set of `kind` drawn from `seed`.
pub fn puzzles(kind: Kind, count: u64, seed: u64) -> Vec<Grid> {
    (0..count)
        .map(|k| puzzle(kind, seed.wrapping_mul(1_000_000).wrapping_add(k)))
        .collect()
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
            random_givens(&layout, &mut rng, givens)
        }
    }
}
