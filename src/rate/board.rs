//! The grid of candidates the techniques read: per-cell candidate masks and per-digit cell
//! bitboards, kept in step, with HoDoKu's order of placing and removing.
//!
//! # Layout of the state
//! ```text
//! cand[i]   u16   bit d-1 set: digit d is still a candidate of cell i (0 once solved)
//! digit[d]  u128  bit i set:   cell i is unsolved and has digit d+1 as a candidate
//! solved[d] u128  bit i set:   cell i holds digit d+1
//! unsolved  u128  bit i set:   cell i is empty
//! ```
//!
//! # HoDoKu's singles queues
//! HoDoKu finds singles from two queues fed while candidates disappear, so which single it
//! takes next (and so whether a cell falls as a naked single, 4 points, or a hidden single,
//! 14) depends on the order of those removals. [`Board::place`] and [`Board::remove`] follow
//! HoDoKu's `Sudoku2.setCell`/`delCandidate` order (peers in increasing cell order, then the
//! cell's own candidates; houses row, column, region) and report each new naked single and
//! each house left with one cell for a digit to a [`Events`] sink. The rating loop keeps the
//! queues ([`super::singles::Queues`]); everything else passes [`NoEvents`].

use super::houses::{Cells, Houses, bit, cells_of, count, first, is_one};
use crate::grid::Grid;

/// All nine digits as a candidate mask.
pub const ALL_DIGITS: u16 = 0x1FF;

/// What a board reports while it changes.
pub trait Events {
    /// Whether anything is reported (lets the compiler drop the bookkeeping).
    const ACTIVE: bool;
    /// Cell `cell` has `digit` (`0..9`) as its only candidate left.
    fn naked(&mut self, cell: usize, digit: usize);
    /// A house has cell `cell` as the only place left for `digit` (`0..9`).
    fn hidden(&mut self, cell: usize, digit: usize);
}

/// A sink that reports nothing.
pub struct NoEvents;

impl Events for NoEvents {
    const ACTIVE: bool = false;
    #[inline]
    fn naked(&mut self, _: usize, _: usize) {}
    #[inline]
    fn hidden(&mut self, _: usize, _: usize) {}
}

/// A placement or elimination that left a cell without candidates or a house without a
/// place for a digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contradiction;

/// The candidates of a grid being solved.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    pub(crate) value: [u8; 81],
    pub(crate) cand: [u16; 81],
    pub(crate) digit: [Cells; 9],
    pub(crate) solved: [Cells; 9],
    pub(crate) unsolved: Cells,
}

impl Board {
    /// The board of `grid`: every digit a candidate of every empty cell, then each given placed
    /// in reading order (as HoDoKu loads a puzzle). The givens must not conflict.
    pub fn new<E: Events>(grid: &Grid, houses: &Houses, events: &mut E) -> Board {
        let mut board = Board {
            value: [0; 81],
            cand: [ALL_DIGITS; 81],
            digit: [super::houses::ALL_CELLS; 9],
            solved: [0; 9],
            unsolved: super::houses::ALL_CELLS,
        };
        if !E::ACTIVE {
            for (i, &v) in grid.cells().iter().enumerate() {
                if v != 0 {
                    board.place(houses, i, v as usize - 1, &mut NoEvents);
                }
            }
            return board;
        }
        // The same placements and events as `place` one given after the other, with each
        // digit's places in each house kept as nine bits (bit k: cell k of
        // `Houses::house_cells`), so "one place left" is a test of a small mask: the givens
        // remove a digit from most of their peers, the board's most frequent change.
        let mut places = [[0x1FFu16; 27]; 9];
        for (i, &v) in grid.cells().iter().enumerate() {
            if v == 0 {
                continue;
            }
            let d = v as usize - 1;
            board.value[i] = v;
            for j in cells_of(houses.peers[i] & board.digit[d]) {
                board.cand[j] &= !(1 << d);
                board.digit[d] &= !bit(j);
                clear_place(houses, &mut places, j, d, true, events);
                let rest = board.cand[j];
                if rest != 0 && rest & (rest - 1) == 0 {
                    events.naked(j, rest.trailing_zeros() as usize);
                }
            }
            let mut rest = board.cand[i];
            board.cand[i] = 0;
            board.unsolved &= !bit(i);
            board.solved[d] |= bit(i);
            while rest != 0 {
                let e = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                board.digit[e] &= !bit(i);
                clear_place(houses, &mut places, i, e, e != d, events);
            }
        }
        board
    }

