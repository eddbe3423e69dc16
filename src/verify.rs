//! The independent checker: is a filled grid a valid solution of a puzzle?
//!
//! It shares nothing with the solvers but the grid and layout types: it checks units with its
//! own bit masks and counts digits per unit with its own plain loops, so a bug in a solver
//! cannot hide itself here.

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
    // The common case, a right solution, in one branch-free pass (see `is_valid_solution`);
    // only when that fails do the checks below look for what to report.
    if is_valid_solution(puzzle, solution, layout) {
        return Ok(());
    }
    first_problem(puzzle, solution, layout).map_or(Ok(()), Err)
}

/// The first problem of `solution`, in the order [`verify`] promises, found by counting digits
/// cell by cell; `None` when there is none.
fn first_problem(puzzle: &Grid, solution: &Grid, layout: &Layout) -> Option<Problem> {
    if let Some(cell) = (0..CELLS).find(|&i| solution.get(i) == 0) {
        return Some(Problem::Empty { cell });
    }
    if let Some(cell) = (0..CELLS).find(|&i| puzzle.get(i) != 0 && puzzle.get(i) != solution.get(i))
    {
        return Some(Problem::ChangesGiven { cell });
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
            return Some(Problem::Repeated {
                unit: name,
                digit: digit as u8,
                count: usize::from(digits[digit]),
            });
        }
    }
    None
}

/// Whether `solution` keeps every given of `puzzle` and every unit holds the digits 1 to 9
/// (on the standard layout of an x86-64 processor, the units are checked by [`shuffled`]).
fn is_valid_solution(puzzle: &Grid, solution: &Grid, layout: &Layout) -> bool {
    let (given, cell) = (puzzle.cells(), solution.cells());
    let mut changed = 0u8;
    for (&g, &d) in given.iter().zip(cell) {
        changed |= u8::from(g != 0 && g != d);
    }
    #[cfg(target_arch = "x86_64")]
    if layout.is_standard()
        && let Some(units) = shuffled::units_hold_every_digit(cell)
    {
        return changed == 0 && units;
    }
    changed == 0 && units_hold_every_digit(cell, layout)
}

/// The unit check of [`is_valid_solution`], portable: whether every row, column and region of
/// `cell` holds the digits 1 to 9.
///
/// Each cell becomes one bit, `1 << digit` (a blank sets bit 0), and each unit the OR of its
/// nine cells' bits: nine cells hold each digit once, and no blank, exactly when their OR has
/// bits 1 to 9. So every unit is right when the AND of all 27 ORs has them. Rows and columns
/// are ORs at fixed places; the boxes too on the standard layout, the regions of a jigsaw
/// through the layout's table.
fn units_hold_every_digit(cell: &[u8; CELLS], layout: &Layout) -> bool {
    let bits: [u16; CELLS] = std::array::from_fn(|i| 1 << (cell[i] & 15));
    let rows: [u16; 9] = std::array::from_fn(|r| (0..9).fold(0, |acc, c| acc | bits[r * 9 + c]));
    let columns: [u16; 9] = std::array::from_fn(|c| (0..9).fold(0, |acc, r| acc | bits[r * 9 + c]));
    let regions: [u16; 9] = if layout.is_standard() {
        std::array::from_fn(|b| {
            let corner = (b / 3) * 27 + (b % 3) * 3;
            [0, 1, 2, 9, 10, 11, 18, 19, 20]
                .iter()
                .fold(0, |acc, &k| acc | bits[corner + k])
        })
    } else {
        let mut regions = [0u16; 9];
        for (i, &bit) in bits.iter().enumerate() {
            regions[layout.region_of(i)] |= bit;
        }
        regions
    };
    let all = rows
        .iter()
        .chain(&columns)
        .chain(&regions)
        .fold(u16::MAX, |all, &u| all & u);
    all & ALL_DIGITS == ALL_DIGITS
}

