//! The last rung: a cell given its value from the solution (HoDoKu's "Brute Force" step,
//! which takes the middle one of the empty cells in reading order), and the small search that
//! finds the solution when the caller did not give it.
//!
//! The search is depth-first over the board's candidates with singles propagated
//! ([`Board::propagate`]), branching on a cell with the fewest candidates (the first in
//! reading order among equals), digits in increasing order; it returns the first solution,
//! so on a puzzle with several solutions the brute-force steps follow the least one in that
//! order.

use super::board::Board;
use super::houses::{Houses, cells_of, count};
use super::step::Step;
use super::technique::Technique;
use crate::grid::Grid;

/// The first solution of `board` in the search order above, if any.
pub fn solve(board: &Board, houses: &Houses) -> Option<Grid> {
    let mut board = board.clone();
    board.propagate(houses).ok()?;
    if board.unsolved == 0 {
        return Some(board.grid());
    }
    let cell = cells_of(board.unsolved)
        .min_by_key(|&i| board.cand[i].count_ones())
        .expect("an empty cell");
    let mut digits = board.cand[cell];
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        let mut next = board.clone();
        next.place(houses, cell, d, &mut super::board::NoEvents);
        if let Some(g) = solve(&next, houses) {
            return Some(g);
        }
    }
    None
}

/// The brute-force step: the middle empty cell (HoDoKu's choice) takes its solution value.
pub fn step(board: &Board, solution: &Grid) -> Option<Step> {
    let empty = count(board.unsolved) as usize;
    let cell = cells_of(board.unsolved).nth(empty / 2)?;
    Some(Step::placing(
        Technique::BruteForce,
        cell,
        solution.get(cell),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::test_support::TestBoard;

    #[test]
    fn solves_and_places_the_middle_cell() {
        let b = TestBoard::from_puzzle(crate::test_data::PUZZLE);
        let solution = solve(&b.board, &b.houses).unwrap();
        assert_eq!(solution.to_line(), crate::test_data::SOLUTION);
        let s = step(&b.board, &solution).unwrap();
        let empty: Vec<usize> = cells_of(b.board.unsolved).collect();
        assert_eq!(s.placements[0].cell as usize, empty[empty.len() / 2]);
        assert_eq!(
            s.placements[0].digit,
            solution.get(s.placements[0].cell as usize)
        );
    }

    #[test]
    fn no_solution_is_none() {
        // Row 1 holds 1..8; r2c9 holds 9: r1c9 has no candidate.
        let mut text = format!("12345678.{}", ".".repeat(72));
        text.replace_range(17..18, "9");
        let b = TestBoard::from_puzzle(&text);
        assert!(solve(&b.board, &b.houses).is_none());
    }
}
