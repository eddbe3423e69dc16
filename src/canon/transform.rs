//! The elements of the Sudoku symmetry group: a geometric transformation (transposition,
//! bands, rows within bands, stacks, columns within stacks) followed by a relabelling of digits.
//!
//! A [`Transform`] says, for every cell of the result, which cell of the source it comes from,
//! and what each digit becomes. Every composition of the group's generators is one: the tests of
//! [`super`] apply them to check that the canonical form does not change.

use crate::grid::{CELLS, Grid};
use crate::rng::SplitMix64;

/// One element of the group: `result[r][c] = digits[source'[rows[r]][cols[c]]]`, where
/// `source'` is the source grid, transposed first when [`Transform::transposes`].
///
/// `rows` and `cols` keep the band and stack structure: the rows `3b..3b+3` of the result come
/// from one band of the source, and likewise for columns and stacks. `digits` maps `0` to `0`
/// and permutes `1..=9`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Transform {
    transpose: bool,
    rows: [u8; 9],
    cols: [u8; 9],
    digits: [u8; 10],
}

/// Why a list of rows, columns or digits is not part of a [`Transform`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TransformError {
    /// The rows (or columns) are not a permutation of `0..9` that moves whole bands (stacks).
    #[error("{what} {lines:?} do not permute whole bands and stacks")]
    NotBandPreserving {
        /// `rows` or `columns`.
        what: &'static str,
        /// The source line of each line of the result.
        lines: [u8; 9],
    },
    /// The digits are not a permutation of `1..=9` (with `0`, blank, kept).
    #[error("digits {digits:?} are not a permutation of 1..=9")]
    NotARelabelling {
        /// What each digit `0..=9` becomes.
        digits: [u8; 10],
    },
}

impl Transform {
    /// The transformation that changes nothing.
    pub const IDENTITY: Transform = Transform {
        transpose: false,
        rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        digits: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    };

    /// A transformation from its parts: transpose first or not, the source row of each result
    /// row, the source column of each result column, and what each digit becomes.
    pub fn new(
        transpose: bool,
        rows: [u8; 9],
        cols: [u8; 9],
        digits: [u8; 10],
    ) -> Result<Transform, TransformError> {
        if !preserves_blocks(&rows) {
            return Err(TransformError::NotBandPreserving {
                what: "rows",
                lines: rows,
            });
        }
        if !preserves_blocks(&cols) {
            return Err(TransformError::NotBandPreserving {
                what: "columns",
                lines: cols,
            });
        }
        let mut seen = 0u16;
        for &d in &digits[1..] {
            seen |= 1 << d;
        }
        if digits[0] != 0 || seen != 0x3FE {
            return Err(TransformError::NotARelabelling { digits });
        }
        Ok(Transform {
            transpose,
            rows,
            cols,
            digits,
        })
    }

    /// Whether the source is transposed before rows and columns are picked.
    pub fn transposes(&self) -> bool {
        self.transpose
    }

    /// The source row of each row of the result (after the transposition, if any).
    pub fn rows(&self) -> [u8; 9] {
        self.rows
    }

    /// The source column of each column of the result (after the transposition, if any).
    pub fn cols(&self) -> [u8; 9] {
        self.cols
    }

    /// What each digit becomes (`digits()[0]` is `0`: blanks stay blank).
    pub fn digits(&self) -> [u8; 10] {
        self.digits
    }

    /// The grid this transformation makes from `grid`.
    pub fn apply(&self, grid: &Grid) -> Grid {
        let source = grid.cells();
        let mut out = [0u8; CELLS];
        for (r, &sr) in self.rows.iter().enumerate() {
            for (c, &sc) in self.cols.iter().enumerate() {
                let (sr, sc) = (sr as usize, sc as usize);
                let from = if self.transpose {
                    sc * 9 + sr
                } else {
                    sr * 9 + sc
                };
                out[r * 9 + c] = self.digits[source[from] as usize];
            }
        }
        Grid::from_cells_trusted(out)
    }

    /// `self` first, then `then`: `self.then(&t).apply(g) == t.apply(&self.apply(g))`.
    pub fn then(&self, then: &Transform) -> Transform {
        // Work on cell maps: the composite takes result cell (r, c) from the cell of `self`'s
        // result that `then` names, which `self` takes from its source.
        let transpose = self.transpose != then.transpose;
        let (mut rows, mut cols) = ([0u8; 9], [0u8; 9]);
        for i in 0..9 {
            // `then` picks line `then.rows[i]` of `self`'s result; with `then` transposing, that
            // is a column of `self`'s result.
            let (r, c) = (then.rows[i] as usize, then.cols[i] as usize);
            if then.transpose {
                rows[i] = self.cols[r];
                cols[i] = self.rows[c];
            } else {
                rows[i] = self.rows[r];
                cols[i] = self.cols[c];
            }
        }
        let mut digits = [0u8; 10];
        for (d, out) in digits.iter_mut().enumerate() {
            *out = then.digits[self.digits[d] as usize];
        }
        Transform {
            transpose,
            rows,
            cols,
            digits,
        }
    }

