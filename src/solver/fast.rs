//! The `fast` engine for the standard layout: per-digit band bitboards, singles and locked
//! candidates propagated to a fixpoint, a guess on a cell with fewest candidates.
//!
//! # Bit layout
//! The grid is cut into three bands of three rows. For every digit `d` (0-based) and band `b`
//! one `u32` holds the 27 cells of that band where `d` may still go:
//!
//! ```text
//!  bit:  26 ........ 18 | 17 ......... 9 | 8 .......... 0
//!        row 2 of band  | row 1 of band  | row 0 of band     (each row: column 8 .. column 0)
//!  cand[d * 3 + b]      cell index = b * 27 + bit
//! ```
//!
//! Inside one band, a digit must sit exactly once in each of the three rows and once in each of
//! the three boxes: its positions form one of the six row-to-box permutations. For each row we
//! look up in which boxes the digit can still be (3 bits a row, 9 bits a band), and one table
//! lookup turns those 9 bits into the cells that belong to at least one permutation still
//! possible. That single step performs box/row locked candidates (pointing and claiming) and
//! hidden singles in boxes; a row left with one cell is a hidden single in that row.
//!
//! # Propagation order, and how placements are counted
//! At each call of the search procedure:
//! 1. every digit-band whose candidates changed is updated as above until none changes; each
//!    row left with one unsolved cell places it (a **hidden single**, in that row);
//! 2. when that is quiet, every unsolved cell with one candidate left is placed (a **naked
//!    single**), and propagation returns to step 1;
//! 3. when both are quiet, every digit with one cell left in a column places it (a **hidden
//!    single**, in that column), and propagation returns to step 1.
//!
//! A cell that two rules could place is counted under the rule that placed it first in this
//! order. A contradiction is a digit-band with no permutation left (which covers a row or a box
//! where a digit has no place), a cell with no candidate, or a column where a digit has no place.
//!
//! # Branching
//! When propagation is quiet, the search branches on the first unsolved cell (reading order)
//! with two candidates, or, when there is none, on the first cell with the fewest. Each
//! candidate, in increasing order, is a guess that enters the search procedure once more, on a
//! copy of the 120-byte board (copying is cheaper than undoing).

use super::{Event, Observer, Rule, Search, Stop};
use crate::grid::Grid;
use crate::layout::UnitName;

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// The cells of each row of a band.
const ROW_BITS: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];

/// For a row's 9 bits: bits 0-2, the boxes the row has a cell in; bit 3, exactly one cell.
static ROW_INFO: [u8; 512] = row_info();

/// For the 9 row-box presence bits of a digit-band (bit `row * 3 + box`): the cells that fit at
/// least one of the six row-to-box permutations still possible, or 0 when none is.
static PERMUTATION_CELLS: [u32; 512] = permutation_cells();

/// For 3 bits saying which rows are singles: the cells of those rows.
const SINGLE_ROWS: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut s = 0;
    while s < 8 {
        let mut r = 0;
        while r < 3 {
            if s & (1 << r) != 0 {
                t[s] |= ROW_BITS[r];
            }
            r += 1;
        }
        s += 1;
    }
    t
};

/// For each position `0..27` in a band: the cells of the same column in the band.
const COLUMN_BITS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let c = p % 9;
        t[p] = (1 << c) | (1 << (c + 9)) | (1 << (c + 18));
        p += 1;
    }
    t
};

/// For each position `0..27` in a band: the cells a digit placed there keeps in its own
/// digit-band (everything outside its row and box, plus itself).
const KEEP_IN_BAND: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, k) = (p / 9, (p % 9) / 3);
        let boxed = (0x7 << (3 * k)) * (1 | (1 << 9) | (1 << 18));
        t[p] = (BAND & !(ROW_BITS[r] | boxed)) | (1 << p);
        p += 1;
    }
    t
};

const fn row_info() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        let mut info = 0u8;
        let mut k = 0;
        while k < 3 {
            if v & (0x7 << (3 * k)) != 0 {
                info |= 1 << k;
            }
            k += 1;
        }
        if (v as u32).count_ones() == 1 {
            info |= 1 << 3;
        }
        t[v] = info;
        v += 1;
    }
    t
}

