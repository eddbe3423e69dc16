//! `fast` on jigsaw layouts: per-digit bitboards over the whole grid, naked and hidden singles
//! and locked candidates propagated to a fixpoint, a guess on a cell with two candidates. The
//! band engine (`fast/`) is built around 3x3 boxes; this one takes its regions from the
//! [`Layout`], so any nine regions of nine cells cost the same.
//!
//! # Bit layout
//! A set of cells is one `u128` with bit `i` for cell `i` (reading order, `i = row * 9 + col`);
//! bits 81..128 are always clear:
//!
//! ```text
//!  bit:  80 ...... 72 | ... | 17 ....... 9 | 8 ........ 0
//!        row 9        |     | row 2        | row 1            (each row: column 9 .. column 1)
//! ```
//!
//! The board is, for every digit `d`, the cells where `d` may still go (`cand[d]`; a cell that
//! holds `d` keeps its bit there and only there), and the cells still unsolved; plus, for each
//! digit, its cells as they were when it was last scanned for hidden singles (`scanned[d]`)
//! and last looked at for locked candidates (`locked[d]`), so that each step looks only at the
//! units where something changed. That is 28 `u128`, 448 bytes, copied on each guess but the
//! last (copying is cheaper than undoing). Rows and columns are constant masks; the nine
//! region masks and the region and units of each cell are built from the layout for each
//! puzzle (a few thousand instructions, under a microsecond: not worth caching). A cell's
//! peers are the other cells of its row, column and region.
//!
//! # Rules
//! - **naked single**: an unsolved cell where one digit is left takes it;
//! - **hidden single**: a digit with one cell left in a row, column or region goes there;
//! - **locked candidates**: when a digit's cells in a region all lie in one row (or column),
//!   the digit leaves the rest of that row (column); when its cells in a row (or column) all
//!   lie in one region, the digit leaves the rest of that region. Both directions matter on a
//!   jigsaw layout, where a region meets several rows and columns and a row several regions.
//!   These only eliminate candidates: they place nothing and are not counted.
//!
//! Placing digit `d` in cell `i` removes `d` from the peers of `i` and every other digit from
//! `i`. A contradiction is a row, column or region where a digit has no cell left, or an
//! unsolved cell with no digit left.
//!
//! # Propagation order, and how placements are counted
//! At each call of the search procedure:
//! 1. **hidden singles**: a digit is *stale* when its cells changed since it was last scanned
//!    (every digit is, at the start). While some digit is stale, every stale digit, in
//!    increasing order, is scanned once: each row, column and region holding a cell that
//!    changed is checked; where the digit has no cell it is a contradiction, where it has one
//!    unsolved cell, that cell is a **hidden single**. The scan's hidden singles are then
//!    placed in reading order; one whose cell an earlier one took away is a contradiction.
//!    The trace names the first unit, in the order row, column, region, where the cell was
//!    the digit's only one.
//! 2. when no digit is stale: every unsolved cell with one candidate left, in reading order,
//!    is placed, a **naked single**, and propagation returns to step 1 if any was. A cell with
//!    no candidate, found in this pass, is a contradiction.
//! 3. when that is quiet too: **locked candidates**, for every digit whose cells changed since
//!    it was last looked at here, in increasing order, in the units holding a changed cell.
//!    If anything was eliminated, propagation returns to step 1; else it is quiet.
//!
//! A cell that both single rules could place is counted under the rule that placed it first in
//! this order, so on this engine most such cells count as hidden singles. The order does not
//! change where propagation ends: every rule only removes candidates and still applies when
//! there are fewer, so all orders reach the same fixpoint (or a contradiction). The search
//! tree, and with it `recursions`, `max_depth`, `guesses` and `backtracks`, does not depend on
//! the order (a test holds the engine to a slow, obvious implementation of these rules); only
//! the singles counters do: how placements split between `naked_singles` and
//! `hidden_singles`, and how many are made before a contradiction shows.
//!
//! # Branching
//! When propagation is quiet and cells are unsolved, the search branches on the unsolved cell
//! with two candidates that has the most unsolved peers (the first in reading order on a
//! tie), so that its guesses reach as much of the grid as possible; when no cell has two
//! candidates, on the cell with the fewest, ties broken the same way. Each candidate, in
//! increasing order, is a **guess** that enters the search procedure once more (`recursions`,
//! depth + 1); returning from it without having stopped is a **backtrack**. The root call is
//! depth 1, so a puzzle that propagation alone finishes has `recursions = 1`,
//! `max_depth = 1`, no guesses.