    /// A transformation drawn uniformly from the whole group (3,359,232 geometric elements
    /// times 9! relabellings) by `rng`.
    pub fn random(rng: &mut SplitMix64) -> Transform {
        let rows = random_block_permutation(rng);
        let cols = random_block_permutation(rng);
        let mut digits = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits[1..]);
        Transform {
            transpose: rng.next_u64() & 1 == 1,
            rows,
            cols,
            digits,
        }
    }

    /// The transformation that undoes this one: `self.then(&self.inverse())` is the
    /// identity.
    pub fn inverse(&self) -> Transform {
        let (mut rows, mut cols, mut digits) = ([0u8; 9], [0u8; 9], [0u8; 10]);
        for (i, (&r, &c)) in self.rows.iter().zip(&self.cols).enumerate() {
            rows[r as usize] = i as u8;
            cols[c as usize] = i as u8;
        }
        for (d, &to) in self.digits.iter().enumerate() {
            digits[to as usize] = d as u8;
        }
        // Transposed first, the source's row `rows[r]` became the result's row `r` from a
        // source column: undoing it, the lines swap roles.
        match self.transpose {
            true => Transform {
                transpose: true,
                rows: cols,
                cols: rows,
                digits,
            },
            false => Transform {
                transpose: false,
                rows,
                cols,
                digits,
            },
        }
    }

    /// The generator that transposes the grid (rows become columns).
    pub fn transposition() -> Transform {
        Transform {
            transpose: true,
            ..Transform::IDENTITY
        }
    }

    /// The generator that swaps rows `a` and `b` of one band (`a / 3 == b / 3`), or, with
    /// `columns`, columns `a` and `b` of one stack.
    ///
    /// # Panics
    /// When `a` and `b` are not in one band (stack).
    pub fn swap_lines(columns: bool, a: usize, b: usize) -> Transform {
        assert!(
            a < 9 && b < 9 && a / 3 == b / 3,
            "lines of one band or stack"
        );
        let mut lines = Transform::IDENTITY.rows;
        lines.swap(a, b);
        Transform::with_lines(columns, lines)
    }

    /// The generator that swaps bands `a` and `b` (`0..3`), or, with `columns`, stacks.
    ///
    /// # Panics
    /// When `a` or `b` is not below 3.
    pub fn swap_blocks(columns: bool, a: usize, b: usize) -> Transform {
        assert!(a < 3 && b < 3, "bands and stacks are 0..3");
        let mut lines = Transform::IDENTITY.rows;
        for i in 0..3 {
            lines.swap(3 * a + i, 3 * b + i);
        }
        Transform::with_lines(columns, lines)
    }

    /// The relabelling `digits` (what each digit `0..=9` becomes), with no geometric change.
    pub fn relabelling(digits: [u8; 10]) -> Result<Transform, TransformError> {
        Transform::new(
            false,
            Transform::IDENTITY.rows,
            Transform::IDENTITY.cols,
            digits,
        )
    }

    fn with_lines(columns: bool, lines: [u8; 9]) -> Transform {
        if columns {
            Transform {
                cols: lines,
                ..Transform::IDENTITY
            }
        } else {
            Transform {
                rows: lines,
                ..Transform::IDENTITY
            }
        }
    }
}

/// The written form of a transformation, 31 characters: `t` (transposed first) or `n`, then
/// after a `:` each the source row of the result's rows 1 to 9, the source column of its
/// columns 1 to 9 (both `0` to `8`, after the transposition), and what digits 1 to 9 become:
/// `n:012345678:012345678:123456789` is the identity.
impl std::fmt::Display for Transform {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let line = |v: &[u8]| v.iter().map(|&x| char::from(b'0' + x)).collect::<String>();
        write!(
            f,
            "{}:{}:{}:{}",
            if self.transpose { 't' } else { 'n' },
            line(&self.rows),
            line(&self.cols),
            line(&self.digits[1..])
        )
    }
}

/// A written transformation that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "transformation '{0}': expected t or n, then the rows, the columns and the digits, nine \
     figures each, separated by ':' (n:012345678:012345678:123456789), moving whole bands and \
     stacks"
)]
pub struct TransformSyntax(pub String);

impl std::str::FromStr for Transform {
    type Err = TransformSyntax;

