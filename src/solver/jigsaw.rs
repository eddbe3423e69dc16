//! `fast` on jigsaw layouts: per-digit bitboards over the whole grid, naked and hidden singles
//! and locked candidates propagated to a fixpoint, a guess on a cell with two candidates. The
//! band engine (`fast.rs`) is built around 3x3 boxes; this one takes its regions from the
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
//! holds `d` keeps its bit there and only there), and the cells still unsolved: ten `u128`, plus
//! for each digit its cells as last scanned (`scanned[d]`, see below), about 300 bytes copied
//! on each guess but the last (copying is cheaper than undoing). Rows and columns are constant
//! masks; the layout gives the nine region masks and the region of each cell, built for each
//! puzzle (a few hundred nanoseconds). A cell's peers are its row, column and region but itself.
//!
//! # Rules
//! - **naked single**: an unsolved cell where one digit is left takes it;
//! - **hidden single**: a digit with one cell left in a row, column or region goes there;
//! - **locked candidates**: when a digit's cells in a region all lie in one row (or column),
//!   the digit leaves the rest of that row (column); when its cells in a row (or column) all
//!   lie in one region, the digit leaves the rest of that region. Both directions matter on a
//!   jigsaw layout, where a region meets up to nine rows. These only eliminate; they place
//!   nothing and are not counted.
//!
//! Placing digit `d` in cell `i` removes `d` from the peers of `i` and every other digit from
//! `i`.
//!
//! # Propagation order, and how placements are counted
//! At each call of the search procedure, until nothing changes:
//! 1. **digit scans**: a digit is *stale* when its cells changed since it was last scanned
//!    (every digit is stale at the start). While some digit is stale, every stale digit, in
//!    increasing order, is scanned once: in every row, then every column, then every region
//!    (the layout's order), a unit where the digit has no cell is a contradiction; a unit
//!    where it has one unsolved cell gives a **hidden single**, named after the first of
//!    those units (row, column, region) where the cell is alone; a unit where it has two or
//!    more cells may give locked candidates. Then the hidden singles of the scan are placed,
//!    in reading order, and the locked-candidate eliminations applied (to unsolved cells).
//!    A hidden single whose cell an earlier single of the same scan took away is a
//!    contradiction (its unit is left without the digit).
//! 2. when no digit is stale: every unsolved cell with one candidate, in reading order, is
//!    placed as a **naked single** (a cell that an earlier single of the same pass left with
//!    no candidate is a contradiction), and propagation returns to step 1. A cell with no
//!    candidate at all is a contradiction.
//!
//! A cell that both rules could place is counted under the rule that placed it first in this
//! order; so on this engine most singles that are both hidden and naked count as hidden.
//! Whatever the order, the rules reach the same fixpoint (or a contradiction), so the search
//! tree and `recursions`, `max_depth`, `guesses` and `backtracks` do not depend on it; only
//! how placements split between `naked_singles` and `hidden_singles` does.
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

use super::{Event, Observer, Rule, Search, Stop};
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