use super::{Event, Observer, Search, Stop};
use crate::grid::{CELLS, Grid};
use crate::layout::{Layout, UnitName};

/// A set of cells: bit `i` for cell `i` (see the module page).
type Cells = u128;

/// Every cell of the grid.
const ALL_CELLS: Cells = (1 << CELLS) - 1;

/// The cells of each row.
const ROW: [Cells; 9] = {
    let mut t = [0; 9];
    let mut r = 0;
    while r < 9 {
        t[r] = 0x1FF << (9 * r);
        r += 1;
    }
    t
};

/// The cells of each column.
const COLUMN: [Cells; 9] = {
    let mut t = [0; 9];
    let mut c = 0;
    while c < 9 {
        let mut r = 0;
        while r < 9 {
            t[c] |= 1 << (9 * r + c);
            r += 1;
        }
        c += 1;
    }
    t
};

/// Whether `cells` holds at most one cell.
#[inline(always)]
fn at_most_one(cells: Cells) -> bool {
    cells & cells.wrapping_sub(1) == 0
}

/// All cells when `condition` holds, else none.
#[inline(always)]
fn all_if(condition: bool) -> Cells {
    Cells::from(condition).wrapping_neg()
}

/// The index of the first cell of a non-empty set.
#[inline(always)]
fn first(cells: Cells) -> usize {
    cells.trailing_zeros() as usize
}

/// Every unit, as bits of [`Units::of_cell`].
const ALL_UNITS: u32 = (1 << 27) - 1;

/// The rows and columns, as bits of [`Units::of_cell`].
const LINES: u32 = (1 << 18) - 1;

/// The 27 units of one layout as cell sets, and what the engine looks up about them.
struct Units {
    /// The cells of each unit: rows `0..9`, columns `9..18`, regions `18..27` (the layout's
    /// order).
    cells: [Cells; 27],
    /// The units of each cell, bit `u` for unit `u`.
    of_cell: [u32; CELLS],
    /// The region of each cell.
    region_of: [u8; CELLS],
    /// How each region is named in traces.
    names: [UnitName; 9],
}

impl Units {
    /// The units of `layout`.
    fn new(layout: &Layout) -> Units {
        let mut cells = [0; 27];
        cells[..9].copy_from_slice(&ROW);
        cells[9..18].copy_from_slice(&COLUMN);
        let region_of: [u8; CELLS] = std::array::from_fn(|i| layout.region_of(i) as u8);
        for (i, &r) in region_of.iter().enumerate() {
            cells[18 + r as usize] |= 1 << i;
        }
        Units {
            cells,
            of_cell: std::array::from_fn(|i| {
                (1 << (i / 9)) | (1 << (9 + i % 9)) | (1 << (18 + region_of[i]))
            }),
            region_of,
            names: std::array::from_fn(|r| layout.region_name(r)),
        }
    }

    /// The region holding cell `i`.
    #[inline(always)]
    fn region(&self, i: usize) -> Cells {
        self.cells[18 + self.region_of[i] as usize]
    }

    /// The cells sharing a row, column or region with cell `i`, `i` excluded.
    #[inline(always)]
    fn peers(&self, i: usize) -> Cells {
        (ROW[i / 9] | COLUMN[i % 9] | self.region(i)) & !(1 << i)
    }
}

/// Propagation found that the board has no solution.
struct Contradiction;

