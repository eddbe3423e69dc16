//! The layout-generic singles propagation that `logic` runs: naked and hidden singles to their
//! fixpoint, no guess. It knows units only as lists of cells taken from the [`Layout`], so
//! free-form regions cost nothing special. (`fast` on a jigsaw layout uses its own engine,
//! `jigsaw.rs`, which adds locked candidates and branching.)
//!
//! # State
//! One 9-bit candidate mask per cell (bit `d - 1` for digit `d`), the placed value of each cell
//! (0 = blank), and per unit the mask of digits already placed in it. Units are numbered
//!
//! ```text
//!  unit  0 ..  8   rows 1..9         (cells r*9 .. r*9+8)
//!  unit  9 .. 17   columns 1..9      (cells c, c+9, .. c+72)
//!  unit 18 .. 26   regions, in the layout's order (the boxes 1..9 for the standard layout)
//! ```
//!
//! and every cell knows its three units and its peers (the other cells of those units, at most
//! 8 + 8 + 8 of them when a region shares nothing else with the cell's row and column).
//! Placing a digit removes it from the candidates of every blank peer.
//!
//! # Propagation order, and how placements are counted
//! Until nothing changes:
//! 1. every blank cell, in reading order, with one candidate left is placed: a **naked
//!    single**; the pass repeats while it places anything;
//! 2. then every unit in the order above, and in each every digit in increasing order that is
//!    not yet placed in it and has exactly one cell left there, places it: a **hidden single**
//!    in that row, column or region; if this step placed anything, propagation returns to 1.
//!
//! A cell that both rules could place is counted under the rule that placed it first in this
//! order. A contradiction is a blank cell with no candidate, or a unit where a digit that is
//! not placed has no cell left.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::{Observer, Search};
use crate::grid::{CELLS, Grid};
use crate::layout::{Layout, UnitName};

/// All nine digits as a candidate mask.
const ALL: u16 = 0x1FF;

/// The 27 units of a layout, the units of each cell and the peers of each cell.
#[derive(Clone)]
pub(crate) struct Units {
    /// Cells of each unit, in reading order (see the module page for the numbering).
    cells: [[u8; 9]; 27],
    /// The row, column and region unit of each cell.
    of_cell: [[u8; 3]; CELLS],
    /// Other cells sharing a unit with each cell; the first `peer_count[i]` are used.
    peers: [[u8; 24]; CELLS],
    /// How many peers each cell has (20 for every cell of the standard layout).
    peer_count: [u8; CELLS],
    /// How each unit is named in traces.
    names: [UnitName; 27],
}

impl Units {
    /// The units of `layout`.
    pub fn new(layout: &Layout) -> Units {
        let cells: [[u8; 9]; 27] = std::array::from_fn(|u| match u {
            0..9 => std::array::from_fn(|j| (u * 9 + j) as u8),
            9..18 => std::array::from_fn(|j| (j * 9 + u - 9) as u8),
            _ => layout.cells_of(u - 18).map(|i| i as u8),
        });
        let names: [UnitName; 27] = std::array::from_fn(|u| match u {
            0..9 => UnitName::Row(u as u8 + 1),
            9..18 => UnitName::Column((u - 9) as u8 + 1),
            _ => layout.region_name(u - 18),
        });
        let mut of_cell = [[0u8; 3]; CELLS];
        for (i, units) in of_cell.iter_mut().enumerate() {
            *units = [
                (i / 9) as u8,
                (9 + i % 9) as u8,
                (18 + layout.region_of(i)) as u8,
            ];
        }
        let mut peers = [[0u8; 24]; CELLS];
        let mut peer_count = [0u8; CELLS];
        for i in 0..CELLS {
            let mut seen = [false; CELLS];
            seen[i] = true;
            for &u in &of_cell[i] {
                for &j in &cells[u as usize] {
                    if !seen[j as usize] {
                        seen[j as usize] = true;
                        peers[i][peer_count[i] as usize] = j;
                        peer_count[i] += 1;
                    }
                }
            }
        }
        Units {
            cells,
            of_cell,
            peers,
            peer_count,
            names,
        }
    }

    /// The units of `layout`, built once for the standard layout and kept (building them costs
    /// about as much as propagating an easy puzzle).
    pub fn of(layout: &Layout) -> Cow<'static, Units> {
        static STANDARD: OnceLock<Units> = OnceLock::new();
        if layout.is_standard() {
            Cow::Borrowed(STANDARD.get_or_init(|| Units::new(&Layout::standard())))
        } else {
            Cow::Owned(Units::new(layout))
        }
    }

    /// The cells of unit `u`.
    #[inline]
    pub fn cells(&self, u: usize) -> &[u8; 9] {
        &self.cells[u]
    }

    /// The row, column and region unit of cell `i`.
    #[inline]
    pub fn of_cell(&self, i: usize) -> &[u8; 3] {
        &self.of_cell[i]
    }

    /// The peers of cell `i`.
    #[inline]
    pub fn peers(&self, i: usize) -> &[u8] {
        &self.peers[i][..self.peer_count[i] as usize]
    }

    /// How unit `u` is named in traces.
    #[inline]
    pub fn name(&self, u: usize) -> UnitName {
        self.names[u]
    }
}

