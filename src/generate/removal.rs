//! Taking givens away from a complete grid while its solution stays the only one.
//!
//! One pass visits the cells in a random order; at each cell not visited yet, its whole orbit
//! under the symmetry (see [`Symmetry::orbit`]) is blanked, and put back unless the puzzle still
//! has one solution. A given kept once is never removable later: fewer givens only allow more
//! solutions. So a pass over every orbit leaves no orbit that can go, and with no symmetry the
//! puzzle is minimal.
//!
//! Uniqueness is decided cheaply first: when every blanked cell sees, among the givens left in
//! its row, column and region, the eight other digits, its digit is forced and the solutions
//! are those of the puzzle before, so still one. Only otherwise does the `fast` engine search,
//! with the limit of two solutions.

use crate::grid::{CELLS, Grid};
use crate::layout::Layout;
use crate::rng::SplitMix64;
use crate::solver::{Algorithm, SolveOptions, Status, solve};

use super::Symmetry;

/// Bits 1 to 9.
const ALL_DIGITS: u16 = 0x3FE;

/// A puzzle being thinned: its givens, and the digits given in each row, column and region.
pub(super) struct Thinning<'a> {
    solution: Grid,
    puzzle: Grid,
    layout: &'a Layout,
    rows: [u16; 9],
    cols: [u16; 9],
    regions: [u16; 9],
    givens: usize,
}

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
        let mut thinning = Thinning {
            solution: *solution,
            puzzle: *solution,
            layout,
            rows: [0; 9],
            cols: [0; 9],
            regions: [0; 9],
            givens: 0,
        };
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
        self.givens = if given {
            self.givens + 1
        } else {
            self.givens - 1
        };
        self.puzzle.set(i, if given { digit } else { 0 });
    }

    /// Whether the blank cell `i`, to hold `digit`, sees the eight other digits among givens.
    fn forced(&self, i: usize, digit: u8) -> bool {
        let seen = self.rows[i / 9] | self.cols[i % 9] | self.regions[self.layout.region_of(i)];
        seen | (1 << digit) == ALL_DIGITS
    }

    /// Blanks the cells `orbit` and keeps them blank if the solution stays unique; returns
    /// whether it did.
    pub fn try_remove(&mut self, orbit: &[usize]) -> bool {
        let mut digits = [0u8; 4];
        for (k, &i) in orbit.iter().enumerate() {
            digits[k] = self.puzzle.get(i);
            self.mark(i, digits[k], false);
        }
        let forced = orbit
            .iter()
            .zip(digits)
            .all(|(&i, digit)| self.forced(i, digit));
        if forced || self.unique() {
            return true;
        }
        for (k, &i) in orbit.iter().enumerate() {
            self.mark(i, digits[k], true);
        }
        false
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