const fn permutation_cells() -> [u32; 512] {
    // The six permutations, as the box each of rows 0, 1, 2 goes to.
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut p = 0;
    while p < 512 {
        let mut cells = 0u32;
        let mut i = 0;
        while i < 6 {
            let perm = PERMUTATIONS[i];
            let fits = (p & (1 << perm[0])) != 0
                && (p & (1 << (3 + perm[1]))) != 0
                && (p & (1 << (6 + perm[2]))) != 0;
            if fits {
                let mut r = 0;
                while r < 3 {
                    cells |= 0x7 << (9 * r + 3 * perm[r]);
                    r += 1;
                }
            }
            i += 1;
        }
        t[p] = cells;
        p += 1;
    }
    t
}

/// The search state: what is still possible, and what is solved.
#[derive(Clone, Copy)]
struct Board {
    /// `cand[d * 3 + b]`: cells of band `b` where digit `d` may go (see the module page).
    cand: [u32; 27],
    /// Cells of each band not yet placed.
    unsolved: [u32; 3],
    /// Digit-bands (bit `d * 3 + b`) whose candidates changed since they were last updated.
    dirty: u32,
}

/// Propagation found that the board has no solution.
struct Contradiction;

impl Board {
    /// Every digit possible everywhere, nothing placed.
    fn new() -> Board {
        Board {
            cand: [BAND; 27],
            unsolved: [BAND; 3],
            dirty: 0,
        }
    }

