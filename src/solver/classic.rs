//! The textbook backtracking solvers, `naive`, `candidates` and `random`, instrumented with the
//! shared counters so that their work can be compared with the propagating engines.
//!
//! All three walk the cells in reading order (left to right, top to bottom) and keep the grid
//! as 81 plain values; a unit is a row, a column or a region of the [`Layout`] (the 3x3 box on
//! the standard layout), read from the layout once per search, so jigsaw puzzles need nothing
//! special. Nothing is propagated: the only information a step has is the grid.
//!
//! # The procedure, and how it maps onto the counters
//! As in the textbook solvers, the recursive procedure takes one cell: it is entered for cell
//! r1c1 at the root (depth 1), and the call for the cell at reading position `i` runs at depth
//! `i + 1`. A call for a given cell goes straight on to the next cell; a call for a blank cell
//! tries digits there, going on to the next cell after each placement. Filling the last cell
//! (r9c9) completes the grid, which is reported as a solution from within that call. Hence, for
//! every algorithm of this page:
//!
//! - `recursions` counts calls for given cells as well as for blank ones; `max_depth` is 81
//!   whenever the search reaches the last cell, in particular whenever it finds a solution;
//! - a search that stops (limit reached or budget spent) leaves the placements on its path
//!   neither undone nor counted as backtracks, as the counter definitions require.
//!
//! **`naive`** tries the digits 1 to 9 in the current cell; each digit is checked by scanning
//! the cell's row, column and region for it, and placed when none holds it. The procedure
//! never counts a cell's candidates, so it cannot know that a cell has only one: every digit it
//! places is a trial, counted as a **guess** (event `Guess`), and every trial taken back after
//! the search below it is exhausted is a **backtrack** (event `Backtrack`). `naked_singles` and
//! `hidden_singles` stay 0. Digits rejected by the scan are not placed and not counted.
//!
//! **`candidates`** first scans the row, column and region once to list the digits still
//! possible in the cell, then tries only those, in increasing order:
//! - no candidate: a dead end (event `Contradiction`), the call returns;
//! - one candidate: the placement is forced, not a choice: it counts as a **naked single**
//!   (event `Placed`, rule `NakedSingle`), never as a guess, and taking it back when the search
//!   below fails is not a backtrack;
//! - two or more: the cell is a branch point, and each candidate placed is a **guess**, each
//!   taken back a **backtrack**, exactly as in the counter definitions.
//!
//! So `hidden_singles = 0` for `candidates`, and every call for a blank cell other than the
//! root follows a guess or a naked single.
//!
//! **`random`** is `candidates` with each candidate list of two or more digits shuffled before
//! it is tried, by [`SplitMix64`] seeded with [`super::SolveOptions::seed`] and drawn in search
//! order (see [`crate::rng`] for the exact generator and shuffle), so a seed gives the same
//! search, counters and solutions forever. The counters mean what they mean for `candidates`.

use super::{Event, Observer, Search, Stop};
use crate::grid::{CELLS, Grid};
use crate::layout::Layout;
use crate::rng::SplitMix64;

/// The units each cell belongs to, as lists of the other cells to scan.
struct Scan {
    /// For each cell: its row, column and region, each as nine cells (the cell included).
    units: [[[u8; 9]; 3]; CELLS],
}

impl Scan {
    fn new(layout: &Layout) -> Scan {
        let regions: [[usize; 9]; 9] = std::array::from_fn(|r| layout.cells_of(r));
        let mut units = [[[0u8; 9]; 3]; CELLS];
        for (i, u) in units.iter_mut().enumerate() {
            let (row, col) = (i / 9, i % 9);
            for k in 0..9 {
                u[0][k] = (row * 9 + k) as u8;
                u[1][k] = (k * 9 + col) as u8;
                u[2][k] = regions[layout.region_of(i)][k] as u8;
            }
        }
        Scan { units }
    }

    /// Whether digit `d` is absent from the row, column and region of `cell` (the cell itself
    /// is blank, so scanning it does no harm).
    #[inline]
    fn fits(&self, cells: &[u8; CELLS], cell: usize, d: u8) -> bool {
        self.units[cell]
            .iter()
            .all(|unit| unit.iter().all(|&j| cells[j as usize] != d))
    }

