//! The default engine against a deliberately simple reference search written here, on puzzles
//! made by blanking cells of random valid grids (some with a given changed, so that a few have
//! no solution): both find as many solutions, up to three, and the same ones, and every
//! solution reported passes the independent verifier.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use proptest::prelude::*;
use sudoku_bulk::generate::random_solution;
use sudoku_bulk::solver::{Algorithm, SolveOptions, Status, for_each_solution, solve};
use sudoku_bulk::verify::verify;
use sudoku_bulk::{Grid, Layout};

/// Solutions counted at most.
const LIMIT: usize = 3;

/// The reference: plain recursive backtracking. Each call scans every blank cell's row,
/// column and box to list the digits it may take, branches on a blank cell with fewest (none
/// left: a dead end), and tries each digit in turn. Collects up to `limit` complete grids.
fn reference(cells: &mut [u8; 81], limit: usize, found: &mut Vec<[u8; 81]>) {
    let mut best: Option<(usize, Vec<u8>)> = None;
    for cell in (0..81).filter(|&i| cells[i] == 0) {
        let digits = allowed(cells, cell);
        if best.as_ref().is_none_or(|(_, b)| digits.len() < b.len()) {
            let dead = digits.is_empty();
            best = Some((cell, digits));
            if dead {
                return;
            }
        }
    }
    let Some((cell, digits)) = best else {
        found.push(*cells);
        return;
    };
    for digit in digits {
        cells[cell] = digit;
        reference(cells, limit, found);
        cells[cell] = 0;
        if found.len() >= limit {
            return;
        }
    }
}

/// The digits found nowhere in the row, the column and the box of `cell`.
fn allowed(cells: &[u8; 81], cell: usize) -> Vec<u8> {
    let (row, col) = (cell / 9, cell % 9);
    let (box_row, box_col) = (row / 3 * 3, col / 3 * 3);
    (1..=9)
        .filter(|&digit| {
            !(0..9).any(|k| {
                cells[row * 9 + k] == digit
                    || cells[k * 9 + col] == digit
                    || cells[(box_row + k / 3) * 9 + box_col + k % 3] == digit
            })
        })
        .collect()
}

/// Whether two givens share a digit in a unit, by the same plain scans.
fn givens_conflict(cells: &[u8; 81]) -> bool {
    (0..81).any(|i| {
        let (row, col) = (i / 9, i % 9);
        let digit = cells[i];
        digit != 0
            && (0..81).any(|j| {
                j != i
                    && cells[j] == digit
                    && (j / 9 == row || j % 9 == col || (j / 27 == i / 27 && j % 9 / 3 == col / 3))
            })
    })
}

/// A puzzle from a random grid: `blanks` cells blanked in an order drawn from `seed`, and, when
/// `change` is set, one remaining given replaced by another digit.
fn puzzle(seed: u64, blanks: usize, change: Option<u8>) -> Grid {
    let solution = random_solution(&Layout::standard(), seed, 1_000_000, 20).expect("a grid");
    let mut cells = *solution.cells();
    let mut order: Vec<usize> = (0..81).collect();
    let mut state = seed | 1;
    for i in (1..81).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        order.swap(i, (state % (i as u64 + 1)) as usize);
    }
    for &i in &order[..blanks] {
        cells[i] = 0;
    }
    if let Some(shift) = change {
        let i = order[blanks.min(80)];
        if cells[i] != 0 {
            cells[i] = (cells[i] - 1 + shift) % 9 + 1;
        }
    }
    Grid::from_cells(cells)
}