/// The search state (see the module page).
#[derive(Clone, Copy)]
struct Board {
    /// Per digit (0-based), the cells where it may go; a solved cell only in its own digit.
    cand: [Cells; 9],
    /// Per digit, `cand` as it was when the digit was last scanned for hidden singles.
    scanned: [Cells; 9],
    /// Per digit, `cand` as it was when locked candidates were last looked for.
    locked: [Cells; 9],
    /// The cells not yet solved.
    unsolved: Cells,
}

impl Board {
    /// The board with the givens of `grid` placed and nothing propagated (givens are known not
    /// to conflict). Every digit is stale.
    fn new(grid: &Grid, units: &Units) -> Board {
        let mut board = Board {
            cand: [ALL_CELLS; 9],
            // As if last scanned with no cell: every cell has changed.
            scanned: [0; 9],
            locked: [0; 9],
            unsolved: ALL_CELLS,
        };
        for (i, &v) in grid.cells().iter().enumerate() {
            if v != 0 {
                board.place(v as usize - 1, i, units);
            }
        }
        board
    }

    /// Places digit `d` (0-based) in unsolved cell `i`.
    #[inline(always)]
    fn place(&mut self, d: usize, i: usize, units: &Units) {
        let bit: Cells = 1 << i;
        debug_assert!(self.unsolved & bit != 0 && self.cand[d] & bit != 0);
        let own = self.cand[d] & !units.peers(i);
        for x in &mut self.cand {
            *x &= !bit;
        }
        self.cand[d] = own;
        self.unsolved &= !bit;
    }

    /// The units holding a cell of `changed`, as bits of [`Units::of_cell`].
    #[inline(always)]
    fn touched(mut changed: Cells, units: &Units) -> u32 {
        if changed.count_ones() > 12 {
            return ALL_UNITS;
        }
        let mut found = 0;
        while changed != 0 {
            found |= units.of_cell[first(changed)];
            changed &= changed - 1;
        }
        found
    }

    /// Step 1 of the module page, once: scans digit `d` for hidden singles and places them.
    ///
    /// Only the units holding a cell that changed since the last scan are looked at: in the
    /// others the last scan found what there is to find, and it has been placed.
    #[inline(always)]
    fn scan<O: Observer>(
        &mut self,
        d: usize,
        units: &Units,
        search: &mut Search<'_, O>,
    ) -> Result<(), Contradiction> {
        let x = self.cand[d];
        let mut touched = Self::touched(x ^ self.scanned[d], units);
        self.scanned[d] = x;
        // Cells alone in a unit.
        let mut alone: Cells = 0;
        let mut empty = false;
        while touched != 0 {
            let u = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            let here = x & units.cells[u];
            empty |= here == 0;
            alone |= here & all_if(at_most_one(here));
        }
        if empty {
            return Err(Contradiction);
        }
        let mut singles = alone & self.unsolved;
        while singles != 0 {
            let i = first(singles);
            let bit: Cells = 1 << i;
            singles &= singles - 1;
            // An earlier single of this scan, a peer, took the cell: its unit has no place
            // left for the digit.
            if self.cand[d] & bit == 0 {
                return Err(Contradiction);
            }
            // The first unit (row, column, region) where the cell was alone.
            search.hidden_single(i, d as u8 + 1, || {
                if at_most_one(x & ROW[i / 9]) {
                    UnitName::Row((i / 9) as u8 + 1)
                } else if at_most_one(x & COLUMN[i % 9]) {
                    UnitName::Column((i % 9) as u8 + 1)
                } else {
                    units.names[units.region_of[i] as usize]
                }
            });
            self.place(d, i, units);
        }
        Ok(())
    }

    /// The digits whose cells differ from `seen`: bit `d` set when `cand[d] != seen[d]`.
    #[inline(always)]
    fn changed_since(&self, seen: &[Cells; 9]) -> u32 {
        let mut changed = 0;
        for (d, (now, then)) in self.cand.iter().zip(seen).enumerate() {
            changed |= u32::from(now != then) << d;
        }
        changed
    }