/// Whether `cells` holds exactly one cell, given that it holds at least one.
#[inline(always)]
fn is_single(cells: Cells) -> bool {
    cells & (cells - 1) == 0
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

/// Every unit, as bits of [`Regions::units_of`].
const ALL_UNITS: u32 = (1 << 27) - 1;

/// The regions of one layout as cell sets, and all 27 units.
struct Regions {
    /// The cells of each unit: rows `0..9`, columns `9..18`, regions `18..27` (the layout's
    /// order).
    units: [Cells; 27],
    /// The units of each cell, bit `u` for unit `u`.
    units_of: [u32; CELLS],
    /// The region of each cell.
    of_cell: [u8; CELLS],
    /// The units that cross a unit at cell `i`, for locked candidates: `crossing[0][i]`
    /// for a row or column (the region of `i`, twice), `crossing[1][i]` for a region (the
    /// row and the column of `i`).
    crossing: [[[Cells; 2]; CELLS]; 2],
    /// How each region is named in traces.
    names: [UnitName; 9],
}

impl Regions {
    fn new(layout: &Layout) -> Regions {
        let mut units = [0; 27];
        units[..9].copy_from_slice(&ROW);
        units[9..18].copy_from_slice(&COLUMN);
        let of_cell: [u8; CELLS] = std::array::from_fn(|i| layout.region_of(i) as u8);
        for (i, &r) in of_cell.iter().enumerate() {
            units[18 + r as usize] |= 1 << i;
        }
        Regions {
            units,
            units_of: std::array::from_fn(|i| {
                (1 << (i / 9)) | (1 << (9 + i % 9)) | (1 << (18 + of_cell[i]))
            }),
            crossing: [
                std::array::from_fn(|i| [units[18 + of_cell[i] as usize]; 2]),
                std::array::from_fn(|i| [ROW[i / 9], COLUMN[i % 9]]),
            ],
            of_cell,
            names: std::array::from_fn(|r| layout.region_name(r)),
        }
    }

    /// The region holding cell `i`.
    #[inline(always)]
    fn of(&self, i: usize) -> Cells {
        self.units[18 + self.of_cell[i] as usize]
    }

    /// The cells sharing a row, column or region with cell `i`, `i` excluded.
    #[inline(always)]
    fn peers(&self, i: usize) -> Cells {
        (ROW[i / 9] | COLUMN[i % 9] | self.of(i)) & !(1 << i)
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
    fn new(grid: &Grid, regions: &Regions) -> Board {
        let mut board = Board {
            cand: [ALL_CELLS; 9],
            // As if last scanned with no cell: every cell has changed.
            scanned: [0; 9],
            locked: [0; 9],
            unsolved: ALL_CELLS,
        };
        for (i, &v) in grid.cells().iter().enumerate() {
            if v != 0 {
                board.place(v as usize - 1, i, regions);
            }
        }
        board
    }

    /// Places digit `d` (0-based) in unsolved cell `i`.
    #[inline(always)]
    fn place(&mut self, d: usize, i: usize, regions: &Regions) {
        let bit: Cells = 1 << i;
        debug_assert!(self.unsolved & bit != 0 && self.cand[d] & bit != 0);
        let own = self.cand[d] & !regions.peers(i);
        for x in &mut self.cand {
            *x &= !bit;
        }
        self.cand[d] = own;
        self.unsolved &= !bit;
    }

    /// The units holding a cell of `changed`, as bits of [`Regions::units_of`].
    #[inline(always)]
    fn units_of(mut changed: Cells, regions: &Regions) -> u32 {
        if changed.count_ones() > 12 {
            return ALL_UNITS;
        }
        let mut units = 0;
        while changed != 0 {
            units |= regions.units_of[first(changed)];
            changed &= changed - 1;
        }
        units
    }

    /// Step 1 of the module page, once: scans digit `d` for hidden singles and places them.
    ///
    /// Only the units holding a cell that changed since the last scan are looked at: in the
    /// others the last scan found what there is to find, and it has been placed.
    #[inline(always)]
    fn scan<O: Observer>(
        &mut self,
        d: usize,
        regions: &Regions,
        search: &mut Search<'_, O>,
    ) -> Result<(), Contradiction> {
        let x = self.cand[d];
        let mut touched = Self::units_of(x ^ self.scanned[d], regions);
        self.scanned[d] = x;
        // Cells alone in a unit.
        let mut alone: Cells = 0;
        while touched != 0 {
            let u = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            let here = x & regions.units[u];
            if here == 0 {
                return Err(Contradiction);
            }
            alone |= here & all_if(is_single(here));
        }
        let mut singles = alone & self.unsolved;
        while singles != 0 {
            let i = first(singles);
            let bit: Cells = 1 << i;
            singles &= singles - 1;
            if self.cand[d] & bit == 0 {
                return Err(Contradiction);
            }
            search.stats.hidden_singles += 1;
            if O::ACTIVE {
                // The first unit (row, column, region) where the cell was alone.
                let unit = if is_single(x & ROW[i / 9]) {
                    UnitName::Row((i / 9) as u8 + 1)
                } else if is_single(x & COLUMN[i % 9]) {
                    UnitName::Column((i % 9) as u8 + 1)
                } else {
                    regions.names[regions.of_cell[i] as usize]
                };
                search.observer.event(&Event::Placed {
                    cell: i,
                    digit: d as u8 + 1,
                    rule: Rule::HiddenSingle(unit),
                });
            }
            self.place(d, i, regions);
        }
        Ok(())
    }

    /// The digits whose cells differ from `seen`: bit `d` set when `cand[d] != seen[d]`.
    #[inline(always)]
    fn changed_since(&self, seen: &[Cells; 9]) -> u32 {
        let mut changed = 0;
        for d in 0..9 {
            changed |= u32::from(self.cand[d] != seen[d]) << d;
        }
        changed
    }

    /// Step 1 to its end: scans stale digits until none is stale.
    #[inline(always)]
    fn settle<O: Observer>(
        &mut self,
        regions: &Regions,
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
                self.scan(d, regions, search)?;
            }
        }
    }

    /// Step 3, for digit `d`: locked candidates in the units holding a cell that changed since
    /// the digit's last step 3. Returns whether it cleared anything.
    #[inline(always)]
    fn lock(&mut self, d: usize, regions: &Regions) -> bool {
        let x = self.cand[d];
        let mut touched = Self::units_of(x ^ self.locked[d], regions);
        self.locked[d] = x;
        let mut cleared: Cells = 0;
        while touched != 0 {
            let u = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            let unit = regions.units[u];
            let here = x & unit;
            // Step 1 found no unit empty.
            debug_assert!(here != 0);
            // The units that cross this one at its first cell: if every cell of the digit
            // here lies in one of them, the digit leaves the rest of it. (When the digit has
            // one cell here, placing it did that already.)
            for other in regions.crossing[usize::from(u >= 18)][first(here)] {
                cleared |= other & !unit & all_if(here & !other == 0);
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
        regions: &Regions,
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
        if unsolved & !one != 0 {
            return Err(Contradiction);
        }
        let pairs = unsolved & two & !three;
        let mut singles = unsolved & !two;
        let mut placed = 0;
        while singles != 0 {
            let i = first(singles);
            let bit: Cells = 1 << i;
            singles &= singles - 1;
            // An earlier placement of this pass may have taken the last candidate.
            let d = (0..9)
                .find(|&d| self.cand[d] & bit != 0)
                .ok_or(Contradiction)?;
            search.stats.naked_singles += 1;
            if O::ACTIVE {
                search.observer.event(&Event::Placed {
                    cell: i,
                    digit: d as u8 + 1,
                    rule: Rule::NakedSingle,
                });
            }
            self.place(d, i, regions);
            placed += 1;
        }
        Ok((placed, pairs))
    }

    /// Propagates to the fixpoint of the module page; on a quiet unsolved board, returns the
    /// unsolved cells with two candidates.
    #[inline(always)]
    fn propagate<O: Observer>(
        &mut self,
        regions: &Regions,
        search: &mut Search<'_, O>,
    ) -> Result<Option<Cells>, Contradiction> {
        loop {
            self.settle(regions, search)?;
            if self.unsolved == 0 {
                return Ok(None);
            }
            let (placed, pairs) = self.naked_singles(regions, search)?;
            if placed != 0 {
                continue;
            }
            let mut unlocked = self.changed_since(&self.locked);
            let mut cleared = false;
            while unlocked != 0 {
                let d = unlocked.trailing_zeros() as usize;
                unlocked &= unlocked - 1;
                cleared |= self.lock(d, regions);
            }
            if !cleared {
                return Ok(Some(pairs));
            }
        }
    }

    /// Unsolved cells among the peers of cell `i`.
    #[inline(always)]
    fn reach(&self, i: usize, regions: &Regions) -> u32 {
        (regions.peers(i) & self.unsolved).count_ones()
    }

    /// The cell to branch on (see the module page), given the cells with two candidates.
    #[inline(always)]
    fn branch_cell(&self, pairs: Cells, regions: &Regions) -> usize {
        if pairs == 0 {
            return self.fewest_candidates(regions);
        }
        let (mut best, mut most) = (first(pairs), 0);
        let mut cells = pairs;
        while cells != 0 {
            let i = first(cells);
            cells &= cells - 1;
            let reach = self.reach(i, regions);
            if reach > most {
                (best, most) = (i, reach);
            }
        }
        best
    }

    /// When no cell has two candidates: the cell with the fewest, ties broken by reach.
    #[inline(never)]
    fn fewest_candidates(&self, regions: &Regions) -> usize {
        let mut best = (0, u32::MAX, 0);
        let mut cells = self.unsolved;
        while cells != 0 {
            let i = first(cells);
            cells &= cells - 1;
            let n = self.candidates(i).count_ones();
            let reach = self.reach(i, regions);
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
    let regions = Regions::new(layout);
    let mut board = Board::new(grid, &regions);
    // A stop is recorded in `search.stop`; nothing else to do with it here.
    let _ = node(&mut board, &regions, 1, search);
}

/// One entry of the search procedure at `depth`: propagate, then report or branch.
fn node<O: Observer>(
    board: &mut Board,
    regions: &Regions,
    depth: u64,
    search: &mut Search<'_, O>,
) -> Result<(), Stop> {
    search.enter(depth)?;
    let propagated = board.propagate(regions, search);
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
    let cell = board.branch_cell(pairs, regions);
    let mut digits = board.candidates(cell);
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        search.stats.guesses += 1;
        if O::ACTIVE {
            search.observer.event(&Event::Guess {
                cell,
                digit: d as u8 + 1,
                depth: depth + 1,
            });
        }
        if digits == 0 {
            // The last candidate: no need to keep the parent board.
            board.place(d, cell, regions);
            node(board, regions, depth + 1, search)?;
        } else {
            let mut child = *board;
            child.place(d, cell, regions);
            node(&mut child, regions, depth + 1, search)?;
        }
        search.stats.backtracks += 1;
        if O::ACTIVE {
            search.observer.event(&Event::Backtrack {
                cell,
                digit: d as u8 + 1,
                depth: depth + 1,
            });
        }
    }
    Ok(())
}
