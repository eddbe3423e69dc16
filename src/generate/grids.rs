//! Random complete grids and jigsaw layouts, drawn from the crate's SplitMix64 generator (see
//! [`crate::rng`]), so a seed gives the same layouts and grids forever.
//!
//! - [`random_layout`]: start from the 3x3 boxes and repeat a swap across a boundary: a cell
//!   `a` of region A that touches region B, and a cell `b` of B that touches A, exchange
//!   regions; the swap is kept only when both regions stay orthogonally connected. Every
//!   region keeps nine cells. (Swapping two adjacent cells alone never works from the boxes:
//!   across a straight boundary each cell touches the other region only through its partner.)
//! - [`random_solution`]: the `random` algorithm on the empty grid of a layout, limit one
//!   solution, under a budget; a later seed is tried when the budget runs out.
//! - [`random_jigsaw`]: both, retrying layouts on which no grid turns up quickly;
//! - [`random_standard_grid`]: the fast path for the boxes: three random independent boxes,
//!   completed by the `fast` engine, then moved by a random element of the symmetry group.

use crate::canon::Transform;
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

/// `count` random givens that never conflict under `layout` (no digit twice in a unit), drawn
/// from `rng`: cells and digits are drawn until `count` are placed, a drawn given that would
/// conflict being dropped. Most such puzzles have no solution and some several, which makes
/// them a test of a search's contradictions. `count` must leave room: at most 30 (far below any
/// count at which every blank cell could be blocked).
pub fn random_givens(layout: &Layout, rng: &mut SplitMix64, count: usize) -> Grid {
    assert!(
        count <= 30,
        "random_givens: {count} givens asked, at most 30"
    );
    let mut grid = Grid::EMPTY;
    let mut placed = 0;
    while placed < count {
        let (cell, digit) = (rng.below(CELLS), rng.below(9) as u8 + 1);
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

/// A random complete grid of the standard layout: boxes 1, 5 and 9 (which share no row or
/// column) filled with independent random orders of the digits, the rest completed by the
/// `fast` engine (its first solution), and the result moved by a random element of the
/// symmetry group ([`Transform::random`]), so that the distribution of grids is the same for
/// every equivalent grid. It is not uniform over all grids.
pub fn random_standard_grid(rng: &mut SplitMix64) -> Grid {
    let mut seed = Grid::EMPTY;
    for b in [0, 4, 8] {
        let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits);
        for (k, &d) in digits.iter().enumerate() {
            let (r, c) = ((b / 3) * 3 + k / 3, (b % 3) * 3 + k % 3);
            seed.set(r * 9 + c, d);
        }
    }
    let first = SolveOptions {
        max_solutions: 1,
        ..SolveOptions::default()
    };
    let grid = solve(&seed, &Layout::standard(), &first)
        .ok()
        .and_then(|o| o.solution)
        .expect("three independent boxes always complete to a grid");
    Transform::random(rng).apply(&grid)
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
    fn standard_grids_are_complete_valid_and_differ() {
        let mut rng = SplitMix64::new(9);
        let a = random_standard_grid(&mut rng);
        let b = random_standard_grid(&mut rng);
        for g in [a, b] {
            assert!(g.is_complete());
            assert_eq!(Layout::standard().check_givens(&g), Ok(()));
        }
        assert_ne!(a, b);
        assert_eq!(a, random_standard_grid(&mut SplitMix64::new(9)));
    }
}