    /// Step 1 to its end: scans stale digits until none is stale.
    #[inline(always)]
    fn settle<O: Observer>(
        &mut self,
        units: &Units,
        search: &mut Search<'_, O>,
    ) -> Result<(), Contradiction> {
        loop {
            let mut stale = self.changed_since(&self.scanned);
            if stale == 0 {
                return Ok(());
            }
            while stale != 0 {
                let d = stale.trailing_zeros() as usize;
                stale &= stale - 1;
                self.scan(d, units, search)?;
            }
        }
    }

    /// Step 3, for digit `d`: locked candidates in the units holding a cell that changed since
    /// the digit's last step 3. Returns whether it cleared anything.
    #[inline(always)]
    fn lock(&mut self, d: usize, units: &Units) -> bool {
        let x = self.cand[d];
        let touched = Self::touched(x ^ self.locked[d], units);
        self.locked[d] = x;
        // If every cell of the digit in a unit lies in one unit crossing it, the digit leaves
        // the rest of that one. (When the digit has one cell there, placing it did that
        // already.) Step 1 found no unit empty, so each unit has a first cell, and the
        // crossing units that could hold them all are those of that cell.
        let mut cleared: Cells = 0;
        let mut lines = touched & LINES;
        while lines != 0 {
            let unit = units.cells[lines.trailing_zeros() as usize];
            lines &= lines - 1;
            let here = x & unit;
            debug_assert!(here != 0);
            let region = units.region(first(here));
            cleared |= region & !unit & all_if(here & !region == 0);
        }
        let mut regions = touched >> 18;
        while regions != 0 {
            let unit = units.cells[18 + regions.trailing_zeros() as usize];
            regions &= regions - 1;
            let here = x & unit;
            debug_assert!(here != 0);
            let i = first(here);
            for line in [ROW[i / 9], COLUMN[i % 9]] {
                cleared |= line & !unit & all_if(here & !line == 0);
            }
        }
        let cleared = cleared & x & self.unsolved;
        self.cand[d] = x & !cleared;
        cleared != 0
    }

    /// Step 2: places every unsolved cell with one candidate left. Returns how many were
    /// placed and the unsolved cells with exactly two candidates.
    #[inline(always)]
    fn naked_singles<O: Observer>(
        &mut self,
        units: &Units,
        search: &mut Search<'_, O>,
    ) -> Result<(u32, Cells), Contradiction> {
        // Cells with at least one, two, three candidates.
        let (mut one, mut two, mut three): (Cells, Cells, Cells) = (0, 0, 0);
        for &x in &self.cand {
            three |= two & x;
            two |= one & x;
            one |= x;
        }
        let unsolved = self.unsolved;
        let pairs = unsolved & two & !three;
        let mut singles = unsolved & !two;
        let mut placed = 0;
        while singles != 0 {
            let i = first(singles);
            let bit: Cells = 1 << i;
            singles &= singles - 1;
            // A cell with no candidate, from the start or since an earlier placement of this
            // pass, is a contradiction.
            let d = (0..9)
                .find(|&d| self.cand[d] & bit != 0)
                .ok_or(Contradiction)?;
            search.naked_single(i, d as u8 + 1);
            self.place(d, i, units);
            placed += 1;
        }
        Ok((placed, pairs))
    }

    /// Propagates to the fixpoint of the module page; on a quiet unsolved board, returns the
    /// unsolved cells with two candidates.
    #[inline(always)]
    fn propagate<O: Observer>(
        &mut self,
        units: &Units,
        search: &mut Search<'_, O>,
    ) -> Result<Option<Cells>, Contradiction> {
        loop {
            self.settle(units, search)?;
            if self.unsolved == 0 {
                return Ok(None);
            }
            let (placed, pairs) = self.naked_singles(units, search)?;
            if placed != 0 {
                continue;
            }
            let mut unlocked = self.changed_since(&self.locked);
            let mut cleared = false;
            while unlocked != 0 {
                let d = unlocked.trailing_zeros() as usize;
                unlocked &= unlocked - 1;
                cleared |= self.lock(d, units);
            }
            if !cleared {
                return Ok(Some(pairs));
            }
        }
    }