    /// Places digit `d` (0-based) in band `b` at the single bit `bit`: removes the digit from
    /// the cell's row, box and column, and every other digit from the cell.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, bit: u32) {
        let pos = bit.trailing_zeros() as usize;
        debug_assert!(pos < 27 && self.unsolved[b] & bit != 0);
        self.unsolved[b] &= !bit;
        let own = d * 3 + b;
        self.cand[own] &= KEEP_IN_BAND[pos];
        self.dirty |= 1 << own;
        // The column in the two other bands.
        let column = COLUMN_BITS[pos];
        for other in [(b + 1) % 3, (b + 2) % 3] {
            let i = d * 3 + other;
            let before = self.cand[i];
            self.cand[i] = before & !column;
            self.dirty |= ((before & column != 0) as u32) << i;
        }
        // The cell, for the eight other digits.
        let mut i = b;
        while i < 27 {
            if i != own {
                let before = self.cand[i];
                self.cand[i] = before & !bit;
                self.dirty |= ((before & bit != 0) as u32) << i;
            }
            i += 3;
        }
    }

    /// Updates every dirty digit-band until none is dirty (step 1 of the module page).
    #[inline(always)]
    fn settle_bands<O: Observer>(
        &mut self,
        search: &mut Search<'_, O>,
    ) -> Result<(), Contradiction> {
        while self.dirty != 0 {
            let i = self.dirty.trailing_zeros() as usize;
            self.dirty &= self.dirty - 1;
            let (d, b) = (i / 3, i % 3);
            let x = self.cand[i];
            let presence = (ROW_INFO[(x & 0x1FF) as usize] & 7) as usize
                | ((ROW_INFO[((x >> 9) & 0x1FF) as usize] & 7) as usize) << 3
                | ((ROW_INFO[(x >> 18) as usize] & 7) as usize) << 6;
            let y = x & PERMUTATION_CELLS[presence];
            if y == 0 {
                return Err(Contradiction);
            }
            self.cand[i] = y;
            let singles = ((ROW_INFO[(y & 0x1FF) as usize] >> 3) & 1)
                | ((ROW_INFO[((y >> 9) & 0x1FF) as usize] >> 3) & 1) << 1
                | ((ROW_INFO[(y >> 18) as usize] >> 3) & 1) << 2;
            let mut new = y & SINGLE_ROWS[singles as usize] & self.unsolved[b];
            while new != 0 {
                let bit = new & new.wrapping_neg();
                new &= new - 1;
                search.stats.hidden_singles += 1;
                if O::ACTIVE {
                    let pos = bit.trailing_zeros() as usize;
                    search.observer.event(&Event::Placed {
                        cell: b * 27 + pos,
                        digit: d as u8 + 1,
                        rule: Rule::HiddenSingle(UnitName::Row((b * 3 + pos / 9) as u8 + 1)),
                    });
                }
                self.place(d, b, bit);
            }
        }
        Ok(())
    }

    /// Places every unsolved cell that has one candidate left (step 2). Returns how many were
    /// placed, or the contradiction of a cell with none.
    #[inline(always)]
    fn naked_singles<O: Observer>(
        &mut self,
        search: &mut Search<'_, O>,
    ) -> Result<u32, Contradiction> {
        let mut placed = 0;
        for b in 0..3 {
            let (any, two) = self.counts(b);
            if self.unsolved[b] & !any != 0 {
                return Err(Contradiction);
            }
            let mut singles = self.unsolved[b] & !two;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles &= singles - 1;
                // An earlier placement of this pass may have taken the last candidate.
                let d = (0..9)
                    .find(|&d| self.cand[d * 3 + b] & bit != 0)
                    .ok_or(Contradiction)?;
                search.stats.naked_singles += 1;
                if O::ACTIVE {
                    search.observer.event(&Event::Placed {
                        cell: b * 27 + bit.trailing_zeros() as usize,
                        digit: d as u8 + 1,
                        rule: Rule::NakedSingle,
                    });
                }
                self.place(d, b, bit);
                placed += 1;
            }
        }
        Ok(placed)
    }

    /// For band `b`: cells with at least one candidate, and cells with at least two.
    #[inline(always)]
    fn counts(&self, b: usize) -> (u32, u32) {
        let (mut any, mut two) = (0, 0);
        for d in 0..9 {
            let x = self.cand[d * 3 + b];
            two |= any & x;
            any |= x;
        }
        (any, two)
    }

    /// Places every digit that has one cell left in a column (step 3). Returns how many were
    /// placed, or the contradiction of a column where a digit has no cell.
    #[inline(never)]
    #[allow(clippy::needless_range_loop)] // `b` indexes three parallel per-band arrays
    fn column_singles<O: Observer>(
        &mut self,
        search: &mut Search<'_, O>,
    ) -> Result<u32, Contradiction> {
        let mut placed = 0;
        for d in 0..9 {
            // Per band: the columns holding the digit at all, and holding it in one row only.
            let mut any = [0u32; 3];
            let mut one = [0u32; 3];
            for b in 0..3 {
                let x = self.cand[d * 3 + b];
                let (r0, r1, r2) = (x & 0x1FF, (x >> 9) & 0x1FF, x >> 18);
                any[b] = r0 | r1 | r2;
                one[b] = (r0 ^ r1 ^ r2) & !((r0 & r1) | (r1 & r2) | (r0 & r2));
            }
            let [a0, a1, a2] = any;
            if (a0 | a1 | a2) != 0x1FF {
                return Err(Contradiction);
            }
            let one_band = (a0 ^ a1 ^ a2) & !((a0 & a1) | (a1 & a2) | (a0 & a2));
            for b in 0..3 {
                let columns = one[b] & one_band;
                if columns == 0 {
                    continue;
                }
                let spread = columns | (columns << 9) | (columns << 18);
                let mut new = self.cand[d * 3 + b] & spread & self.unsolved[b];
                while new != 0 {
                    let bit = new & new.wrapping_neg();
                    new &= new - 1;
                    // Placing an earlier cell may have removed this one (same cell, other digit).
                    if self.cand[d * 3 + b] & bit == 0 || self.unsolved[b] & bit == 0 {
                        return Err(Contradiction);
                    }
                    search.stats.hidden_singles += 1;
                    if O::ACTIVE {
                        let pos = bit.trailing_zeros() as usize;
                        search.observer.event(&Event::Placed {
                            cell: b * 27 + pos,
                            digit: d as u8 + 1,
                            rule: Rule::HiddenSingle(UnitName::Column((pos % 9) as u8 + 1)),
                        });
                    }
                    self.place(d, b, bit);
                    placed += 1;
                }
            }
        }
        Ok(placed)
    }

    /// Propagates to the fixpoint of the three steps.
    #[inline(always)]
    fn propagate<O: Observer>(&mut self, search: &mut Search<'_, O>) -> Result<(), Contradiction> {
        loop {
            self.settle_bands(search)?;
            if self.is_solved() {
                return Ok(());
            }
            if self.naked_singles(search)? != 0 {
                continue;
            }
            if self.column_singles(search)? == 0 {
                return Ok(());
            }
        }
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        (self.unsolved[0] | self.unsolved[1] | self.unsolved[2]) == 0
    }

    /// The cell to branch on: (band, bit) of the first cell with two candidates, else of the
    /// first with the fewest.
    #[inline(always)]
    fn branch_cell(&self) -> (usize, u32) {
        for b in 0..3 {
            let (mut any, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[d * 3 + b];
                three |= two & x;
                two |= any & x;
                any |= x;
            }
            let pairs = self.unsolved[b] & two & !three;
            if pairs != 0 {
                return (b, pairs & pairs.wrapping_neg());
            }
        }
        self.fewest_candidates()
    }

    #[inline(never)]
    fn fewest_candidates(&self) -> (usize, u32) {
        let mut best = (0, 0, u32::MAX);
        for b in 0..3 {
            let mut cells = self.unsolved[b];
            while cells != 0 {
                let bit = cells & cells.wrapping_neg();
                cells &= cells - 1;
                let n = (0..9).filter(|&d| self.cand[d * 3 + b] & bit != 0).count() as u32;
                if n < best.2 {
                    best = (b, bit, n);
                }
            }
        }
        (best.0, best.1)
    }

    /// The grid of placed cells.
    fn placed_grid(&self) -> Grid {
        let mut cells = [0u8; 81];
        for b in 0..3 {
            let solved = BAND & !self.unsolved[b];
            for d in 0..9 {
                let mut x = self.cand[d * 3 + b] & solved;
                while x != 0 {
                    cells[b * 27 + x.trailing_zeros() as usize] = d as u8 + 1;
                    x &= x - 1;
                }
            }
        }
        Grid::from_cells(cells)
    }
}

