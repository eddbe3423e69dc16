//! Taking givens away from a complete grid while its solution stays the only one.
//!
//! One pass visits the cells in a random order; at each cell not visited yet, its whole orbit
//! under the symmetry (see [`Symmetry::orbit`]) is blanked, and put back unless the puzzle still
//! has one solution. A given kept once is never removable later: fewer givens only allow more
//! solutions. So a pass over every orbit leaves no orbit that can go, and with no symmetry the
//! puzzle is minimal.
//!
//! Whether the solution stays unique is decided as cheaply as possible:
//!
//! 1. *A known unavoidable set emptied.* Small sets of cells whose digits can be rearranged
//!    into another grid are listed once per grid ([`super::unavoidable`]); blanking the last
//!    given of one leaves two solutions: refused, no search.
//! 2. *Forced cells.* If every blanked cell must hold its digit given the givens left (the eight
//!    other digits are given among its peers, or every other blank cell of one of its units sees
//!    the digit given), any solution agrees with the old one on the blanked cells, so it is the
//!    old solution: still unique, no search.
//! 3. *One cell blanked.* Another solution would hold another digit there. The digits not given
//!    among its peers, less those that would leave a blank peer with no digit at all, are the
//!    candidates; one or two are each placed in turn and the `fast` engine asked for one
//!    solution (the removal stands when none has any); with three or more, one search counts
//!    solutions up to two. (Measured: trying one or two digits is faster than counting
//!    solutions, mostly because a refused removal stops at the first solution found.)
//! 4. *An orbit of several cells.* The `fast` engine counts solutions up to two.

use crate::grid::{CELLS, Grid};
use crate::layout::Layout;
use crate::rng::SplitMix64;
use crate::solver::{Algorithm, SolveOptions, Status, solve};

use super::Symmetry;
use super::unavoidable::{CellSet, cell, two_line_sets};

/// Bits 1 to 9.
const ALL_DIGITS: u16 = 0x3FE;

/// A puzzle being thinned: its givens, and the digits given in each row, column and region.
#[derive(Clone)]
pub(super) struct Thinning<'a> {
    solution: Grid,
    puzzle: Grid,
    layout: &'a Layout,
    rows: [u16; 9],
    cols: [u16; 9],
    regions: [u16; 9],
    /// The cells of each unit: rows `0..9`, columns `9..18`, regions `18..27`.
    units: [[u8; 9]; 27],
    givens: usize,
    /// The givens as a set of cells.
    given_cells: CellSet,
    /// Unavoidable sets of the solution: at least one given in each is needed (the first 128
    /// found).
    unavoidable: Vec<CellSet>,
    /// For each cell, the unavoidable sets holding it (bit `k` for `unavoidable[k]`).
    sets_of: [u128; CELLS],
}

/// Limit one: any solution with another digit in the blanked cell refuses the removal.
const ANY_SOLUTION: SolveOptions = SolveOptions {
    algorithm: Algorithm::Fast,
    max_solutions: 1,
    max_recursions: u64::MAX,
    seed: 0,
};

/// Limit two: a second solution is enough to refuse a removal.
const UNIQUENESS: SolveOptions = SolveOptions {
    algorithm: Algorithm::Fast,
    max_solutions: 2,
    max_recursions: u64::MAX,
    seed: 0,
};

