//! The board of the `fast` engine and its propagation: the candidate bitboards, placing a
//! digit, the three propagation steps to a fixpoint, and the choice of the cell to branch on.
//! The [engine's page](super) draws the bit layout and defines the steps and their counters.

// Bands, digits and rows index parallel arrays; index loops say that most plainly.
#![allow(clippy::needless_range_loop)]
#![forbid(unsafe_code)]

use super::GivensConflict;
use super::isa::{Isa, Swept, lane};
use super::tables::{
    BAND, COLUMN_CELLS, GIVEN_ROWS_AND_BOXES, KEEP_IN_BAND, OTHER_BANDS, PERMUTATIONS, POINTING,
    fold_columns, spread_columns, unsolved_peers,
};
use crate::grid::{CELLS, Grid};
use crate::layout::UnitName;
use crate::solver::{Event, Observer, Rule, Search};

/// The search state: what is still possible, and what is solved. 128 bytes, 64-byte aligned:
/// the copy on a guess is two whole lines.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct Board {
    /// `cand[b * 9 + d]`: cells of band `b` where digit `d` may go (see the module page).
    cand: [u32; 27],
    /// Cells of each band not yet placed.
    unsolved: [u32; 3],
    /// The stale digit-bands: bit `i` set when `cand[i]` lost a cell since its last update.
    stale: u32,
}

/// Stale digit-bands, at least, for a sweep to be done in vectors where the instruction set
/// can ([`Isa::sweep`]): below about this many the loop is faster (measured: 6 and 8 slower
/// than the loop on easy sets, 12-18 the fastest, 27 alone, the root's first sweep, less on serg).
const VECTOR_SWEEP: u32 = 18;

/// Propagation found that the board has no solution.
pub(super) struct Contradiction;

/// What a quiet board offers to branch on.
pub(super) struct Quiet {
    /// Per band, the unsolved cells with exactly two candidates.
    pairs: [u32; 3],
}

impl Board {
    /// Every digit possible everywhere, nothing placed.
    fn new() -> Board {
        let cand = [BAND; 27];
        Board {
            cand,
            unsolved: [BAND, BAND, BAND],
            stale: 0,
        }
    }

    /// Keeps only `keep` of digit-band `i`; returns bit `i` if it lost a cell.
    #[inline(always)]
    fn narrow(&mut self, i: usize, keep: u32) -> u32 {
        let x = self.cand[i];
        self.cand[i] = x & keep;
        u32::from(x & !keep != 0) << i
    }

    /// Places the hidden singles one sweep found: `found[i]`, the cells digit-band `i` placed
    /// (each digit-band is updated once a sweep, so each lane names its own). Every other digit
    /// loses those cells; the placing digits already lost their rows and boxes (the permutation
    /// step) and their columns in the other bands (pointing). Returns the digit-bands that lost
    /// a cell, or the contradiction of a digit that lost a cell it was placed in.
    #[inline(always)]
    fn place_found<I: Isa>(
        &mut self,
        isa: I,
        found: &[u32; 27],
        cells: [u32; 3],
    ) -> Result<u32, Contradiction> {
        let mut lost = 0;
        for b in 0..3 {
            if cells[b] == 0 {
                continue;
            }
            self.unsolved[b] &= !cells[b];
            // The lanes were written earlier in the sweep (see the module page on reading them).
            let digits = isa
                .remove_found(&mut self.cand, found, b, cells[b])
                .ok_or(Contradiction)?;
            lost |= digits << (b * 9);
        }
        Ok(lost)
    }