    /// The digits absent from the row, column and region of `cell`, as bits `1 << d`.
    #[inline]
    fn candidates(&self, cells: &[u8; CELLS], cell: usize) -> u16 {
        let mut used = 0u16;
        for unit in &self.units[cell] {
            for &j in unit {
                used |= 1 << cells[j as usize];
            }
        }
        !used & 0x3FE
    }
}

/// The state one search carries down the recursion.
struct Walk<'a> {
    scan: Scan,
    cells: [u8; CELLS],
    /// The shuffling generator of `random`; `None` for `candidates`.
    rng: Option<&'a mut SplitMix64>,
}

impl<'a> Walk<'a> {
    fn new(grid: &Grid, layout: &Layout, rng: Option<&'a mut SplitMix64>) -> Walk<'a> {
        Walk {
            scan: Scan::new(layout),
            cells: *grid.cells(),
            rng,
        }
    }

    /// Goes on after `cell` is filled: to the next cell, or, after the last, to the report of
    /// the complete grid.
    fn next<O: Observer>(
        &mut self,
        cell: usize,
        search: &mut Search<'_, O>,
        step: fn(&mut Self, usize, &mut Search<'_, O>) -> Result<(), Stop>,
    ) -> Result<(), Stop> {
        if cell + 1 == CELLS {
            search.solution(|| Grid::from_cells_trusted(self.cells))
        } else {
            step(self, cell + 1, search)
        }
    }

    /// `naive`: the call for `cell`, at `depth = cell + 1`.
    fn naive<O: Observer>(&mut self, cell: usize, search: &mut Search<'_, O>) -> Result<(), Stop> {
        let depth = cell as u64 + 1;
        search.enter(depth)?;
        if self.cells[cell] != 0 {
            return self.next(cell, search, Self::naive);
        }
        let mut any = false;
        for d in 1..=9 {
            if !self.scan.fits(&self.cells, cell, d) {
                continue;
            }
            any = true;
            search.guess(cell, d, depth + 1);
            self.cells[cell] = d;
            self.next(cell, search, Self::naive)?;
            self.cells[cell] = 0;
            search.backtrack(cell, d, depth + 1);
        }
        if O::ACTIVE && !any {
            search.observer.event(&Event::Contradiction);
        }
        Ok(())
    }

    /// `candidates` and `random`: the call for `cell`, at `depth = cell + 1`.
    fn candidates<O: Observer>(
        &mut self,
        cell: usize,
        search: &mut Search<'_, O>,
    ) -> Result<(), Stop> {
        let depth = cell as u64 + 1;
        search.enter(depth)?;
        if self.cells[cell] != 0 {
            return self.next(cell, search, Self::candidates);
        }
        let mask = self.scan.candidates(&self.cells, cell);
        let mut list = [0u8; 9];
        let mut n = 0;
        for d in 1..=9u8 {
            if mask & (1 << d) != 0 {
                list[n] = d;
                n += 1;
            }
        }
        match n {
            0 => {
                if O::ACTIVE {
                    search.observer.event(&Event::Contradiction);
                }
            }
            1 => {
                let d = list[0];
                search.naked_single(cell, d);
                self.cells[cell] = d;
                self.next(cell, search, Self::candidates)?;
                self.cells[cell] = 0;
            }
            _ => {
                if let Some(rng) = self.rng.as_deref_mut() {
                    rng.shuffle(&mut list[..n]);
                }
                for &d in &list[..n] {
                    search.guess(cell, d, depth + 1);
                    self.cells[cell] = d;
                    self.next(cell, search, Self::candidates)?;
                    self.cells[cell] = 0;
                    search.backtrack(cell, d, depth + 1);
                }
            }
        }
        Ok(())
    }
}

/// Runs `naive` on `grid`, whose givens are known not to conflict.
pub(crate) fn naive<O: Observer>(grid: &Grid, layout: &Layout, search: &mut Search<'_, O>) {
    // A stop is recorded in `search.stop`; nothing else to do with it here.
    let _ = Walk::new(grid, layout, None).naive(0, search);
}

/// Runs `candidates` on `grid` (givens known not to conflict), or `random` when `rng` is given.
pub(crate) fn candidates<O: Observer>(
    grid: &Grid,
    layout: &Layout,
    rng: Option<&mut SplitMix64>,
    search: &mut Search<'_, O>,
) {
    let _ = Walk::new(grid, layout, rng).candidates(0, search);
}