/// Propagation found that the board has no solution.
#[derive(Debug)]
pub(crate) struct Contradiction;

/// The search state: candidates, placed values and placed digits per unit.
#[derive(Clone, Copy)]
pub(crate) struct Board {
    /// Candidates of each blank cell; for a placed cell, the bit of its digit.
    cand: [u16; CELLS],
    /// Placed digit of each cell, 0 for blank.
    value: [u8; CELLS],
    /// Digits placed in each unit.
    placed: [u16; 27],
    /// Blank cells left.
    blanks: u8,
}

impl Board {
    /// The board with the givens of `grid` placed and nothing propagated (givens are known not
    /// to conflict).
    pub fn new(grid: &Grid, units: &Units) -> Board {
        let mut board = Board {
            cand: [ALL; CELLS],
            value: [0; CELLS],
            placed: [0; 27],
            blanks: CELLS as u8,
        };
        for (i, &v) in grid.cells().iter().enumerate() {
            if v != 0 {
                board.place(i, v, units);
            }
        }
        board
    }

    /// Places digit `d` in blank cell `i` and removes it from the blank peers.
    #[inline]
    fn place(&mut self, i: usize, d: u8, units: &Units) {
        debug_assert!(self.value[i] == 0 && (1..=9).contains(&d));
        let bit = 1u16 << (d - 1);
        self.value[i] = d;
        self.cand[i] = bit;
        self.blanks -= 1;
        for &u in units.of_cell(i) {
            self.placed[u as usize] |= bit;
        }
        for &p in units.peers(i) {
            if self.value[p as usize] == 0 {
                self.cand[p as usize] &= !bit;
            }
        }
    }

    /// Whether every cell holds a digit.
    #[inline]
    pub fn is_solved(&self) -> bool {
        self.blanks == 0
    }

    /// The grid of placed cells.
    pub fn grid(&self) -> Grid {
        Grid::from_cells_trusted(self.value)
    }

    /// Step 1 of the module page, once over the grid: places every blank cell with one
    /// candidate. Returns how many were placed, or the contradiction of a cell with none.
    fn naked_singles<O: Observer>(
        &mut self,
        units: &Units,
        search: &mut Search<'_, O>,
    ) -> Result<u32, Contradiction> {
        let mut placed = 0;
        for i in 0..CELLS {
            if self.value[i] != 0 {
                continue;
            }
            let c = self.cand[i];
            if c == 0 {
                return Err(Contradiction);
            }
            if c & (c - 1) == 0 {
                let d = c.trailing_zeros() as u8 + 1;
                search.naked_single(i, d);
                self.place(i, d, units);
                placed += 1;
            }
        }
        Ok(placed)
    }

    /// Step 2 of the module page: hidden singles in every unit. Returns how many were placed,
    /// or the contradiction of a digit with no cell left in a unit.
    fn hidden_singles<O: Observer>(
        &mut self,
        units: &Units,
        search: &mut Search<'_, O>,
    ) -> Result<u32, Contradiction> {
        let mut placed = 0;
        for u in 0..27 {
            // Digits seen in at least one / at least two blank cells of the unit.
            let (mut once, mut twice) = (0u16, 0u16);
            for &i in units.cells(u) {
                if self.value[i as usize] == 0 {
                    let c = self.cand[i as usize];
                    twice |= once & c;
                    once |= c;
                }
            }
            let done = self.placed[u];
            if (once | done) != ALL {
                return Err(Contradiction);
            }
            let mut singles = once & !twice & !done;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles &= singles - 1;
                let d = bit.trailing_zeros() as u8 + 1;
                // Placing an earlier digit of this unit may have taken this digit's only cell.
                let i = units
                    .cells(u)
                    .iter()
                    .map(|&i| i as usize)
                    .find(|&i| self.value[i] == 0 && self.cand[i] & bit != 0)
                    .ok_or(Contradiction)?;
                search.hidden_single(i, d, || units.name(u));
                self.place(i, d, units);
                placed += 1;
            }
        }
        Ok(placed)
    }

    /// Propagates naked and hidden singles to their fixpoint (the module page's order).
    pub fn propagate<O: Observer>(
        &mut self,
        units: &Units,
        search: &mut Search<'_, O>,
    ) -> Result<(), Contradiction> {
        loop {
            while self.naked_singles(units, search)? != 0 {}
            if self.is_solved() || self.hidden_singles(units, search)? == 0 {
                return Ok(());
            }
        }
    }
}
