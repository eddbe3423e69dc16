//! The independent checker: is a filled grid a valid solution of a puzzle?
//!
//! It shares nothing with the solvers but the grid and layout types: it counts digits per unit
//! with its own plain loops, so a bug in a solver cannot hide itself here.

use std::fmt;

use crate::grid::{CELLS, Grid, cell_name};
use crate::layout::Layout;

/// What is wrong with a proposed solution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// A cell is blank.
    #[error("{} is empty", cell_name(*cell))]
    Empty {
        /// The blank cell.
        cell: usize,
    },
    /// A given of the puzzle holds another digit.
    #[error("changes the given at {}", cell_name(*cell))]
    ChangesGiven {
        /// The cell of the given.
        cell: usize,
    },
    /// A unit holds a digit more than once.
    #[error("{unit} has {} {digit}s", count_word(*count))]
    Repeated {
        /// The unit, as `row 3`, `column 5`, `box 2` or `region c`.
        unit: String,
        /// The repeated digit.
        digit: u8,
        /// How often it occurs.
        count: usize,
    },
}

/// Bits 1 to 9: every digit once.
const ALL_DIGITS: u16 = 0x3FE;

fn count_word(n: usize) -> impl fmt::Display {
    const WORDS: [&str; 10] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    WORDS.get(n).copied().unwrap_or("many")
}

/// Checks that `solution` solves `puzzle` under `layout`: every cell filled, every given kept,
/// and every row, column and region holding each digit once.
///
/// Returns the first problem found, looking in this order: blank cells, changed givens, rows,
/// columns, regions (each in reading order, digits ascending).
pub fn verify(puzzle: &Grid, solution: &Grid, layout: &Layout) -> Result<(), Problem> {
    // One pass for the common case, a right solution: the digits seen in each unit (bit `d`;
    // a blank sets bit 0) must be exactly 1 to 9, and no given may change. Only when that fails
    // do the checks below look for what to report.
    let (mut rows, mut columns, mut regions) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    let mut changed = false;
    for (r, row) in rows.iter_mut().enumerate() {
        for (c, column) in columns.iter_mut().enumerate() {
            let i = r * 9 + c;
            let (given, d) = (puzzle.get(i), solution.get(i));
            let bit = 1u16 << d;
            *row |= bit;
            *column |= bit;
            regions[layout.region_of(i)] |= bit;
            changed |= given != 0 && given != d;
        }
    }
    let mut units = rows.iter().chain(&columns).chain(&regions);
    if !changed && units.all(|&digits| digits == ALL_DIGITS) {
        return Ok(());
    }
    if let Some(cell) = (0..CELLS).find(|&i| solution.get(i) == 0) {
        return Err(Problem::Empty { cell });
    }
    if let Some(cell) = (0..CELLS).find(|&i| puzzle.get(i) != 0 && puzzle.get(i) != solution.get(i))
    {
        return Err(Problem::ChangesGiven { cell });
    }
    // Digit counts per unit: units 0..9 are the rows, 9..18 the columns, 18..27 the regions,
    // each counted here from first principles.
    let mut count = [[0u8; 10]; 27];
    for i in 0..CELLS {
        let d = solution.get(i) as usize;
        count[i / 9][d] += 1;
        count[9 + i % 9][d] += 1;
        count[18 + layout.region_of(i)][d] += 1;
    }
    for (unit, digits) in count.iter().enumerate() {
        if let Some(digit) = (1..=9).find(|&d| digits[d] > 1) {
            let name = match unit {
                0..9 => format!("row {}", unit + 1),
                9..18 => format!("column {}", unit - 8),
                _ => layout.region_name(unit - 18).to_string(),
            };
            return Err(Problem::Repeated {
                unit: name,
                digit: digit as u8,
                count: usize::from(digits[digit]),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_data::{PUZZLE, SOLUTION};

    fn grids() -> (Grid, Grid) {
        (PUZZLE.parse().unwrap(), SOLUTION.parse().unwrap())
    }

    #[test]
    fn accepts_the_solution() {
        let (p, s) = grids();
        assert_eq!(verify(&p, &s, &Layout::standard()), Ok(()));
    }

    #[test]
    fn names_a_blank_cell() {
        let (p, mut s) = grids();
        s.set(40, 0);
        assert_eq!(
            verify(&p, &s, &Layout::standard()).unwrap_err().to_string(),
            "r5c5 is empty"
        );
    }

    #[test]
    fn names_a_changed_given() {
        let (p, mut s) = grids();
        // Swap two digits of row 1 at r1c1 (a given) and r1c3: rows stay valid.
        s.set(0, 4);
        s.set(2, 5);
        assert_eq!(
            verify(&p, &s, &Layout::standard()).unwrap_err().to_string(),
            "changes the given at r1c1"
        );
    }

    #[test]
    fn names_a_repeated_digit() {
        let (p, mut s) = grids();
        // r3c1 is not a given; make row 3 hold two 7s.
        s.set(18, 7);
        assert_eq!(
            verify(&p, &s, &Layout::standard()).unwrap_err().to_string(),
            "row 3 has two 7s"
        );
    }

    #[test]
    fn a_column_swap_breaks_the_boxes_only_by_columns() {
        // Swapping columns 3 and 4 keeps rows and columns valid but breaks boxes.
        let (_, s) = grids();
        let mut t = s;
        for r in 0..9 {
            t.set(r * 9 + 2, s.get(r * 9 + 3));
            t.set(r * 9 + 3, s.get(r * 9 + 2));
        }
        let err = verify(&Grid::EMPTY, &t, &Layout::standard()).unwrap_err();
        assert!(err.to_string().starts_with("box 1 has two"), "{err}");
    }
}