    /// The grid of placed digits.
    pub fn grid(&self) -> Grid {
        Grid::from_cells_trusted(self.value)
    }

    /// The value of cell `i`, `0` when empty.
    #[inline]
    pub fn value(&self, i: usize) -> u8 {
        self.value[i]
    }

    /// The candidates of cell `i` (bit `d - 1` for digit `d`); `0` once solved.
    #[inline]
    pub fn candidates(&self, i: usize) -> u16 {
        self.cand[i]
    }

    /// The empty cells having digit `d` (`0..9`) as a candidate.
    #[inline]
    pub fn cells_with(&self, d: usize) -> Cells {
        self.digit[d]
    }

    /// The empty cells.
    #[inline]
    pub fn unsolved(&self) -> Cells {
        self.unsolved
    }

    /// Whether digit `d` (`0..9`) is a candidate of cell `i`.
    #[inline]
    pub fn has(&self, i: usize, d: usize) -> bool {
        self.cand[i] & (1 << d) != 0
    }

    /// The empty cells with exactly two candidates.
    pub fn bivalue_cells(&self) -> Cells {
        let (mut one, mut two, mut three) = (0 as Cells, 0 as Cells, 0 as Cells);
        for &m in &self.digit {
            three |= two & m;
            two |= one & m;
            one |= m;
        }
        two & !three
    }

