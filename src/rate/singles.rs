//! Full house, naked single and hidden single, found as HoDoKu finds them: from queues of
//! cells fed while candidates disappear ([`Queues`]).
//!
//! - Full house: the first queued naked single (not yet placed) that is the last empty cell
//!   of one of its houses. The queue is only read.
//! - Naked single: the first queued naked single not yet placed; entries before it are
//!   dropped.
//! - Hidden single: the first queued hidden single whose cell is still empty; entries before
//!   it are dropped.
//!
//! The order matters for the score: a cell taken as a naked single costs 4, as a hidden
//! single 14, and HoDoKu's easy level ends at 800.

use super::board::{Board, Events};
use super::houses::{Houses, bit};
use super::step::Step;
use super::technique::Technique;

/// The two queues of singles, as `cell | digit << 8` entries, oldest first.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Queues {
    naked: Vec<u16>,
    naked_head: usize,
    hidden: Vec<u16>,
    hidden_head: usize,
}

impl Queues {
    /// Empties both queues, keeping their memory.
    pub fn clear(&mut self) {
        self.naked.clear();
        self.hidden.clear();
        self.naked_head = 0;
        self.hidden_head = 0;
    }
}

impl Events for Queues {
    const ACTIVE: bool = true;
    #[inline]
    fn naked(&mut self, cell: usize, digit: usize) {
        self.naked.push((cell | digit << 8) as u16);
    }
    #[inline]
    fn hidden(&mut self, cell: usize, digit: usize) {
        self.hidden.push((cell | digit << 8) as u16);
    }
}

fn split(entry: u16) -> (usize, usize) {
    ((entry & 0xFF) as usize, (entry >> 8) as usize)
}

/// The first queued naked single that is the last empty cell of one of its houses.
pub fn full_house(board: &Board, houses: &Houses, queues: &Queues) -> Option<Step> {
    for &entry in &queues.naked[queues.naked_head..] {
        let (cell, d) = split(entry);
        if board.value[cell] != 0 {
            continue;
        }
        for &h in &houses.cell_houses[cell] {
            if board.unsolved & houses.house[h as usize] == bit(cell) {
                return Some(Step::placing(Technique::FullHouse, cell, d as u8 + 1));
            }
        }
    }
    None
}

/// The first queued naked single still empty.
pub fn naked_single(board: &Board, queues: &mut Queues) -> Option<Step> {
    while let Some(&entry) = queues.naked.get(queues.naked_head) {
        queues.naked_head += 1;
        let (cell, d) = split(entry);
        if board.value[cell] == 0 {
            return Some(Step::placing(Technique::NakedSingle, cell, d as u8 + 1));
        }
    }
    None
}

/// The first queued hidden single whose cell is still empty, if it is still the only place of
/// its digit in one of its houses (HoDoKu gives up at a stale entry, which valid puzzles never
/// leave).
pub fn hidden_single(board: &Board, houses: &Houses, queues: &mut Queues) -> Option<Step> {
    while let Some(&entry) = queues.hidden.get(queues.hidden_head) {
        queues.hidden_head += 1;
        let (cell, d) = split(entry);
        if board.value[cell] != 0 {
            continue;
        }
        for &h in &houses.cell_houses[cell] {
            if board.digit[d] & houses.house[h as usize] == bit(cell) {
                return Some(Step::placing(Technique::HiddenSingle, cell, d as u8 + 1));
            }
        }
        return None;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Grid, Layout};

    fn setup(puzzle: &str) -> (Houses, Board, Queues) {
        let houses = Houses::new(&Layout::standard());
        let mut queues = Queues::default();
        let grid: Grid = puzzle.parse().unwrap();
        let board = Board::new(&grid, &houses, &mut queues);
        (houses, board, queues)
    }

    #[test]
    fn full_house_is_the_last_cell_of_a_row() {
        // Row 1 misses only r1c9 (9); the rest of the grid is empty.
        let (houses, board, queues) = setup(&format!("12345678.{}", ".".repeat(72)));
        let step = full_house(&board, &houses, &queues).unwrap();
        assert_eq!(step.to_string(), "Full House: places 9 in r1c9");
        // With two cells missing there is none.
        let (houses, board, queues) = setup(&format!("1234567..{}", ".".repeat(72)));
        assert!(full_house(&board, &houses, &queues).is_none());
    }

    #[test]
    fn naked_single_needs_one_candidate_left() {
        // r1c1 sees 2..8 in its row and 9 in its column: 1 is left, but the row has two
        // empty cells so it is no full house.
        let mut text = format!(".2345678.{}", ".".repeat(72));
        text.replace_range(9..10, "9");
        let (houses, board, mut queues) = setup(&text);
        assert!(full_house(&board, &houses, &queues).is_none());
        let step = naked_single(&board, &mut queues).unwrap();
        assert_eq!(step.placements[0].cell, 0);
        assert_eq!(step.placements[0].digit, 1);
        let (_, board, mut queues) = setup(&".".repeat(81));
        assert!(naked_single(&board, &mut queues).is_none());
    }

    #[test]
    fn hidden_single_is_the_only_place_in_a_house() {
        // 1 in rows 2 and 3 and columns 2 and 3 leaves r1c1 as box 1's only place for 1.
        let mut cells = vec![b'.'; 81];
        cells[9 + 4] = b'1'; // r2c5
        cells[18 + 7] = b'1'; // r3c8
        cells[27 + 1] = b'1'; // r4c2
        cells[54 + 2] = b'1'; // r7c3
        let (houses, board, mut queues) = setup(std::str::from_utf8(&cells).unwrap());
        let step = hidden_single(&board, &houses, &mut queues).unwrap();
        assert_eq!(step.to_string(), "Hidden Single: places 1 in r1c1");
        let (houses, board, mut queues) = setup(&".".repeat(81));
        assert!(hidden_single(&board, &houses, &mut queues).is_none());
    }
}
