//! Small unavoidable sets of a complete grid: sets of cells of which every puzzle with that grid
//! as its unique solution must give at least one, because the digits in them can be rearranged
//! into another valid grid.
//!
//! The ones found here live in two lines (two rows, or two columns). For rows `r1` and `r2`, map
//! each column `k` to the column where `r2` holds the digit `r1` holds at `k`; on the columns of
//! one cycle of that map the two rows hold the same digits, so exchanging the rows' digits there
//! keeps every row and every column valid. It keeps the regions valid when each region loses the
//! digits it gains, which is checked (for the 3x3 boxes, always true when the rows share a band).
//! Cycles of all nine columns are left out (they are the whole pair of lines).
//!
//! The removal pass uses them to refuse a removal without a search: when every cell of one set
//! is blank, the puzzle has a second solution. On random grids about 40 such sets exist, and
//! they decide about 40% of the refused removals.

use crate::grid::{CELLS, Grid};
use crate::layout::Layout;

/// A set of cells, bit `i` for cell `i`.
pub(super) type CellSet = u128;

/// The set of the one cell `i`: a table, because a 128-bit shift by a variable amount takes
/// a dozen instructions and a branch, and these are made in the generator's inner loops.
#[inline(always)]
pub(super) fn cell(i: usize) -> CellSet {
    CELL_SETS[i]
}

static CELL_SETS: [CellSet; CELLS] = {
    let mut table = [0; CELLS];
    let mut i = 0;
    while i < CELLS {
        table[i] = 1 << i;
        i += 1;
    }
    table
};

/// The unavoidable sets in two lines of `grid` (complete and valid under `layout`).
pub(super) fn two_line_sets(grid: &Grid, layout: &Layout) -> Vec<CellSet> {
    let mut sets = Vec::new();
    for transposed in [false, true] {
        let at = |line: usize, k: usize| {
            if transposed {
                k * 9 + line
            } else {
                line * 9 + k
            }
        };
        for a in 0..9 {
            for b in a + 1..9 {
                let mut position_in_b = [0usize; 10];
                for k in 0..9 {
                    position_in_b[grid.get(at(b, k)) as usize] = k;
                }
                let mut seen = [false; 9];
                for start in 0..9 {
                    if seen[start] {
                        continue;
                    }
                    // Each region's digits lost and gained by the exchange.
                    let (mut lost, mut gained) = ([0u16; 9], [0u16; 9]);
                    let (mut set, mut len, mut k) = (0 as CellSet, 0, start);
                    loop {
                        seen[k] = true;
                        let (x, y) = (at(a, k), at(b, k));
                        set |= cell(x) | cell(y);
                        for (one, partner) in [(x, y), (y, x)] {
                            lost[layout.region_of(one)] |= 1 << grid.get(one);
                            gained[layout.region_of(one)] |= 1 << grid.get(partner);
                        }
                        len += 1;
                        k = position_in_b[grid.get(x) as usize];
                        if k == start {
                            break;
                        }
                    }
                    if len < 9 && lost == gained {
                        sets.push(set);
                    }
                }
            }
        }
    }
    sets
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{SolveOptions, solve};
    use crate::test_data::SOLUTION;

    /// Blanking exactly one set leaves a puzzle with two solutions or more: each set is truly
    /// unavoidable, on the boxes and on a jigsaw layout.
    #[test]
    fn every_set_found_is_unavoidable() {
        let standard = (Layout::standard(), SOLUTION.parse::<Grid>().unwrap());
        let jigsaw = crate::generate::random_jigsaw(4, 40);
        for (layout, grid) in [standard, jigsaw] {
            let sets = two_line_sets(&grid, &layout);
            assert!(!sets.is_empty());
            for set in sets {
                let mut puzzle = grid;
                for i in (0..CELLS).filter(|&i| set & (1 << i) != 0) {
                    puzzle.set(i, 0);
                }
                let outcome = solve(&puzzle, &layout, &SolveOptions::default()).unwrap();
                assert_eq!(outcome.solutions, 2, "set {set:x} of {grid}");
            }
        }
    }
}