/// Runs the `fast` engine on `grid`, whose givens are known not to conflict.
pub(crate) fn search<O: Observer>(grid: &Grid, search: &mut Search<'_, O>) {
    let mut board = Board::new();
    for (i, &v) in grid.cells().iter().enumerate() {
        if v != 0 {
            board.place(v as usize - 1, i / 27, 1 << (i % 27));
        }
    }
    // A stop is recorded in `search.stop`; nothing else to do with it here.
    let _ = node(&mut board, 1, search);
}

/// One entry of the search procedure at `depth`: propagate, then report or branch.
fn node<O: Observer>(
    board: &mut Board,
    depth: u64,
    search: &mut Search<'_, O>,
) -> Result<(), Stop> {
    search.enter(depth)?;
    let propagated = board.propagate(search);
    if O::ACTIVE {
        search.observer.event(&Event::Board(&board.placed_grid()));
    }
    if propagated.is_err() {
        if O::ACTIVE {
            search.observer.event(&Event::Contradiction);
        }
        return Ok(());
    }
    if board.is_solved() {
        return search.solution(&board.placed_grid());
    }
    let (b, bit) = board.branch_cell();
    let cell = b * 27 + bit.trailing_zeros() as usize;
    let mut digits: u32 = 0;
    for d in 0..9 {
        digits |= (((board.cand[d * 3 + b] & bit) != 0) as u32) << d;
    }
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
            board.place(d, b, bit);
            node(board, depth + 1, search)?;
        } else {
            let mut child = *board;
            child.place(d, b, bit);
            node(&mut child, depth + 1, search)?;
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