    /// Places digit `d` (0-based) in band `b` at the single bit `bit`: removes the digit from
    /// the cell's row, box and column, and every other digit from the cell.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, bit: u32) {
        let others = self.candidates_of(b, bit) & !(1 << d);
        self.place_among(d, b, bit, others);
    }

    /// [`Board::place`] for a cell whose other candidates are known: the digits `others`
    /// (bit `d`), whose digit-bands have already lost the cell or lose it here.
    #[inline(always)]
    pub(super) fn place_among(&mut self, d: usize, b: usize, bit: u32, others: u32) {
        let pos = bit.trailing_zeros() as usize;
        let i = b * 9 + d;
        debug_assert!(pos < 27 && self.cand[i] & bit != 0 && others & (1 << d) == 0);
        self.unsolved[b] &= !bit;
        let mut rest = others;
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            self.cand[b * 9 + e] &= !bit;
        }
        self.cand[i] &= KEEP_IN_BAND[pos];
        let mut lost = (others << (b * 9)) | (1 << i);
        let column = COLUMN_CELLS[pos];
        for j in OTHER_BANDS[i] {
            lost |= self.narrow(j, !column);
        }
        self.stale |= lost;
    }

    /// A copy of the board with digit `d` placed as in [`Board::place_among`]. The lanes that
    /// change are computed from this board, not read back from the copy just stored.
    #[inline(always)]
    pub(super) fn child(&self, d: usize, b: usize, bit: u32, others: u32) -> Board {
        let pos = bit.trailing_zeros() as usize;
        let i = b * 9 + d;
        debug_assert!(pos < 27 && self.cand[i] & bit != 0 && others & (1 << d) == 0);
        let mut child = *self;
        child.unsolved[b] = self.unsolved[b] & !bit;
        let mut rest = others;
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            child.cand[b * 9 + e] = self.cand[b * 9 + e] & !bit;
        }
        child.cand[i] = self.cand[i] & KEEP_IN_BAND[pos];
        let mut lost = (others << (b * 9)) | (1 << i);
        let column = COLUMN_CELLS[pos];
        for j in OTHER_BANDS[i] {
            let x = self.cand[j];
            child.cand[j] = x & !column;
            lost |= u32::from(x & column != 0) << j;
        }
        child.stale = self.stale | lost;
        child
    }

    /// Updates digit-band `i` (step 1 of the module page): the permutation step, pointing
    /// into the other bands, and the hidden singles of rows left with one cell, which are
    /// returned, to be counted by the sweep and placed at its end. Returns the other
    /// digit-bands that lost a cell, and those cells.
    #[inline(always)]
    fn update<I: Isa, O: Observer>(
        &mut self,
        isa: I,
        i: usize,
        search: &mut Search<'_, O>,
    ) -> Result<(u32, u32), Contradiction> {
        let (b, d) = (i / 9, i % 9);
        let x = self.cand[i];
        let permutations = PERMUTATIONS[isa.presence(x) & 0x1FF];
        let y = x & permutations as u32;
        if y == 0 {
            return Err(Contradiction);
        }
        self.cand[i] = y;
        let pointing = POINTING[fold_columns(y) as usize];
        let mut lost = 0;
        for j in OTHER_BANDS[i] {
            lost |= self.narrow(j, pointing as u32);
        }
        // A row left alone in one box whose candidates lie in one column holds one cell.
        let single_rows = ((permutations & pointing) >> 32) as u32;
        let new = y & single_rows & self.unsolved[b];
        if O::ACTIVE {
            let mut bits = new;
            while bits != 0 {
                let pos = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                search.observer.event(&Event::Placed {
                    cell: b * 27 + pos,
                    digit: d as u8 + 1,
                    rule: Rule::HiddenSingle(UnitName::Row((b * 3 + pos / 9) as u8 + 1)),
                });
            }
        }
        Ok((lost, new))
    }

    /// Updates stale digit-bands until none is stale.
    #[inline(always)]
    fn settle_bands<I: Isa, O: Observer>(
        &mut self,
        isa: I,
        search: &mut Search<'_, O>,
    ) -> Result<(), Contradiction> {
        // The digit-bands for the next sweep: those that lost a cell since their update.
        let mut next = self.stale;
        self.stale = 0;
        while next != 0 {
            let mut sweep = next;
            // A trace reports each hidden single as its update finds it: only the loop does.
            if !O::ACTIVE && sweep.count_ones() >= VECTOR_SWEEP {
                match isa.sweep(&mut self.cand, &mut self.unsolved, sweep) {
                    Some(Swept::Done {
                        singles,
                        next: stale,
                    }) => {
                        search.stats.hidden_singles += singles;
                        next = stale;
                        continue;
                    }
                    Some(Swept::Contradiction { singles }) => {
                        search.stats.hidden_singles += singles;
                        return Err(Contradiction);
                    }
                    None => {}
                }
            }
            next = 0;
            // The hidden singles of this sweep, per digit-band and per band. Placing them at
            // the end of the sweep keeps the unpredictable "found one?" branch out of the loop.
            let mut found = [0u32; 27];
            let mut cells = [0u32; 3];
            let mut clash = 0u32;
            // With a one-instruction count, counted as found (a register, not a store a row);
            // else from the cells at the end (see below).
            let mut singles = 0;
            while sweep != 0 {
                let i = sweep.trailing_zeros() as usize;
                sweep &= sweep - 1;
                next &= !(1 << i);
                let (lost, new) = match self.update::<I, O>(isa, i, search) {
                    Ok(update) => update,
                    Err(contradiction) => {
                        search.stats.hidden_singles += if I::ONE_INSTRUCTION_COUNT {
                            singles
                        } else {
                            found_count(&found)
                        };
                        return Err(contradiction);
                    }
                };
                if I::ONE_INSTRUCTION_COUNT {
                    singles += u64::from(new.count_ones());
                }
                next |= lost;
                found[i] = new;
                // Two digits found for one cell.
                clash |= cells[i / 9] & new;
                cells[i / 9] |= new;
            }
            if !I::ONE_INSTRUCTION_COUNT {
                singles = if clash == 0 {
                    // Each cell found once: three counts a sweep instead of one an update.
                    u64::from(cells[0].count_ones() + cells[1].count_ones() + cells[2].count_ones())
                } else {
                    found_count(&found)
                };
            }
            search.stats.hidden_singles += singles;
            if clash != 0 {
                return Err(Contradiction);
            }
            next |= self.place_found(isa, &found, cells)?;
        }
        Ok(())
    }

    /// Places every unsolved cell that has one candidate left (step 2). Returns how many were
    /// placed and, when none was, the cells with two candidates.
    #[inline(always)]
    fn naked_singles<I: Isa, O: Observer>(
        &mut self,
        isa: I,
        search: &mut Search<'_, O>,
    ) -> Result<(u32, Quiet), Contradiction> {
        let mut placed = 0;
        let mut pairs = [0u32; 3];
        // Placing a single changes only its own band, so the counts of all three bands can be
        // taken up front.
        let counts = isa.cell_counts(&self.cand);
        for (b, &[any, two, three]) in counts.iter().enumerate() {
            let unsolved = self.unsolved[b];
            if unsolved & !any != 0 {
                return Err(Contradiction);
            }
            pairs[b] = unsolved & two & !three;
            let mut singles = unsolved & !two;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles &= singles - 1;
                // An earlier placement of this pass may have taken the last candidate.
                let d = self.candidates_of(b, bit).trailing_zeros() as usize;
                if d == 32 {
                    return Err(Contradiction);
                }
                search.naked_single(b * 27 + bit.trailing_zeros() as usize, d as u8 + 1);
                self.place_among(d, b, bit, 0);
                placed += 1;
            }
        }
        Ok((placed, Quiet { pairs }))
    }

    /// Places every digit that has one cell left in a column (step 3). Returns how many were
    /// placed, or the contradiction of a column where a digit has no cell.
    #[inline(always)]
    fn column_singles<I: Isa, O: Observer>(
        &mut self,
        isa: I,
        search: &mut Search<'_, O>,
    ) -> Result<u32, Contradiction> {
        // For each digit and band, the columns holding the digit in exactly one row; of those,
        // the columns no other band holds; and whether some column has no place at all.
        let scan = isa.column_scan(&self.cand, &self.unsolved);
        if scan.empty {
            return Err(Contradiction);
        }
        if !scan.any_found {
            return Ok(0);
        }
        let found = scan.found;
        let mut placed = 0;
        for (b, digits) in found.iter().enumerate() {
            for (d, &cells) in digits.iter().enumerate() {
                let mut new = cells;
                while new != 0 {
                    let bit = new & new.wrapping_neg();
                    new &= new - 1;
                    // An earlier placement of this pass may have taken the cell or the digit.
                    if self.cand[b * 9 + d] & bit == 0 || self.unsolved[b] & bit == 0 {
                        return Err(Contradiction);
                    }
                    let pos = bit.trailing_zeros() as usize;
                    search.hidden_single(b * 27 + pos, d as u8 + 1, || {
                        UnitName::Column((pos % 9) as u8 + 1)
                    });
                    self.place(d, b, bit);
                    placed += 1;
                }
            }
        }
        Ok(placed)
    }

    /// Propagates to the fixpoint of the three steps; on a quiet unsolved board, returns what
    /// to branch on.
    #[inline(always)]
    pub(super) fn propagate<I: Isa, O: Observer>(
        &mut self,
        isa: I,
        search: &mut Search<'_, O>,
    ) -> Result<Option<Quiet>, Contradiction> {
        loop {
            self.settle_bands::<I, O>(isa, search)?;
            if self.is_solved() {
                return Ok(None);
            }
            let (placed, quiet) = self.naked_singles::<I, O>(isa, search)?;
            if placed != 0 {
                continue;
            }
            if self.column_singles::<I, O>(isa, search)? == 0 {
                return Ok(Some(quiet));
            }
        }
    }

    /// The digits (bit `d`) that may still go in cell `bit` of band `b`.
    #[inline(always)]
    pub(super) fn candidates_of(&self, b: usize, bit: u32) -> u32 {
        let mut digits = 0;
        for d in (0..9).rev() {
            digits = (digits << 1) | u32::from(lane(&self.cand, b * 9 + d) & bit != 0);
        }
        digits
    }

    /// The number of placed cells (on the givens' board, the givens).
    #[inline(always)]
    pub(super) fn placed_count(&self) -> u64 {
        let unsolved: u32 = self.unsolved.iter().map(|u| u.count_ones()).sum();
        CELLS as u64 - u64::from(unsolved)
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        (self.unsolved[0] | self.unsolved[1] | self.unsolved[2]) == 0
    }

    /// The cell to branch on, as (band, bit): among the cells with the fewest candidates (two,
    /// nearly always), the one with the most unsolved cells in its row, column and box, the
    /// first in reading order on a tie. Its guesses then reach the most of the grid.
    #[inline(always)]
    pub(super) fn branch_cell<I: Isa>(&self, isa: I, quiet: &Quiet) -> (usize, u32) {
        isa.best_pair(&quiet.pairs, &self.unsolved)
            .unwrap_or_else(|| self.fewest_candidates())
    }

    /// When no cell has two candidates: the cell with the fewest, ties broken as above.
    #[inline(never)]
    fn fewest_candidates(&self) -> (usize, u32) {
        let mut best = (0, 0, u32::MAX, 0);
        for b in 0..3 {
            let mut cells = self.unsolved[b];
            while cells != 0 {
                let bit = cells & cells.wrapping_neg();
                cells &= cells - 1;
                let n = self.candidates_of(b, bit).count_ones();
                let reach = unsolved_peers(&self.unsolved, b, bit.trailing_zeros() as usize);
                if n < best.2 || (n == best.2 && reach > best.3) {
                    best = (b, bit, n, reach);
                }
            }
        }
        (best.0, best.1)
    }

    /// The grid of placed cells.
    #[inline(always)]
    pub(super) fn placed_grid<I: Isa>(&self, isa: I) -> Grid {
        Grid::from_cells_trusted(isa.placed_cells(&self.cand, &self.unsolved))
    }
}

