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
//!
//! With [`Keep::Singles`] a removal stands only while singles alone (naked and hidden) still
//! fill the grid, which implies a unique solution: steps 1 and 2 as above (a forced cell is
//! filled by a single, and the rest is the puzzle before the removal, which singles solved),
//! then, for 3 and 4, singles are run from the givens left until the blanked cells are filled
//! (the removal stands: singles only gain from more placements, so they finish as before) or
//! nothing more is found (refused). No search at all.

use std::ops::ControlFlow;

use crate::grid::{CELLS, Grid};
use crate::layout::Layout;
use crate::rate::Houses;
use crate::rng::SplitMix64;
use crate::solver::{Algorithm, SolveOptions, Status, for_each_solution, solve};

use super::Symmetry;
use super::unavoidable::{CellSet, cell, two_line_sets};

/// Bits 1 to 9.
const ALL_DIGITS: u16 = 0x3FE;

/// What a removal must keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Keep {
    /// A unique solution.
    Unique,
    /// A grid that naked and hidden singles alone fill (so a unique solution too): the
    /// puzzles of HoDoKu's easy level, bar the score.
    Singles,
}

/// A puzzle being thinned: its givens, and the digits given in each row, column and region.
#[derive(Clone)]
pub(super) struct Thinning<'a> {
    keep: Keep,
    solution: Grid,
    puzzle: Grid,
    layout: &'a Layout,
    rows: [u16; 9],
    cols: [u16; 9],
    regions: [u16; 9],
    /// The units (rows `0..9`, columns `9..18`, regions `18..27`) and peers of the layout.
    houses: Houses,
    givens: usize,
    /// The givens as a set of cells.
    given_cells: CellSet,
    /// Unavoidable sets of the solution: at least one given in each is needed (the first 128
    /// found).
    unavoidable: Vec<CellSet>,
    /// For each cell, the unavoidable sets holding it (bit `k` for `unavoidable[k]`).
    sets_of: [u128; CELLS],
}

/// The candidates of [`Thinning::singles_fill`].
struct Singles {
    /// Per cell, the digits (bit `d`) it may still hold; none once filled.
    cand: [u16; CELLS],
    /// Per digit `d` (index `d`), the blank cells that may still hold it.
    places: [CellSet; 10],
    /// Cells left with one candidate, to be filled: `naked[..queued]`. A cell is queued at most
    /// once (when its candidates come down to one; it can only lose that one after), so
    /// `CELLS` places are enough and nothing is allocated for a removal.
    naked: [u8; CELLS],
    queued: usize,
}

impl Singles {
    /// Queues blank cell `i`, left with one candidate.
    fn queue(&mut self, i: usize) {
        self.naked[self.queued] = i as u8;
        self.queued += 1;
    }