    /// Unsolved cells among the peers of cell `i`.
    #[inline(always)]
    fn reach(&self, i: usize, units: &Units) -> u32 {
        (units.peers(i) & self.unsolved).count_ones()
    }

    /// The cell to branch on (see the module page), given the cells with two candidates.
    #[inline(always)]
    fn branch_cell(&self, pairs: Cells, units: &Units) -> usize {
        if pairs == 0 {
            return self.fewest_candidates(units);
        }
        let (mut best, mut most) = (first(pairs), 0);
        let mut cells = pairs;
        while cells != 0 {
            let i = first(cells);
            cells &= cells - 1;
            let reach = self.reach(i, units);
            if reach > most {
                (best, most) = (i, reach);
            }
        }
        best
    }

    /// When no cell has two candidates: the cell with the fewest, ties broken by reach.
    #[inline(never)]
    fn fewest_candidates(&self, units: &Units) -> usize {
        let mut best = (0, u32::MAX, 0);
        let mut cells = self.unsolved;
        while cells != 0 {
            let i = first(cells);
            cells &= cells - 1;
            let n = self.candidates(i).count_ones();
            let reach = self.reach(i, units);
            if n < best.1 || (n == best.1 && reach > best.2) {
                best = (i, n, reach);
            }
        }
        best.0
    }

    /// The candidates of cell `i` as a digit mask (bit `d` for digit `d + 1`).
    #[inline(always)]
    fn candidates(&self, i: usize) -> u32 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= ((self.cand[d] >> i) as u32 & 1) << d;
        }
        digits
    }

    /// The grid of solved cells.
    fn grid(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        let solved = ALL_CELLS & !self.unsolved;
        for d in 0..9 {
            let mut x = self.cand[d] & solved;
            while x != 0 {
                cells[first(x)] = d as u8 + 1;
                x &= x - 1;
            }
        }
        Grid::from_cells_trusted(cells)
    }
}

/// Runs the jigsaw engine on `grid`, whose givens are known not to conflict under `layout`.
pub(crate) fn search<O: Observer>(grid: &Grid, layout: &Layout, search: &mut Search<'_, O>) {
    let units = Units::new(layout);
    let mut board = Board::new(grid, &units);
    // A stop is recorded in `search.stop`; nothing else to do with it here.
    let _ = node(&mut board, &units, 1, search);
}

