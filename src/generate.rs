//! Reproducible random puzzles: jigsaw layouts, complete grids and puzzles with a unique
//! solution, for the tests, the shipped jigsaw sample and the benchmarks.
//!
//! Everything is drawn from the crate's own SplitMix64 generator (see [`crate::rng`]), so a
//! seed gives the same layouts, grids and puzzles forever. Nothing here does I/O.
//!
//! - [`random_layout`]: start from the 3x3 boxes and repeat a swap across a boundary: a cell
//!   `a` of region A that touches region B, and a cell `b` of B that touches A, exchange
//!   regions; the swap is kept only when both regions stay orthogonally connected. Every
//!   region keeps nine cells. (Swapping two adjacent cells alone never works from the boxes:
//!   across a straight boundary each cell touches the other region only through its partner.)
//! - [`random_solution`]: the `random` algorithm on the empty grid of a layout, limit one
//!   solution, under a budget; a later seed is tried when the budget runs out.
//! - [`random_jigsaw`]: both, retrying layouts on which no grid turns up quickly;
//! - [`remove_clues`]: clues removed one at a time in random order, each removal kept only
//!   when the puzzle stays uniquely solvable (`fast`, limit 2), down to a floor.

use crate::grid::{CELLS, Grid};
use crate::layout::{Layout, neighbours, region_connected};
use crate::rng::SplitMix64;
use crate::solver::{Algorithm, SolveOptions, Status, solve};

/// A jigsaw layout made from the 3x3 boxes by `swaps` boundary-preserving swaps (see the
/// module page), drawn from `seed`. Regions are labelled `a` to `i`; all stay connected.
///
/// With `swaps = 0` this is the standard layout.
pub fn random_layout(seed: u64, swaps: usize) -> Layout {
    let mut rng = SplitMix64::new(seed);
    let mut region: [u8; CELLS] = std::array::from_fn(|i| crate::layout::box_of(i) as u8);
    let mut done = 0;
    while done < swaps {
        // A cell `a` of region A next to a cell of region B ...
        let a = rng.below(CELLS);
        let Some(next) = neighbours(a)[rng.below(4)] else {
            continue;
        };
        let (ra, rb) = (region[a], region[next]);
        if ra == rb {
            continue;
        }
        // ... and a cell `b` of B next to a cell of A (both on the A-B boundary).
        let border: Vec<usize> = (0..CELLS)
            .filter(|&b| {
                region[b] == rb && neighbours(b).into_iter().flatten().any(|j| region[j] == ra)
            })
            .collect();
        let b = border[rng.below(border.len())];
        region[a] = rb;
        region[b] = ra;
        if region_connected(&region, ra) && region_connected(&region, rb) {
            done += 1;
        } else {
            region[a] = ra;
            region[b] = rb;
        }
    }
    let text: Vec<u8> = region.iter().map(|&r| b'a' + r).collect();
    Layout::parse(&text).expect("nine regions of nine cells")
}

/// A random complete grid for `layout`: the `random` algorithm on the empty grid, one
/// solution, at most `budget` recursions per attempt, seeds `seed`, `seed + 1`, ... for at
/// most `attempts` attempts. `None` when every attempt ran out of budget (or the layout has
/// no complete grid at all).
pub fn random_solution(layout: &Layout, seed: u64, budget: u64, attempts: u64) -> Option<Grid> {
    (0..attempts).find_map(|k| {
        let options = SolveOptions {
            algorithm: Algorithm::Random,
            max_solutions: 1,
            max_recursions: budget,
            seed: seed.wrapping_add(k),
        };
        let outcome = solve(&Grid::EMPTY, layout, &options).expect("the empty grid");
        (outcome.status == Status::Solved)
            .then_some(outcome.solution)
            .flatten()
    })
}

/// A jigsaw layout made by `swaps` swaps (see [`random_layout`]) together with a complete
/// grid for it, both drawn from `seed`.
///
/// Some layouts admit no complete grid, and on others the reading-order search of `random`
/// needs millions of steps; a layout on which `random` finds no grid within 100 000 recursions
/// (two seeds) is discarded and the next one, drawn from the same seed, is tried.
pub fn random_jigsaw(seed: u64, swaps: usize) -> (Layout, Grid) {
    let mut seeds = SplitMix64::new(seed);
    loop {
        let s = seeds.next_u64();
        let layout = random_layout(s, swaps);
        if let Some(grid) = random_solution(&layout, s, 100_000, 2) {
            return (layout, grid);
        }
    }
}

/// A puzzle with `solution` as its unique solution under `layout`: clues removed in an order
/// drawn from `seed`, each removal kept only if the puzzle stays uniquely solvable, stopping
/// when `min_clues` clues are left or no clue can go.
///
/// # Panics
/// When `solution` is not a complete grid valid under `layout`.
pub fn remove_clues(solution: &Grid, layout: &Layout, seed: u64, min_clues: usize) -> Grid {
    assert!(
        layout.check_givens(solution).is_ok() && solution.is_complete(),
        "a complete valid grid"
    );
    let mut rng = SplitMix64::new(seed);
    let mut order: Vec<usize> = (0..CELLS).collect();
    rng.shuffle(&mut order);
    let unique = SolveOptions {
        algorithm: Algorithm::Fast,
        max_solutions: 2,
        ..SolveOptions::default()
    };
    let mut puzzle = *solution;
    let mut clues = CELLS;
    for i in order {
        if clues <= min_clues {
            break;
        }
        let digit = puzzle.get(i);
        puzzle.set(i, 0);
        if solve(&puzzle, layout, &unique).map(|o| o.status) == Ok(Status::Solved) {
            clues -= 1;
        } else {
            puzzle.set(i, digit);
        }
    }
    puzzle
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_are_reproducible_connected_and_not_standard() {
        let a = random_layout(7, 60);
        assert_eq!(a, random_layout(7, 60));
        assert_ne!(a, random_layout(8, 60));
        assert!(!a.is_standard());
        assert!(a.disconnected_regions().is_empty());
        assert!(random_layout(7, 0).is_standard());
    }

    #[test]
    fn removing_clues_keeps_the_solution_unique() {
        let (layout, solution) = random_jigsaw(3, 40);
        assert_eq!(layout.check_givens(&solution), Ok(()));
        let puzzle = remove_clues(&solution, &layout, 5, 30);
        assert!(puzzle.filled() >= 30 && puzzle.filled() < 81);
        let outcome = solve(&puzzle, &layout, &SolveOptions::default()).unwrap();
        assert_eq!(outcome.status, Status::Solved);
        assert_eq!(outcome.solution, Some(solution));
    }
}