/// The hidden singles a sweep found so far: the cells its updates found, each counted once a
/// digit-band (a clash counts a cell for each digit found for it).
#[inline(always)]
fn found_count(found: &[u32; 27]) -> u64 {
    found
        .iter()
        .map(|cells| u64::from(cells.count_ones()))
        .sum()
}

/// The first cell of each mini-row of a band (bits 0, 3, ..., 24).
const MINI_ROW_FIRST: u32 = 0o111_111_111;

/// The board the givens leave, and whether it already shows a contradiction.
pub(super) struct GivensBoard {
    /// The givens placed.
    pub(super) board: Board,
    /// Whether an unsolved cell has no candidate, or a digit no place left in some column
    /// (the rows and boxes are checked by the first sweep, the columns only after it). Most
    /// unsolvable random givens end here, before any propagation.
    pub(super) dead_cell_or_column: bool,
}

/// The board with the givens placed, built in bulk: each digit loses the rows, boxes and
/// columns of its givens, and every digit loses the cells of other digits' givens. Two givens
/// of one digit in one row, column or box are found on the way, and so are a dead cell or
/// column ([`GivensBoard`]).
#[inline(always)]
pub(super) fn initial_board<I: Isa>(isa: I, grid: &Grid) -> Result<GivensBoard, GivensConflict> {
    let mut board = Board::new();
    // Every digit-band lost cells, or is whole and updating it changes nothing.
    board.stale = (1 << 27) - 1;
    if let Some(initial) = isa.initial(grid.cells(), &mut board.cand, &mut board.unsolved) {
        if initial.conflict {
            return Err(GivensConflict);
        }
        return Ok(GivensBoard {
            board,
            dead_cell_or_column: initial.dead,
        });
    }
    let givens = isa.givens(grid.cells());
    // Columns per digit and band; two bands sharing a column for one digit is a conflict.
    let mut columns = [0u32; 9];
    let mut clash = 0u32;
    for d in 0..9 {
        let [c0, c1, c2] = [0, 1, 2].map(|b| fold_columns(givens[b][d]));
        clash |= (c0 & c1) | (c0 & c2) | (c1 & c2);
        columns[d] = spread_columns(c0 | c1 | c2);
    }
    // Unsolved cells with no candidate; per digit, the cells it may take in any band.
    let mut dead = 0;
    let mut places = [0u32; 9];
    // With a one-instruction count, two givens of a digit in one mini-row are found by
    // counting: fewer row-box pairs holding givens than givens (each given is in one pair;
    // pairs never outnumber givens); else by looking at each mini-row.
    let (mut pair_count, mut given_count) = (0, 0);
    for b in 0..3 {
        let filled = givens[b].iter().fold(0, |acc, &g| acc | g);
        board.unsolved[b] = BAND & !filled;
        if I::ONE_INSTRUCTION_COUNT {
            given_count += filled.count_ones();
        }
        let mut any = 0;
        for d in 0..9 {
            let own = givens[b][d];
            // Two givens of the digit in one row or box of the band (the table).
            let pairs = isa.presence(own);
            if I::ONE_INSTRUCTION_COUNT {
                pair_count += pairs.count_ones();
            } else {
                // Two givens of the digit in one mini-row (three cells of a row in one box):
                // two of its three bits, seen from the mini-row's first bit.
                let (next, last) = (own >> 1, own >> 2);
                clash |= ((own & next) | (own & last) | (next & last)) & MINI_ROW_FIRST;
            }
            let outside = GIVEN_ROWS_AND_BOXES[pairs];
            clash |= outside >> 31;
            let cand = (outside & !filled & !columns[d]) | own;
            board.cand[b * 9 + d] = cand;
            any |= cand;
            places[d] |= cand;
        }
        dead |= board.unsolved[b] & !any;
    }
    for cells in places {
        dead |= !fold_columns(cells) & 0x1FF;
    }
    if clash != 0 || pair_count != given_count {
        return Err(GivensConflict);
    }
    Ok(GivensBoard {
        board,
        dead_cell_or_column: dead != 0,
    })
}