    /// The last cell queued, taken off the queue.
    fn next_naked(&mut self) -> Option<usize> {
        self.queued = self.queued.checked_sub(1)?;
        Some(self.naked[self.queued] as usize)
    }
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

/// The budget of [`Thinning::other_solution`]: far above what a puzzle a few givens from a
/// unique one takes.
const OTHER_SOLUTION: SolveOptions = SolveOptions {
    algorithm: Algorithm::Fast,
    max_solutions: 2,
    max_recursions: 1 << 20,
    seed: 0,
};

impl<'a> Thinning<'a> {
    /// Starts from `solution`, a complete grid valid under `layout`; every removal keeps
    /// what `keep` says.
    pub fn new(solution: &Grid, layout: &'a Layout, keep: Keep) -> Thinning<'a> {
        let mut thinning = Thinning {
            keep,
            solution: *solution,
            puzzle: *solution,
            layout,
            rows: [0; 9],
            cols: [0; 9],
            regions: [0; 9],
            houses: Houses::new(layout),
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

    /// The grid it is thinned from.
    pub fn solution(&self) -> &Grid {
        &self.solution
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
        self.houses.cell_houses[i].map(usize::from)
    }

    /// The three units of cell `i`, as a set (bit `u` for unit `u`).
    #[inline]
    fn unit_bits(&self, i: usize) -> u32 {
        self.houses.cell_houses[i]
            .iter()
            .fold(0, |bits, &u| bits | 1 << u)
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
            self.houses.house_cells[u].iter().all(|&e| {
                let e = e as usize;
                e == i || self.puzzle.get(e) != 0 || self.seen(e) & bit != 0
            })
        })
    }

    /// Blanks the cells `orbit` and keeps them blank if the solution stays unique; returns
    /// whether it did.
    pub fn try_remove(&mut self, orbit: &[usize]) -> bool {
        self.try_remove_keeping(orbit, self.keep)
    }

    /// [`Thinning::try_remove`], the removal keeping what `keep` says.
    fn try_remove_keeping(&mut self, orbit: &[usize], keep: Keep) -> bool {
        let mut digits = [0u8; 4];
        for (k, &i) in orbit.iter().enumerate() {
            digits[k] = self.puzzle.get(i);
            self.mark(i, digits[k], false);
        }
        let unique = !self.emptied_unavoidable(orbit)
            && (orbit
                .iter()
                .zip(digits)
                .all(|(&i, digit)| self.forced(i, digit))
                || match (keep, orbit) {
                    (Keep::Singles, _) => self.singles_fill(orbit),
                    (Keep::Unique, &[i]) => self.no_other_digit_fits(i, digits[0]),
                    (Keep::Unique, _) => self.unique(),
                });
        if unique {
            return true;
        }
        for (k, &i) in orbit.iter().enumerate() {
            self.mark(i, digits[k], true);
        }
        false
    }

    /// Whether the blank cells `orbit` leave a known unavoidable set without a given.
    fn emptied_unavoidable(&self, orbit: &[usize]) -> bool {
        // Only a set holding a blanked cell can have lost its last given.
        let mut touched = orbit.iter().fold(0u128, |m, &i| m | self.sets_of[i]);
        while touched != 0 {
            let k = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            if self.unavoidable[k] & self.given_cells == 0 {
                return true;
            }
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
            for &e in &self.houses.house_cells[u] {
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

    /// Whether naked and hidden singles, run from the givens as they stand, fill the blank
    /// cells `orbit` (and so, singles having filled the grid before they were blanked, every
    /// cell). The candidates are kept twice: per cell (bit `d`) and per digit (a set of cells);
    /// a placement takes its digit from the peers that still hold it, queueing those left
    /// with one; the units that lost a candidate are then looked at for a digit left with one
    /// cell.
    fn singles_fill(&self, orbit: &[usize]) -> bool {
        let mut state = Singles {
            cand: [0; CELLS],
            places: [0; 10],
            naked: [0; CELLS],
            queued: 0,
        };
        for i in 0..CELLS {
            if self.puzzle.get(i) == 0 {
                let cand = ALL_DIGITS & !self.seen(i);
                state.cand[i] = cand;
                let mut digits = cand;
                while digits != 0 {
                    let d = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    state.places[d] |= cell(i);
                }
                if cand.is_power_of_two() {
                    state.queue(i);
                }
            }
        }
        // Units that lost a candidate since they were looked at (all, at first).
        let mut stale: u32 = (1 << 27) - 1;
        loop {
            while let Some(i) = state.next_naked() {
                // Empty when a placement since the queueing filled it.
                let digit = state.cand[i];
                if digit != 0 {
                    stale |= self.place_single(&mut state, i, digit);
                }
            }
            if orbit.iter().all(|&i| state.cand[i] == 0) {
                return true;
            }
            if stale == 0 {
                return false;
            }
            let u = stale.trailing_zeros() as usize;
            stale &= stale - 1;
            // The digits with exactly one cell left in the unit.
            let (mut one, mut two) = (0u16, 0u16);
            for &e in &self.houses.house_cells[u] {
                let c = state.cand[e as usize];
                two |= one & c;
                one |= c;
            }
            let mut hidden = one & !two;
            while hidden != 0 {
                let d = hidden.trailing_zeros() as usize;
                hidden &= hidden - 1;
                let place = state.places[d] & self.houses.house(u);
                // None left when another single of this unit took the cell (only in a puzzle
                // with no solution, which a thinned puzzle never is).
                if place != 0 {
                    stale |= self.place_single(&mut state, place.trailing_zeros() as usize, 1 << d);
                }
            }
        }
    }

    /// Fills the blank cell `i` with `digit` (a bit) in [`Thinning::singles_fill`]: the cell
    /// keeps no candidate, the peers holding the digit lose it, and those left with one
    /// candidate are queued. Returns the units that lost a candidate.
    fn place_single(&self, state: &mut Singles, i: usize, digit: u16) -> u32 {
        let mut others = state.cand[i] & !digit;
        state.cand[i] = 0;
        let mut stale = self.unit_bits(i);
        while others != 0 {
            let d = others.trailing_zeros() as usize;
            others &= others - 1;
            state.places[d] &= !cell(i);
        }
        let d = digit.trailing_zeros() as usize;
        let mut lost = state.places[d] & self.houses.peers(i);
        state.places[d] &= !self.houses.peers(i) & !cell(i);
        while lost != 0 {
            let e = lost.trailing_zeros() as usize;
            lost &= lost - 1;
            state.cand[e] &= !digit;
            stale |= self.unit_bits(e);
            if state.cand[e].is_power_of_two() {
                state.queue(e);
            }
        }
        stale
    }

    /// Whether the puzzle as it stands has exactly one solution.
    fn unique(&self) -> bool {
        solve(&self.puzzle, self.layout, &UNIQUENESS).map(|o| o.status) == Ok(Status::Solved)
    }

    /// One pass over the orbits in an order drawn from `rng`: an orbit is removed when the
    /// solution stays unique and at least `floor` givens remain; the pass stops once at most
    /// `stop_at` givens are left.
    pub fn pass(&mut self, rng: &mut SplitMix64, symmetry: Symmetry, floor: usize, stop_at: usize) {
        for (orbit, n) in orbits(rng, symmetry) {
            if self.givens <= stop_at {
                break;
            }
            let orbit = &orbit[..n];
            if self.puzzle.get(orbit[0]) != 0 && self.givens - n >= floor {
                self.try_remove(orbit);
            }
        }
    }

    /// A pass as [`Thinning::pass`] with [`Keep::Singles`] that also offers `judge` each
    /// puzzle it refuses that still has a unique solution: the judge keeps it and ends the pass
    /// ([`Judged::Done`]) or gives the orbit back ([`Judged::Back`]).
    pub fn judged_pass<E>(
        &mut self,
        rng: &mut SplitMix64,
        symmetry: Symmetry,
        floor: usize,
        stop_at: usize,
        mut judge: impl FnMut(&Grid) -> Result<Judged, E>,
    ) -> Result<(), E> {
        debug_assert_eq!(self.keep, Keep::Singles);
        for (orbit, n) in orbits(rng, symmetry) {
            if self.givens <= stop_at {
                break;
            }
            let orbit = &orbit[..n];
            if self.puzzle.get(orbit[0]) == 0 || self.givens - n < floor || self.try_remove(orbit) {
                continue;
            }
            if self.try_remove_keeping(orbit, Keep::Unique) {
                if let Judged::Done = judge(&self.puzzle)? {
                    return Ok(());
                }
                self.give(orbit);
            }
        }
        Ok(())
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

    /// The thinning of `puzzle`, a puzzle of this thinning's grid: its blank cells blanked.
    pub fn with_puzzle(mut self, puzzle: &Grid) -> Thinning<'a> {
        for i in 0..CELLS {
            if puzzle.get(i) == 0 && self.puzzle.get(i) != 0 {
                self.mark(i, self.solution.get(i), false);
            }
        }
        self
    }

    /// Blanks the givens of `orbit` whatever that leaves: the solution may no longer be
    /// unique ([`Thinning::other_solution`] tells).
    pub fn blank(&mut self, orbit: &[usize]) {
        for &i in orbit {
            if self.puzzle.get(i) != 0 {
                self.mark(i, self.solution.get(i), false);
            }
        }
    }

    /// A solution of the puzzle as it stands other than the grid it was thinned from; `None`
    /// when there is none. A search that runs out of its budget gives the grid itself back
    /// (not another solution, but no proof of uniqueness either).
    pub fn other_solution(&self) -> Option<Grid> {
        let mut other = None;
        let found =
            for_each_solution(&self.puzzle, self.layout, &OTHER_SOLUTION, |grid| {
                match *grid == self.solution {
                    true => ControlFlow::Continue(()),
                    false => {
                        other = Some(*grid);
                        ControlFlow::Break(())
                    }
                }
            });
        match found {
            Ok((_, false)) => other,
            // Out of budget (or conflicting givens, which a thinning never has): not unique.
            _ => Some(other.unwrap_or(self.solution)),
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

/// What the judge of [`Thinning::judged_pass`] makes of a puzzle.
pub(super) enum Judged {
    /// Keep it; the pass is over.
    Done,
    /// Give the orbit back and go on.
    Back,
}

/// Every orbit of `symmetry` once, as [`Symmetry::orbit`] gives it, in an order drawn from
/// `rng` (by the first of its cells in a shuffle of all cells).
fn orbits(rng: &mut SplitMix64, symmetry: Symmetry) -> impl Iterator<Item = ([usize; 4], usize)> {
    let mut order: [u8; CELLS] = std::array::from_fn(|i| i as u8);
    rng.shuffle(&mut order);
    let mut visited = [false; CELLS];
    order.into_iter().filter_map(move |cell| {
        let (orbit, n) = symmetry.orbit(cell as usize);
        if visited[orbit[0]] {
            return None;
        }
        for &i in &orbit[..n] {
            visited[i] = true;
        }
        Some((orbit, n))
    })
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
    let mut thinning = Thinning::new(solution, layout, Keep::Unique);
    thinning.pass(&mut SplitMix64::new(seed), Symmetry::None, 0, min_clues);
    thinning.puzzle()
}