    fn from_str(s: &str) -> Result<Transform, TransformSyntax> {
        let bad = || TransformSyntax(s.to_string());
        let parts: Vec<&str> = s.split(':').collect();
        let [kind, rows, cols, digits] = parts[..] else {
            return Err(bad());
        };
        let nine = |t: &str, base: u8| -> Result<[u8; 9], TransformSyntax> {
            let bytes = t.as_bytes();
            if bytes.len() != 9
                || !bytes
                    .iter()
                    .all(|b| (base..base + 9).contains(&b.wrapping_sub(b'0')))
            {
                return Err(bad());
            }
            Ok(std::array::from_fn(|i| bytes[i] - b'0'))
        };
        let transpose = match kind {
            "t" => true,
            "n" => false,
            _ => return Err(bad()),
        };
        let to = nine(digits, 1)?;
        let mut all = [0u8; 10];
        all[1..].copy_from_slice(&to);
        Transform::new(transpose, nine(rows, 0)?, nine(cols, 0)?, all).map_err(|_| bad())
    }
}

/// Whether `lines` permutes `0..9` and maps each block of three onto a whole block.
fn preserves_blocks(lines: &[u8; 9]) -> bool {
    let mut seen = 0u16;
    for &l in lines {
        if l >= 9 {
            return false;
        }
        seen |= 1 << l;
    }
    seen == 0x1FF
        && (0..3).all(|b| {
            let block = lines[3 * b] / 3;
            lines[3 * b..3 * b + 3].iter().all(|&l| l / 3 == block)
        })
}

/// A permutation of `0..9` moving whole blocks of three: the blocks shuffled, then the lines
/// within each block.
fn random_block_permutation(rng: &mut SplitMix64) -> [u8; 9] {
    let mut blocks = [0u8, 1, 2];
    rng.shuffle(&mut blocks);
    let mut lines = [0u8; 9];
    for (b, &block) in blocks.iter().enumerate() {
        let mut within = [0u8, 1, 2];
        rng.shuffle(&mut within);
        for i in 0..3 {
            lines[3 * b + i] = 3 * block + within[i];
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_data::SOLUTION;

    #[test]
    fn composition_applies_one_transformation_after_the_other() {
        let grid: Grid = SOLUTION.parse().unwrap();
        let mut rng = SplitMix64::new(11);
        for _ in 0..200 {
            let (a, b) = (Transform::random(&mut rng), Transform::random(&mut rng));
            assert_eq!(a.then(&b).apply(&grid), b.apply(&a.apply(&grid)));
        }
    }

    #[test]
    fn the_inverse_undoes_and_the_written_form_reads_back() {
        let grid: Grid = SOLUTION.parse().unwrap();
        let mut rng = SplitMix64::new(5);
        for _ in 0..200 {
            let t = Transform::random(&mut rng);
            assert_eq!(t.inverse().apply(&t.apply(&grid)), grid);
            assert_eq!(t.then(&t.inverse()), Transform::IDENTITY);
            assert_eq!(t.to_string().parse(), Ok(t));
            assert_eq!(t.to_string().len(), 31);
        }
        assert_eq!(
            Transform::IDENTITY.to_string(),
            "n:012345678:012345678:123456789"
        );
        for bad in [
            "n:012345678:012345678:12345678",
            "x:012345678:012345678:123456789",
            "n:312045678:012345678:123456789",
            "n:012345678:012345678:123456788",
            "n:012345678:012345678:023456789",
            "n:012345678:012345678:123456789:",
        ] {
            assert!(bad.parse::<Transform>().is_err(), "{bad}");
        }
    }

    #[test]
    fn generators_move_what_they_say() {
        let grid: Grid = SOLUTION.parse().unwrap();
        let t = Transform::transposition().apply(&grid);
        assert_eq!(t.get(1), grid.get(9));
        let swapped = Transform::swap_lines(false, 3, 5).apply(&grid);
        assert_eq!(swapped.get(3 * 9 + 4), grid.get(5 * 9 + 4));
        let stacks = Transform::swap_blocks(true, 0, 2).apply(&grid);
        assert_eq!(stacks.get(10), grid.get(16));
        assert_eq!(Transform::IDENTITY.apply(&grid), grid);
    }

    #[test]
    fn parts_that_break_bands_or_digits_are_refused() {
        let id = Transform::IDENTITY;
        let mut rows = id.rows();
        rows.swap(2, 3);
        assert!(matches!(
            Transform::new(false, rows, id.cols(), id.digits()),
            Err(TransformError::NotBandPreserving { what: "rows", .. })
        ));
        let mut digits = id.digits();
        digits[4] = 5;
        assert!(matches!(
            Transform::relabelling(digits),
            Err(TransformError::NotARelabelling { .. })
        ));
        let t = Transform::random(&mut SplitMix64::new(3));
        assert_eq!(
            Transform::new(t.transposes(), t.rows(), t.cols(), t.digits()),
            Ok(t)
        );
    }
}