/// The unit check of [`is_valid_solution`] on the standard layout, sixteen cells at a time with
/// SSSE3 byte shuffles (x86-64 processors since about 2006; others take the portable path).
///
/// Each row is one 16-byte vector, its nine values in bytes 0 to 8 and `0x80` after them. Two
/// table lookups (`pshufb`) give every byte its bit `1 << value` split in two: the low eight bits
/// and the high ones (a `0x80` byte looks up nothing, so the padding adds no bit); interleaved,
/// they are the bits as 16-bit lanes 0 to 8 of two vectors (lanes 0-7, lane 8). Then, as in the
/// portable path: a row is its lanes ORed together, a column the same lane ORed over the nine
/// rows, a box three lanes of three rows; every unit is right when each OR has bits 1 to 9.
#[cfg(target_arch = "x86_64")]
mod shuffled {
    use std::arch::x86_64::*;

    use crate::grid::CELLS;

    /// Whether every row, column and box of `cells` (values `0..=9`) holds the digits 1 to 9;
    /// `None` when the processor has no SSSE3.
    pub fn units_hold_every_digit(cells: &[u8; CELLS]) -> Option<bool> {
        if !std::arch::is_x86_feature_detected!("ssse3") {
            return None;
        }
        // SAFETY: the processor has SSSE3, checked just above; the function does nothing else
        // unsafe.
        Some(unsafe { check(cells) })
    }

    /// A vector from 16 bytes.
    #[target_feature(enable = "ssse3")]
    fn vector(bytes: [u8; 16]) -> __m128i {
        let half = |i: usize| i64::from_le_bytes(bytes[i..i + 8].try_into().expect("eight bytes"));
        _mm_set_epi64x(half(8), half(0))
    }

    #[target_feature(enable = "ssse3")]
    fn check(cells: &[u8; CELLS]) -> bool {
        // `LOW[v]` and `HIGH[v]`: the low and high byte of `1 << v` (values above 9: nothing).
        let low = vector(std::array::from_fn(|v| if v < 8 { 1 << v } else { 0 }));
        let high = vector(std::array::from_fn(|v| match v {
            8 => 1,
            9 => 2,
            _ => 0,
        }));
        let mut rows = _mm_set1_epi16(-1);
        let mut boxes = _mm_set1_epi16(-1);
        let (mut columns, mut column8) = (_mm_setzero_si128(), _mm_setzero_si128());
        let (mut band, mut band8) = (_mm_setzero_si128(), _mm_setzero_si128());
        for (r, row) in cells.chunks_exact(9).enumerate() {
            let mut bytes = [0x80u8; 16];
            bytes[..9].copy_from_slice(row);
            let values = vector(bytes);
            let (lo, hi) = (
                _mm_shuffle_epi8(low, values),
                _mm_shuffle_epi8(high, values),
            );
            // Lanes 0-7: columns 0-7; lane 0 of `bits8`: column 8 (its other lanes are 0).
            let bits = _mm_unpacklo_epi8(lo, hi);
            let bits8 = _mm_unpackhi_epi8(lo, hi);
            let mut whole = _mm_or_si128(bits, bits8);
            whole = _mm_or_si128(whole, _mm_srli_si128::<8>(whole));
            whole = _mm_or_si128(whole, _mm_srli_si128::<4>(whole));
            whole = _mm_or_si128(whole, _mm_srli_si128::<2>(whole));
            rows = _mm_and_si128(rows, whole);
            columns = _mm_or_si128(columns, bits);
            column8 = _mm_or_si128(column8, bits8);
            band = _mm_or_si128(band, bits);
            band8 = _mm_or_si128(band8, bits8);
            if r % 3 == 2 {
                // Lanes 0, 3 and 6: the band's boxes (lane 6 gets lane 8 from `band8`).
                let mut three = _mm_or_si128(band, _mm_srli_si128::<2>(band));
                three = _mm_or_si128(three, _mm_srli_si128::<4>(band));
                three = _mm_or_si128(three, _mm_slli_si128::<12>(band8));
                boxes = _mm_and_si128(boxes, three);
                (band, band8) = (_mm_setzero_si128(), _mm_setzero_si128());
            }
        }
        // Columns 0-7 folded into lane 0: the digits every one of them holds.
        columns = _mm_and_si128(columns, _mm_srli_si128::<8>(columns));
        columns = _mm_and_si128(columns, _mm_srli_si128::<4>(columns));
        columns = _mm_and_si128(columns, _mm_srli_si128::<2>(columns));
        let lanes = [
            _mm_extract_epi16::<0>(rows),
            _mm_extract_epi16::<0>(boxes),
            _mm_extract_epi16::<3>(boxes),
            _mm_extract_epi16::<6>(boxes),
            _mm_extract_epi16::<0>(columns),
            _mm_extract_epi16::<0>(column8),
        ];
        let all = lanes.iter().fold(-1, |all, &lane| all & lane);
        all & 0x3FE == 0x3FE
    }
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