// The tests compare the AVX-512 forms with the loop: there is nothing to compare elsewhere.
#[cfg(test)]
#[cfg(target_arch = "x86_64")]
mod tests {
    use super::super::isa::Portable;
    use super::*;
    use crate::solver::{NoTrace, Sink};

    /// Settles `board` on `isa`: the board after, or `None` at a contradiction; and the hidden
    /// singles counted.
    fn settle<I: Isa>(isa: I, mut board: Board) -> (Option<Board>, u64) {
        let mut observer = NoTrace;
        let mut search = Search::new(
            u64::MAX,
            &mut observer,
            Sink::Count {
                limit: 2,
                found: 0,
                first: None,
            },
        );
        let settled = board.settle_bands(isa, &mut search).ok().map(|()| board);
        (settled, search.stats.hidden_singles)
    }

    /// The AVX-512 token the vector forms below run on; `None`, said on standard error, on a
    /// CPU without it (only the loop runs there, and these tests compare nothing).
    fn avx512() -> Option<super::super::isa::Avx512> {
        let isa = super::super::isa::Avx512::detect();
        if isa.is_none() {
            eprintln!("this CPU has no AVX-512: only the loop can run here");
        }
        isa
    }

    /// The sweeps done in vectors ([`Isa::sweep`]) leave the board, the counts and the
    /// contradictions the loop over digit-bands does, on boards with random givens, cells
    /// taken away at random and random stale digit-bands (so every path of the vector form is
    /// taken: contradictions, two digits found for a cell, narrowing the updates see).
    #[test]
    fn the_vector_sweeps_settle_a_board_as_the_loop_does() {
        let Some(isa) = avx512() else { return };
        let layout = crate::layout::Layout::standard();
        let mut rng = crate::rng::SplitMix64::new(15);
        let (mut vector_sweeps, mut contradictions) = (0, 0);
        for k in 0..20_000 {
            let givens = crate::generate::random_givens(&layout, &mut rng, 10 + k % 21);
            let Ok(GivensBoard { mut board, .. }) = initial_board(Portable, &givens) else {
                continue;
            };
            for _ in 0..rng.below(40) {
                let i = rng.below(27);
                board.cand[i] &= !(1 << rng.below(27));
            }
            board.stale = (rng.next_u64() as u32 | rng.next_u64() as u32) & ((1 << 27) - 1);
            vector_sweeps += u32::from(board.stale.count_ones() >= VECTOR_SWEEP);
            let looped = settle(Portable, board);
            contradictions += u32::from(looped.0.is_none());
            let swept = settle(isa, board);
            assert_eq!(looped.1, swept.1, "hidden singles, board {k}");
            match (looped.0, swept.0) {
                (Some(a), Some(b)) => {
                    assert_eq!((a.cand, a.unsolved, a.stale), (b.cand, b.unsolved, b.stale))
                }
                (a, b) => assert_eq!(a.is_none(), b.is_none(), "contradiction, board {k}"),
            }
        }
        assert!(vector_sweeps > 5_000 && contradictions > 1_000);
    }