    /// Places digit `d` (`0..9`) in cell `i`: removes `d` from the peers (increasing order),
    /// then the cell's other candidates, reporting singles as HoDoKu's `setCell` queues them.
    pub fn place<E: Events>(&mut self, houses: &Houses, i: usize, d: usize, events: &mut E) {
        self.value[i] = d as u8 + 1;
        for j in cells_of(houses.peers[i] & self.digit[d]) {
            self.remove(houses, j, d, events);
        }
        let old = self.cand[i];
        self.cand[i] = 0;
        self.unsolved &= !bit(i);
        self.solved[d] |= bit(i);
        let mut rest = old;
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            self.digit[e] &= !bit(i);
            if E::ACTIVE && e != d {
                for &h in &houses.cell_houses[i] {
                    let left = self.digit[e] & houses.house[h as usize];
                    if is_one(left) {
                        events.hidden(first(left), e);
                    }
                }
            }
        }
    }

    /// Removes digit `d` (`0..9`) from the candidates of cell `i`, if there; reports a house
    /// left with one place for `d` and a cell left with one candidate.
    #[inline]
    pub fn remove<E: Events>(&mut self, houses: &Houses, i: usize, d: usize, events: &mut E) {
        if self.cand[i] & (1 << d) == 0 {
            return;
        }
        self.cand[i] &= !(1 << d);
        self.digit[d] &= !bit(i);
        if E::ACTIVE {
            for &h in &houses.cell_houses[i] {
                let left = self.digit[d] & houses.house[h as usize];
                if is_one(left) {
                    events.hidden(first(left), d);
                }
            }
            let rest = self.cand[i];
            if rest != 0 && rest & (rest - 1) == 0 {
                events.naked(i, rest.trailing_zeros() as usize);
            }
        }
    }

    /// Places `d` in `i` if it is still a candidate there, else reports the contradiction.
    #[inline]
    pub fn place_checked(
        &mut self,
        houses: &Houses,
        i: usize,
        d: usize,
    ) -> Result<(), Contradiction> {
        if !self.has(i, d) {
            return Err(Contradiction);
        }
        self.place(houses, i, d, &mut NoEvents);
        Ok(())
    }

    /// Naked and hidden singles to their fixpoint, with no record kept: the propagation of
    /// forcing nets and of the brute-force search. Fails when a cell loses its last candidate
    /// or a house its last place for a digit.
    pub fn propagate(&mut self, houses: &Houses) -> Result<(), Contradiction> {
        loop {
            let (mut one, mut two) = (0 as Cells, 0 as Cells);
            for &m in &self.digit {
                two |= one & m;
                one |= m;
            }
            if self.unsolved & !one != 0 {
                return Err(Contradiction);
            }
            let mut progress = false;
            for i in cells_of(one & !two) {
                let c = self.cand[i];
                if c == 0 {
                    // Emptied by a placement of this round.
                    if self.unsolved & bit(i) != 0 {
                        return Err(Contradiction);
                    }
                    continue;
                }
                if c & (c - 1) != 0 {
                    continue;
                }
                self.place(houses, i, c.trailing_zeros() as usize, &mut NoEvents);
                progress = true;
            }
            for d in 0..9 {
                for h in 0..27 {
                    let house = houses.house[h];
                    if self.solved[d] & house != 0 {
                        continue;
                    }
                    let left = self.digit[d] & house;
                    match count(left) {
                        0 => return Err(Contradiction),
                        1 => {
                            self.place_checked(houses, first(left), d)?;
                            progress = true;
                        }
                        _ => {}
                    }
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }

    /// Whether some empty cell has no candidate or some house has no place for a digit it
    /// still needs.
    pub fn is_broken(&self, houses: &Houses) -> bool {
        let mut any = 0 as Cells;
        for &m in &self.digit {
            any |= m;
        }
        if self.unsolved & !any != 0 {
            return true;
        }
        (0..9).any(|d| (0..27).any(|h| (self.digit[d] | self.solved[d]) & houses.house[h] == 0))
    }
}

/// Cell `j` is no place for digit `d` any more in [`Board::new`]'s nine-bit masks of its
/// three houses; with `report`, a house left with one place for `d` is reported, as
/// [`Board::remove`] reports it.
#[inline(always)]
fn clear_place<E: Events>(
    houses: &Houses,
    places: &mut [[u16; 27]; 9],
    j: usize,
    d: usize,
    report: bool,
    events: &mut E,
) {
    for k in 0..3 {
        let h = houses.cell_houses[j][k] as usize;
        let left = &mut places[d][h];
        *left &= !(1 << houses.cell_places[j][k]);
        if report && *left != 0 && *left & (*left - 1) == 0 {
            let cell = houses.house_cells[h][left.trailing_zeros() as usize];
            events.hidden(cell as usize, d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Layout;

    #[test]
    fn placing_removes_the_digit_from_peers() {
        let houses = Houses::new(&Layout::standard());
        let grid: Grid = crate::test_data::PUZZLE.parse().unwrap();
        let board = Board::new(&grid, &houses, &mut NoEvents);
        assert_eq!(board.value(0), 5);
        // r1c3 sees 5, 3, 7 (row), 8 (column), 6, 9 (box).
        assert!(!board.has(2, 4) && !board.has(2, 2) && !board.has(2, 5));
        assert!(board.has(2, 0) && board.has(2, 1));
        for d in 0..9 {
            for i in cells_of(board.cells_with(d)) {
                assert!(board.has(i, d) && board.value(i) == 0);
            }
        }
    }

    #[test]
    fn propagation_solves_an_easy_puzzle_and_finds_contradictions() {
        let houses = Houses::new(&Layout::standard());
        let grid: Grid = crate::test_data::PUZZLE.parse().unwrap();
        let mut board = Board::new(&grid, &houses, &mut NoEvents);
        board.propagate(&houses).unwrap();
        assert_eq!(board.grid().to_line(), crate::test_data::SOLUTION);
        let mut wrong = Board::new(&grid, &houses, &mut NoEvents);
        // r1c3 is 4 in the solution; 1 leads to a contradiction.
        wrong.place(&houses, 2, 0, &mut NoEvents);
        assert_eq!(wrong.propagate(&houses), Err(Contradiction));
    }

    #[test]
    fn the_givens_report_what_placing_them_one_by_one_reports() {
        // Board::new keeps its own masks for the events; placing each given on the empty
        // board with `place` is the reference (HoDoKu's order).
        let layouts = [Layout::standard(), crate::generate::random_layout(7, 40)];
        for layout in &layouts {
            let houses = Houses::new(layout);
            let mut rng = crate::rng::SplitMix64::new(11);
            for seed in 0..40 {
                let grid = crate::generate::random_givens(layout, &mut rng, 17 + seed % 14);
                let mut fast = crate::rate::singles::Queues::default();
                let board = Board::new(&grid, &houses, &mut fast);
                let mut slow = crate::rate::singles::Queues::default();
                let mut reference = Board::new(&Grid::EMPTY, &houses, &mut slow);
                for (i, &v) in grid.cells().iter().enumerate() {
                    if v != 0 {
                        reference.place(&houses, i, v as usize - 1, &mut slow);
                    }
                }
                assert_eq!(board, reference, "seed {seed}");
                assert_eq!(fast, slow, "seed {seed}");
            }
        }
    }
}