    /// Swaps cells `a` and `b` of `grid`.
    fn swap(grid: &mut Grid, a: usize, b: usize) {
        let (x, y) = (grid.get(a), grid.get(b));
        grid.set(a, y);
        grid.set(b, x);
    }

    /// Changes `grid` by one of the moves that keep some of its units right: a cell set to a
    /// value (blank included), two cells swapped in one row, one column or one box, two whole
    /// rows or two whole columns swapped.
    fn mutate(grid: &mut Grid, (kind, x, y, z): (u8, usize, usize, usize)) {
        match kind {
            0 => grid.set(x * 9 + y, (z % 10) as u8),
            1 => swap(grid, x * 9 + y, x * 9 + z),
            2 => swap(grid, y * 9 + x, z * 9 + x),
            3 => {
                let corner = (x / 3) * 27 + (x % 3) * 3;
                swap(
                    grid,
                    corner + (y / 3) * 9 + y % 3,
                    corner + (z / 3) * 9 + z % 3,
                );
            }
            4 => (0..9).for_each(|c| swap(grid, y * 9 + c, z * 9 + c)),
            _ => (0..9).for_each(|r| swap(grid, r * 9 + y, r * 9 + z)),
        }
    }

    proptest::proptest! {
        /// The one-pass check accepts exactly the grids in which the careful checks find no
        /// problem: a solution changed by moves that keep some units right, under the standard
        /// layout and a jigsaw, against puzzles holding some of its cells as givens.
        #[test]
        fn the_fast_check_agrees_with_the_careful_one(
            moves in proptest::collection::vec((0u8..6, 0usize..9, 0usize..9, 0usize..9), 0..3),
            givens in proptest::collection::vec(0usize..81, 0..30),
            jigsaw in proptest::bool::ANY,
        ) {
            let (layout, base) = if jigsaw {
                jigsaw_sample()
            } else {
                (Layout::standard(), grids().1)
            };
            let mut puzzle = Grid::EMPTY;
            for i in givens {
                puzzle.set(i, base.get(i));
            }
            let mut t = base;
            for m in moves {
                mutate(&mut t, m);
            }
            let right = first_problem(&puzzle, &t, &layout).is_none();
            proptest::prop_assert_eq!(is_valid_solution(&puzzle, &t, &layout), right, "{}", t);
            // The portable unit check too, where the shuffles take its place.
            let kept = (0..CELLS).all(|i| puzzle.get(i) == 0 || puzzle.get(i) == t.get(i));
            proptest::prop_assert_eq!(
                kept && units_hold_every_digit(t.cells(), &layout),
                right,
                "{}", t
            );
        }
    }

    /// The layout and solution of the first shipped jigsaw puzzle (columns `puzzle`,
    /// `regions`, `solution`).
    fn jigsaw_sample() -> (Layout, Grid) {
        let text = include_str!("../data/jigsaw_sample.csv");
        let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
        let layout = Layout::parse(row[1].as_bytes()).unwrap();
        let solution: Grid = row[2].parse().unwrap();
        assert!(!layout.is_standard() && first_problem(&Grid::EMPTY, &solution, &layout).is_none());
        (layout, solution)
    }

    #[test]
    fn two_cells_swapped_in_a_row_and_a_box_are_found_in_any_two_columns() {
        // Only the two columns break: each column is checked on its own.
        let (_, s) = grids();
        for row in [0, 4, 8] {
            for (a, b) in [(0, 1), (0, 2), (1, 2)] {
                for first in [0, 3, 6] {
                    let mut t = s;
                    swap(&mut t, row * 9 + first + a, row * 9 + first + b);
                    let standard = Layout::standard();
                    assert!(
                        !is_valid_solution(&Grid::EMPTY, &t, &standard),
                        "row {row}, columns {} and {}",
                        first + a,
                        first + b
                    );
                    assert!(!units_hold_every_digit(t.cells(), &standard));
                }
            }
        }
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