    /// The givens' board built in vectors ([`Isa::initial`]) is the loop's: the same
    /// candidates, unsolved cells and dead cells or columns, and the same conflicts, on
    /// consistent random givens and on cells filled at random (most with conflicts).
    #[test]
    fn the_vector_givens_board_is_the_loops() {
        let Some(isa) = avx512() else { return };
        let layout = crate::layout::Layout::standard();
        let mut rng = crate::rng::SplitMix64::new(16);
        let (mut conflicts, mut dead) = (0, 0);
        for k in 0..40_000 {
            let grid = if k % 2 == 0 {
                crate::generate::random_givens(&layout, &mut rng, 8 + k % 23)
            } else {
                // Each cell filled with a chance of 1 in 2 to 1 in 12, any digit.
                let chance = 2 + k % 11;
                let mut cells = [0u8; CELLS];
                for cell in &mut cells {
                    if rng.below(chance) == 0 {
                        *cell = rng.below(9) as u8 + 1;
                    }
                }
                Grid::from_cells(cells)
            };
            let looped = initial_board(Portable, &grid);
            let vector = initial_board(isa, &grid);
            match (looped, vector) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(
                        (a.board.cand, a.board.unsolved, a.board.stale),
                        (b.board.cand, b.board.unsolved, b.board.stale),
                        "board {k}"
                    );
                    assert_eq!(a.dead_cell_or_column, b.dead_cell_or_column, "board {k}");
                    dead += u32::from(a.dead_cell_or_column);
                }
                (Err(GivensConflict), Err(GivensConflict)) => conflicts += 1,
                (a, b) => panic!("board {k}: conflict {} against {}", a.is_err(), b.is_err()),
            }
        }
        assert!(conflicts > 10_000 && dead > 1_000, "{conflicts} {dead}");
    }
}