/// One entry of the search procedure at `depth`: propagate, then report or branch.
fn node<O: Observer>(
    board: &mut Board,
    units: &Units,
    depth: u64,
    search: &mut Search<'_, O>,
) -> Result<(), Stop> {
    search.enter(depth)?;
    let propagated = board.propagate(units, search);
    if O::ACTIVE {
        search.observer.event(&Event::Board(&board.grid()));
    }
    let pairs = match propagated {
        Err(Contradiction) => {
            if O::ACTIVE {
                search.observer.event(&Event::Contradiction);
            }
            return Ok(());
        }
        Ok(None) => return search.solution(|| board.grid()),
        Ok(Some(pairs)) => pairs,
    };
    let cell = board.branch_cell(pairs, units);
    let mut digits = board.candidates(cell);
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        search.guess(cell, d as u8 + 1, depth + 1);
        if digits == 0 {
            // The last candidate: no need to keep the parent board.
            board.place(d, cell, units);
            node(board, units, depth + 1, search)?;
        } else {
            let mut child = *board;
            child.place(d, cell, units);
            node(&mut child, units, depth + 1, search)?;
        }
        search.backtrack(cell, d as u8 + 1, depth + 1);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{NoTrace, Sink};
    use std::ops::ControlFlow;

    /// Solutions found by an engine, at most `limit`.
    fn run_with(limit: usize, engine: impl FnOnce(&mut Search<'_, NoTrace>)) -> Vec<Grid> {
        let mut found = Vec::new();
        let mut on_solution = |g: &Grid| {
            found.push(*g);
            if found.len() == limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let mut observer = NoTrace;
        let mut search = Search::new(u64::MAX, &mut observer, Sink::Each(&mut on_solution));
        engine(&mut search);
        found
    }

    /// Every 23rd puzzle of every shipped standard set.
    fn standard_puzzles() -> Vec<Grid> {
        crate::test_data::shipped_puzzles(23)
    }

    /// On the standard layout this engine and the band engine must find the same solutions:
    /// the band engine is an independent implementation of the same rules (its search tree
    /// differs a little: it does not look for a column locked in a box).
    #[test]
    fn on_the_standard_layout_it_finds_what_the_band_engine_finds() {
        const LIMIT: usize = 3;
        let layout = Layout::standard();
        let puzzles = standard_puzzles();
        assert!(puzzles.len() > 500);
        let mut unique = 0;
        for grid in &puzzles {
            let mut ours = run_with(LIMIT, |s| super::search(grid, &layout, s));
            let mut band = run_with(LIMIT, |s| {
                crate::solver::fast::search(grid, s).expect("no conflicting givens")
            });
            assert_eq!(ours.len(), band.len(), "{grid}");
            if ours.len() < LIMIT {
                // Below the limit both found every solution; in any order.
                ours.sort_by_key(Grid::to_line);
                band.sort_by_key(Grid::to_line);
                assert_eq!(ours, band, "{grid}");
            }
            unique += usize::from(ours.len() == 1);
        }
        // The sample is not all multi-solution puzzles.
        assert!(unique > puzzles.len() / 2, "{unique} of {}", puzzles.len());
    }

    /// The rules of the module page written the slow, obvious way, on one candidate mask per
    /// cell: a cell with one candidate is solved. Returns `false` on a contradiction.
    fn reference_propagate(cand: &mut [u16; CELLS], layout: &Layout) -> bool {
        let units: Vec<Vec<usize>> = (0..9)
            .map(|r| (0..9).map(|c| r * 9 + c).collect())
            .chain((0..9).map(|c| (0..9).map(|r| r * 9 + c).collect()))
            .chain((0..9).map(|g| layout.cells_of(g).to_vec()))
            .collect();
        let region = |i: usize| 18 + layout.region_of(i);
        let peers = |i: usize, j: usize| {
            i != j && (i / 9 == j / 9 || i % 9 == j % 9 || region(i) == region(j))
        };
        loop {
            let before = *cand;
            for i in 0..CELLS {
                if cand[i].count_ones() == 1 {
                    for j in (0..CELLS).filter(|&j| peers(i, j)) {
                        cand[j] &= !cand[i];
                    }
                }
            }
            for (u, cells) in units.iter().enumerate() {
                for bit in (0..9).map(|d| 1u16 << d) {
                    let with: Vec<usize> = cells
                        .iter()
                        .copied()
                        .filter(|&i| cand[i] & bit != 0)
                        .collect();
                    match with[..] {
                        [] => return false,
                        [i] => cand[i] = bit,
                        _ => {}
                    }
                    // Locked candidates: the units crossing this one that hold every cell.
                    let crossing: Vec<usize> = if u < 18 {
                        vec![region(with[0])]
                    } else {
                        vec![with[0] / 9, 9 + with[0] % 9]
                    };
                    for other in crossing {
                        if with.iter().all(|i| units[other].contains(i)) {
                            for &j in units[other].iter().filter(|j| !cells.contains(j)) {
                                cand[j] &= !bit;
                            }
                        }
                    }
                }
            }
            if cand.contains(&0) {
                return false;
            }
            if *cand == before {
                return true;
            }
        }
    }

    /// Counters of the reference search: recursions, max_depth, guesses, backtracks.
    #[derive(Debug, Default, PartialEq)]
    struct Tree {
        recursions: u64,
        max_depth: u64,
        guesses: u64,
        backtracks: u64,
    }

    /// The search of the module page over [`reference_propagate`]; `Err` when `found` is full.
    fn reference_node(
        mut cand: [u16; CELLS],
        layout: &Layout,
        depth: u64,
        tree: &mut Tree,
        found: &mut Vec<Grid>,
        limit: usize,
    ) -> Result<(), ()> {
        tree.recursions += 1;
        tree.max_depth = tree.max_depth.max(depth);
        if !reference_propagate(&mut cand, layout) {
            return Ok(());
        }
        let unsolved: Vec<usize> = (0..CELLS).filter(|&i| cand[i].count_ones() > 1).collect();
        if unsolved.is_empty() {
            found.push(Grid::from_cells(cand.map(|c| c.trailing_zeros() as u8 + 1)));
            return if found.len() == limit {
                Err(())
            } else {
                Ok(())
            };
        }
        let reach = |i: usize| {
            let peer = |j: usize| {
                i != j
                    && (i / 9 == j / 9
                        || i % 9 == j % 9
                        || layout.region_of(i) == layout.region_of(j))
            };
            unsolved.iter().filter(|&&j| peer(j)).count()
        };
        // Fewest candidates, then most unsolved peers, then reading order.
        let cell = *unsolved
            .iter()
            .min_by_key(|&&i| (cand[i].count_ones(), std::cmp::Reverse(reach(i)), i))
            .unwrap();
        for d in (0..9).filter(|d| cand[cell] & (1 << d) != 0) {
            tree.guesses += 1;
            let mut child = cand;
            child[cell] = 1 << d;
            reference_node(child, layout, depth + 1, tree, found, limit)?;
            tree.backtracks += 1;
        }
        Ok(())
    }

    /// The engine against [`reference_node`]: as propagation reaches the same fixpoint in any
    /// order, the search trees must be the same: same solutions in the same order, same
    /// recursions, depth, guesses and backtracks. This pins down that every rule of the module
    /// page is applied to its end (a rule skipped somewhere still finds the right solutions,
    /// only later), and the branching rule.
    #[test]
    fn the_search_tree_is_the_one_the_rules_define() {
        const LIMIT: usize = 3;
        let mut cases: Vec<(Grid, Layout)> = Vec::new();
        let sample =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/jigsaw_sample.csv");
        let text = std::fs::read_to_string(sample).unwrap();
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split(',').collect();
            cases.push((
                fields[0].parse().unwrap(),
                Layout::parse(fields[1].as_bytes()).unwrap(),
            ));
        }
        // Random layouts and clues, from many solutions to none.
        for seed in 0..20 {
            let (layout, solution) = crate::generate::random_jigsaw(seed, 60);
            let mut puzzle = Grid::EMPTY;
            for i in (0..CELLS).filter(|i| (i * 7 + seed as usize * 13) % 10 < 3) {
                puzzle.set(i, solution.get(i));
            }
            cases.push((puzzle, layout.clone()));
            let blank = (0..CELLS).find(|&i| puzzle.get(i) == 0).unwrap();
            puzzle.set(blank, solution.get(blank) % 9 + 1);
            if layout.check_givens(&puzzle).is_ok() {
                cases.push((puzzle, layout));
            }
        }
        // And standard puzzles on the standard layout.
        for grid in standard_puzzles().into_iter().step_by(10) {
            cases.push((grid, Layout::standard()));
        }
        for (grid, layout) in &cases {
            let mut observer = NoTrace;
            let mut ours = Vec::new();
            let mut on_solution = |g: &Grid| {
                ours.push(*g);
                if ours.len() == LIMIT {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            };
            let mut search = Search::new(u64::MAX, &mut observer, Sink::Each(&mut on_solution));
            super::search(grid, layout, &mut search);
            let s = search.stats;
            let engine = Tree {
                recursions: s.recursions,
                max_depth: s.max_depth,
                guesses: s.guesses,
                backtracks: s.backtracks,
            };
            let initial = grid
                .cells()
                .map(|v| if v == 0 { 0x1FF } else { 1 << (v - 1) });
            let (mut tree, mut theirs) = (Tree::default(), Vec::new());
            let _ = reference_node(initial, layout, 1, &mut tree, &mut theirs, LIMIT);
            assert_eq!((&ours, &engine), (&theirs, &tree), "{grid} {layout:?}");
        }
    }
}