impl<'a> Thinning<'a> {
    /// Starts from `solution`, a complete grid valid under `layout`.
    pub fn new(solution: &Grid, layout: &'a Layout) -> Thinning<'a> {
        let mut units = [[0u8; 9]; 27];
        let mut filled = [0usize; 9];
        for i in 0..CELLS {
            units[i / 9][i % 9] = i as u8;
            units[9 + i % 9][i / 9] = i as u8;
            let r = layout.region_of(i);
            units[18 + r][filled[r]] = i as u8;
            filled[r] += 1;
        }
        let mut thinning = Thinning {
            solution: *solution,
            puzzle: *solution,
            layout,
            rows: [0; 9],
            cols: [0; 9],
            regions: [0; 9],
            units,
            givens: 0,
            given_cells: 0,
            unavoidable: two_line_sets(solution, layout),
            sets_of: [0; CELLS],
        };
        // A cell's sets are one 128-bit mask; on random grids about 40 sets are found.
        thinning.unavoidable.truncate(128);
        for (k, &set) in thinning.unavoidable.iter().enumerate() {
            let bit: u128 = 1 << k;
            let mut cells = set;
            while cells != 0 {
                let i = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                thinning.sets_of[i] |= bit;
            }
        }
        for i in 0..CELLS {
            thinning.mark(i, solution.get(i), true);
        }
        thinning
    }

    /// The puzzle as it stands.
    pub fn puzzle(&self) -> Grid {
        self.puzzle
    }

    /// Givens left.
    pub fn givens(&self) -> usize {
        self.givens
    }

    fn mark(&mut self, i: usize, digit: u8, given: bool) {
        let bit = 1u16 << digit;
        let units = [
            &mut self.rows[i / 9],
            &mut self.cols[i % 9],
            &mut self.regions[self.layout.region_of(i)],
        ];
        for unit in units {
            if given {
                *unit |= bit;
            } else {
                *unit &= !bit;
            }
        }
        if given {
            self.givens += 1;
            self.given_cells |= cell(i);
        } else {
            self.givens -= 1;
            self.given_cells &= !cell(i);
        }
        self.puzzle.set(i, if given { digit } else { 0 });
    }

    /// The digits given among the peers of cell `i`.
    #[inline]
    fn seen(&self, i: usize) -> u16 {
        self.rows[i / 9] | self.cols[i % 9] | self.regions[self.layout.region_of(i)]
    }

    /// The three units of cell `i`.
    #[inline]
    fn units_of(&self, i: usize) -> [usize; 3] {
        [i / 9, 9 + i % 9, 18 + self.layout.region_of(i)]
    }

    /// Whether the blank cell `i` must hold `digit` given the givens: a naked single (the
    /// eight other digits seen) or a hidden single (every other blank cell of one of its units
    /// sees `digit` given).
    fn forced(&self, i: usize, digit: u8) -> bool {
        if self.seen(i) | (1 << digit) == ALL_DIGITS {
            return true;
        }
        let bit = 1u16 << digit;
        self.units_of(i).into_iter().any(|u| {
            self.units[u].iter().all(|&e| {
                let e = e as usize;
                e == i || self.puzzle.get(e) != 0 || self.seen(e) & bit != 0
            })
        })
    }

    /// Blanks the cells `orbit` and keeps them blank if the solution stays unique; returns
    /// whether it did.
    pub fn try_remove(&mut self, orbit: &[usize]) -> bool {
        let mut digits = [0u8; 4];
        for (k, &i) in orbit.iter().enumerate() {
            digits[k] = self.puzzle.get(i);
            self.mark(i, digits[k], false);
        }
        // Only a set holding a blanked cell can have lost its last given.
        let mut touched = orbit.iter().fold(0u128, |m, &i| m | self.sets_of[i]);
        let mut emptied = false;
        while touched != 0 && !emptied {
            let k = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            emptied = self.unavoidable[k] & self.given_cells == 0;
        }
        let unique = !emptied
            && (orbit
                .iter()
                .zip(digits)
                .all(|(&i, digit)| self.forced(i, digit))
                || match orbit {
                    &[i] => self.no_other_digit_fits(i, digits[0]),
                    _ => self.unique(),
                });
        if unique {
            return true;
        }
        for (k, &i) in orbit.iter().enumerate() {
            self.mark(i, digits[k], true);
        }
        false
    }

    /// Whether no solution of the puzzle holds another digit than `digit` in the blank cell
    /// `i`. The other candidates that would leave a blank peer without any digit are out at
    /// once; one or two left are each tried with limit one; more, and one search counts
    /// solutions up to two (one search then costs less than several).
    fn no_other_digit_fits(&self, i: usize, digit: u8) -> bool {
        let candidates = ALL_DIGITS & !self.seen(i) & !(1 << digit) & !self.last_digits_of_peers(i);
        if candidates.count_ones() > 2 {
            return self.unique();
        }
        (1..=9u8)
            .filter(|d| candidates & (1 << d) != 0)
            .all(|other| {
                let mut trial = self.puzzle;
                trial.set(i, other);
                solve(&trial, self.layout, &ANY_SOLUTION).map(|o| o.status) != Ok(Status::Solved)
            })
    }

    /// The digits that are the only one left (not given among its peers) for some blank peer
    /// of cell `i`: placing one of them in `i` leaves that peer without a digit.
    fn last_digits_of_peers(&self, i: usize) -> u16 {
        let mut last = 0;
        for u in self.units_of(i) {
            for &e in &self.units[u] {
                let e = e as usize;
                if e != i && self.puzzle.get(e) == 0 {
                    let left = ALL_DIGITS & !self.seen(e);
                    if left.count_ones() == 1 {
                        last |= left;
                    }
                }
            }
        }
        last
    }

    /// Whether the puzzle as it stands has exactly one solution.
    fn unique(&self) -> bool {
        solve(&self.puzzle, self.layout, &UNIQUENESS).map(|o| o.status) == Ok(Status::Solved)
    }

    /// One pass over the orbits in an order drawn from `rng`: an orbit is removed when the
    /// solution stays unique and at least `floor` givens remain; the pass stops once at most
    /// `stop_at` givens are left.
    pub fn pass(&mut self, rng: &mut SplitMix64, symmetry: Symmetry, floor: usize, stop_at: usize) {
        let mut order: [u8; CELLS] = std::array::from_fn(|i| i as u8);
        rng.shuffle(&mut order);
        let mut visited = [false; CELLS];
        for &cell in &order {
            if self.givens <= stop_at {
                break;
            }
            let (orbit, n) = symmetry.orbit(cell as usize);
            let orbit = &orbit[..n];
            if visited[orbit[0]] {
                continue;
            }
            for &i in orbit {
                visited[i] = true;
            }
            if self.puzzle.get(orbit[0]) != 0 && self.givens - n >= floor {
                self.try_remove(orbit);
            }
        }
    }

    /// Gives the blank cells of `orbit` back their digits from the solution (the solution
    /// stays unique: more givens never allow more solutions).
    pub fn give(&mut self, orbit: &[usize]) {
        for &i in orbit {
            if self.puzzle.get(i) == 0 {
                self.mark(i, self.solution.get(i), true);
            }
        }
    }

    /// Whether no single given can be removed with the solution staying unique (the puzzle is
    /// left as it was).
    pub fn is_minimal(&mut self) -> bool {
        (0..CELLS).all(|i| {
            if self.puzzle.get(i) == 0 {
                return true;
            }
            let removable = self.try_remove(&[i]);
            if removable {
                self.mark(i, self.solution.get(i), true);
            }
            !removable
        })
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
    let mut thinning = Thinning::new(solution, layout);
    thinning.pass(&mut SplitMix64::new(seed), Symmetry::None, 0, min_clues);
    thinning.puzzle()
}