/// Checks `fast` against the reference on one puzzle.
fn agree(puzzle: &Grid) -> Result<(), TestCaseError> {
    let layout = Layout::standard();
    let cells = *puzzle.cells();
    let options = SolveOptions {
        algorithm: Algorithm::Fast,
        max_solutions: LIMIT as u64,
        max_recursions: u64::MAX,
        seed: 0,
    };
    if givens_conflict(&cells) {
        prop_assert!(solve(puzzle, &layout, &options).is_err(), "{puzzle}");
        return Ok(());
    }
    let mut expected = Vec::new();
    reference(&mut cells.clone(), LIMIT, &mut expected);

    let outcome = solve(puzzle, &layout, &options).expect("no conflict");
    prop_assert_eq!(outcome.solutions, expected.len() as u64, "{}", puzzle);
    let status = match expected.len() {
        0 => Status::Unsolvable,
        1 => Status::Solved,
        _ => Status::Multiple,
    };
    prop_assert_eq!(outcome.status, status);
    if let Some(solution) = &outcome.solution {
        prop_assert!(verify(puzzle, solution, &layout).is_ok(), "{}", solution);
    }

    let mut found = Vec::new();
    let (_, gave_up) = for_each_solution(puzzle, &layout, &options, |grid| {
        found.push(*grid.cells());
        if found.len() >= LIMIT {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .expect("no conflict");
    prop_assert!(!gave_up);
    for grid in &found {
        prop_assert!(verify(puzzle, &Grid::from_cells(*grid), &layout).is_ok());
    }
    prop_assert_eq!(found.len(), expected.len());
    if expected.len() < LIMIT {
        // Every solution there is: the same set, whatever the search order.
        let found: BTreeSet<_> = found.into_iter().collect();
        let expected: BTreeSet<_> = expected.into_iter().collect();
        prop_assert_eq!(found, expected);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// Puzzles of every density, from nearly full to nearly empty.
    #[test]
    fn fast_and_the_reference_agree_on_blanked_grids(seed in any::<u64>(), blanks in 0usize..=81) {
        agree(&puzzle(seed, blanks, None))?;
    }

    /// The same with one given changed: conflicting givens, puzzles with no solution, and
    /// puzzles whose solution moved.
    #[test]
    fn fast_and_the_reference_agree_with_a_given_changed(
        seed in any::<u64>(),
        blanks in 30usize..=64,
        shift in 1u8..=8,
    ) {
        agree(&puzzle(seed, blanks, Some(shift)))?;
    }
}

#[test]
fn the_reference_counts_known_cases() {
    let count = |cells: [u8; 81]| {
        let mut found = Vec::new();
        reference(&mut cells.clone(), LIMIT, &mut found);
        found
    };
    let solution: Grid =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
            .parse()
            .unwrap();
    let puzzle: Grid =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
            .parse()
            .unwrap();
    assert_eq!(count(*solution.cells()), vec![*solution.cells()]);
    assert_eq!(count(*puzzle.cells()), vec![*solution.cells()]);
    assert_eq!(count([0; 81]).len(), LIMIT);
    // A rectangle of two digits, x y over y x, in two rows of a band: blanking its corners
    // leaves exactly two solutions (the digits either way round).
    let cells = *solution.cells();
    let rectangle = (0..81)
        .flat_map(|a| (a + 1..81).map(move |b| (a, b)))
        .find_map(|(a, b)| {
            let (r1, c1, r2, c2) = (a / 9, a % 9, b / 9, b % 9);
            let corners = [a, r1 * 9 + c2, r2 * 9 + c1, b];
            (r1 / 3 == r2 / 3
                && r1 != r2
                && c1 != c2
                && cells[a] == cells[b]
                && cells[r1 * 9 + c2] == cells[r2 * 9 + c1])
                .then_some(corners)
        })
        .expect("a rectangle in a band");
    let mut open = cells;
    for i in rectangle {
        open[i] = 0;
    }
    assert_eq!(count(open).len(), 2);
    // A second 9 in the last row (which ends in a given 9): a conflict; blank again: none.
    let mut broken = *puzzle.cells();
    broken[78] = 9;
    assert!(givens_conflict(&broken), "same row");
    broken[78] = 0;
    assert!(!givens_conflict(&broken));
    let mut clash = [0; 81];
    clash[0] = 5;
    clash[20] = 5;
    assert!(givens_conflict(&clash), "same box");
    clash[20] = 0;
    clash[80] = 5;
    assert!(!givens_conflict(&clash));
}
