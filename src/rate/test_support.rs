//! Boards for the techniques' unit tests: the empty board, a puzzle's board, or a board
//! written as pencil marks.

use super::board::{Board, NoEvents};
use super::houses::{ALL_CELLS, Houses, bit};
use super::step::Step;
use crate::{Grid, Layout};

/// A board with its houses.
pub(crate) struct TestBoard {
    pub houses: Houses,
    pub board: Board,
}

impl TestBoard {
    /// The standard layout's empty board: every digit a candidate everywhere.
    pub fn empty() -> TestBoard {
        TestBoard::from_puzzle(&".".repeat(81))
    }

    /// The board of a puzzle (givens placed, nothing else).
    pub fn from_puzzle(puzzle: &str) -> TestBoard {
        let houses = Houses::new(&Layout::standard());
        let grid: Grid = puzzle.parse().unwrap();
        let board = Board::new(&grid, &houses, &mut NoEvents);
        TestBoard { houses, board }
    }

    /// A board from 81 whitespace-separated tokens: `+5` a solved cell, `37` the candidates
    /// of an empty cell.
    pub fn from_pencilmarks(text: &str) -> TestBoard {
        let houses = Houses::new(&Layout::standard());
        let tokens: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(tokens.len(), 81, "81 tokens expected");
        let mut board = Board::new(&Grid::EMPTY, &houses, &mut NoEvents);
        board.digit = [0; 9];
        board.unsolved = ALL_CELLS;
        for (i, t) in tokens.iter().enumerate() {
            if let Some(v) = t.strip_prefix('+') {
                let d: usize = v.parse().unwrap();
                board.value[i] = d as u8;
                board.cand[i] = 0;
                board.solved[d - 1] |= bit(i);
                board.unsolved &= !bit(i);
            } else {
                let mut mask = 0u16;
                for ch in t.chars() {
                    let d = ch.to_digit(10).unwrap() as usize;
                    mask |= 1 << (d - 1);
                    board.digit[d - 1] |= bit(i);
                }
                board.cand[i] = mask;
            }
        }
        TestBoard { houses, board }
    }

    /// Removes digit `digit` (`1..=9`) from cell `cell`.
    pub fn remove_candidate(&mut self, cell: usize, digit: usize) {
        self.board
            .remove(&self.houses, cell, digit - 1, &mut NoEvents);
    }

    /// Keeps digit `digit` (`1..=9`) only at `keep` among `cells`.
    pub fn only(&mut self, cells: impl IntoIterator<Item = usize>, keep: &[usize], digit: usize) {
        for c in cells {
            if !keep.contains(&c) {
                self.remove_candidate(c, digit);
            }
        }
    }

    /// Keeps only the digits of `digits` (`1..=9`) as candidates of `cell`.
    pub fn keep(&mut self, cell: usize, digits: &[usize]) {
        for d in 1..=9 {
            if !digits.contains(&d) {
                self.remove_candidate(cell, d);
            }
        }
    }
}

/// Asserts that no step places a digit other than `solution`'s or removes `solution`'s digit.
pub(crate) fn assert_sound(step: &Step, solution: &str) {
    let solution: Grid = solution.parse().unwrap();
    for p in &step.placements {
        assert_eq!(solution.get(p.cell as usize), p.digit, "{step}");
    }
    for e in &step.eliminations {
        assert_ne!(solution.get(e.cell as usize), e.digit, "{step}");
    }
}

/// The first step of a one-digit search over the digits in order, as the rater takes it.
pub fn any_digit(search: impl Fn(usize) -> Option<super::Step>) -> Option<super::Step> {
    (0..9).find_map(search)
}
