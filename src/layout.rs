//! Which cells form the third kind of unit: the nine 3x3 boxes, or nine free-form regions.
//!
//! Rows and columns are fixed; a [`Layout`] assigns every cell to one of nine regions of nine
//! cells. The standard layout makes the regions the 3x3 boxes. A jigsaw (free-form) layout is
//! written as 81 labels in reading order (`1`-`9`, `a`-`i` or `A`-`I`), nine cells per label.
//!
//! The layout also owns the givens check, the rule every algorithm applies before searching:
//! no digit twice in a row, column or region.

use std::fmt;

use crate::grid::{CELLS, Grid, cell_name, describe_char};

/// The assignment of the 81 cells to nine regions.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    /// Region index `0..9` of each cell, numbered in order of first appearance.
    region: [u8; CELLS],
    /// The label each region was written with (`'1'..='9'` for the standard boxes).
    labels: [u8; 9],
    /// Whether the regions are the 3x3 boxes.
    standard: bool,
}

/// Why a text is not a region layout.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// The text does not hold exactly 81 labels.
    #[error("region layout: expected 81 cells, found {found}")]
    WrongLength {
        /// How many labels were found.
        found: usize,
    },
    /// A character that is not a region label.
    #[error("region layout: label {shown} at {cell}")]
    InvalidLabel {
        /// The character, quoted and escaped.
        shown: String,
        /// The cell, as `r2c5`.
        cell: String,
    },
    /// A region that does not hold exactly nine cells.
    #[error("region layout: region {label} has {cells} cells")]
    WrongSize {
        /// The region's label.
        label: char,
        /// How many cells carry it.
        cells: usize,
    },
}

/// A unit of nine cells, named for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitName {
    /// Row `1..=9`.
    Row(u8),
    /// Column `1..=9`.
    Column(u8),
    /// Standard 3x3 box `1..=9`, in reading order.
    Box(u8),
    /// A free-form region, by its label.
    Region(char),
}

impl fmt::Display for UnitName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitName::Row(n) => write!(f, "row {n}"),
            UnitName::Column(n) => write!(f, "column {n}"),
            UnitName::Box(n) => write!(f, "box {n}"),
            UnitName::Region(c) => write!(f, "region {c}"),
        }
    }
}

/// Two givens of the same digit in one unit: the puzzle is invalid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("digit {digit} twice in {unit}: {} and {}", cell_name(*first), cell_name(*second))]
pub struct Conflict {
    /// The repeated digit.
    pub digit: u8,
    /// The unit holding it twice.
    pub unit: UnitName,
    /// The earlier cell (reading order).
    pub first: usize,
    /// The later cell.
    pub second: usize,
}

/// Index of the 3x3 box holding cell `i`, boxes numbered `0..9` in reading order.
#[inline]
pub const fn box_of(i: usize) -> usize {
    (i / 27) * 3 + (i % 9) / 3
}

impl Layout {
    /// The standard layout: regions are the 3x3 boxes.
    pub fn standard() -> Layout {
        let mut region = [0u8; CELLS];
        for (i, r) in region.iter_mut().enumerate() {
            *r = box_of(i) as u8;
        }
        Layout {
            region,
            labels: *b"123456789",
            standard: true,
        }
    }

    /// Whether a byte is a region label: `1`-`9`, `a`-`i` or `A`-`I`.
    pub fn is_label(b: u8) -> bool {
        matches!(b, b'1'..=b'9' | b'a'..=b'i' | b'A'..=b'I')
    }

    /// Parses 81 region labels in reading order. Whitespace and line breaks anywhere are
    /// ignored, so a layout drawn as nine lines of nine labels reads as one on a single line.
    ///
    /// Labels are `1`-`9`, `a`-`i` or `A`-`I`; there must be nine distinct ones, nine cells
    /// each. A layout equal to the 3x3 boxes is recognised as [`Layout::is_standard`].
    pub fn parse(text: &[u8]) -> Result<Layout, LayoutError> {
        let text = text.trim_ascii();
        let labels_only: Vec<u8>;
        let text = if text.iter().any(u8::is_ascii_whitespace) {
            labels_only = text
                .iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace())
                .collect();
            &labels_only[..]
        } else {
            text
        };
        for (i, &b) in text.iter().enumerate().take(CELLS) {
            if !Layout::is_label(b) {
                return Err(LayoutError::InvalidLabel {
                    shown: describe_char(&text[i..]),
                    cell: cell_name(i),
                });
            }
        }
        if text.len() != CELLS {
            let found = text.iter().filter(|&&b| (b & 0xC0) != 0x80).count();
            return Err(LayoutError::WrongLength { found });
        }
        let mut counts = [0usize; 128];
        for &b in text {
            counts[b as usize] += 1;
        }
        if let Some(b) = (0..128u8).find(|&b| counts[b as usize] != 0 && counts[b as usize] != 9) {
            return Err(LayoutError::WrongSize {
                label: b as char,
                cells: counts[b as usize],
            });
        }
        // Nine cells per label and 81 cells leave exactly nine labels.
        let mut labels = [0u8; 9];
        let mut known = 0;
        let mut region = [0u8; CELLS];
        for (i, &b) in text.iter().enumerate() {
            let index = match labels[..known].iter().position(|&l| l == b) {
                Some(index) => index,
                None => {
                    labels[known] = b;
                    known += 1;
                    known - 1
                }
            };
            region[i] = index as u8;
        }
        let standard = (0..CELLS).all(|i| region[i] as usize == box_of(i));
        Ok(Layout {
            region,
            labels,
            standard,
        })
    }

    /// Whether the regions are the standard 3x3 boxes.
    #[inline]
    pub fn is_standard(&self) -> bool {
        self.standard
    }

    /// Region index `0..9` of cell `i`.
    #[inline]
    pub fn region_of(&self, i: usize) -> usize {
        self.region[i] as usize
    }

    /// The label region `r` was written with.
    pub fn label(&self, r: usize) -> char {
        self.labels[r] as char
    }

    /// How a region is named in messages: `box 3` for the standard layout, `region c` else.
    pub fn region_name(&self, r: usize) -> UnitName {
        if self.standard {
            UnitName::Box(r as u8 + 1)
        } else {
            UnitName::Region(self.label(r))
        }
    }

    /// The layout as 81 labels in reading order.
    pub fn to_line(&self) -> String {
        self.region
            .iter()
            .map(|&r| self.labels[r as usize] as char)
            .collect()
    }

    /// The cells of region `r`, in reading order.
    pub fn cells_of(&self, r: usize) -> [usize; 9] {
        let mut out = [0; 9];
        let mut n = 0;
        for i in 0..CELLS {
            if self.region_of(i) == r {
                out[n] = i;
                n += 1;
            }
        }
        out
    }

    /// Labels of regions whose cells are not all orthogonally connected, in region order.
    pub fn disconnected_regions(&self) -> Vec<char> {
        (0..9u8)
            .filter(|&r| !region_connected(&self.region, r))
            .map(|r| self.label(r.into()))
            .collect()
    }

    /// The givens check: the first digit placed twice in one unit, if any.
    ///
    /// Cells are examined in reading order; for each given, its row, then its column, then its
    /// region is checked against the givens before it, so the reported pair is the first
    /// conflict in reading order.
    pub fn check_givens(&self, grid: &Grid) -> Result<(), Conflict> {
        // Digits seen so far (bit d) per row, column and region: a cheap pass for the
        // common case of no conflict.
        let (mut rows, mut cols, mut regions) = ([0u16; 9], [0u16; 9], [0u16; 9]);
        for (i, &d) in grid.cells().iter().enumerate() {
            if d == 0 {
                continue;
            }
            let bit = 1u16 << d;
            let (row, col, region) = (i / 9, i % 9, self.region_of(i));
            if (rows[row] | cols[col] | regions[region]) & bit != 0 {
                return Err(self.conflict_at(grid, i));
            }
            rows[row] |= bit;
            cols[col] |= bit;
            regions[region] |= bit;
        }
        Ok(())
    }

    /// The conflict of the given at `second` with an earlier one: in its row, else its column,
    /// else its region.
    fn conflict_at(&self, grid: &Grid, second: usize) -> Conflict {
        let digit = grid.get(second);
        let (row, col, region) = (second / 9, second % 9, self.region_of(second));
        let earlier = |in_unit: &dyn Fn(usize) -> bool| {
            (0..second).find(|&j| in_unit(j) && grid.get(j) == digit)
        };
        let found = earlier(&|j| j / 9 == row)
            .map(|first| (UnitName::Row(row as u8 + 1), first))
            .or_else(|| {
                earlier(&|j| j % 9 == col).map(|first| (UnitName::Column(col as u8 + 1), first))
            })
            .or_else(|| {
                earlier(&|j| self.region_of(j) == region)
                    .map(|first| (self.region_name(region), first))
            });
        if let Some((unit, first)) = found {
            return Conflict {
                digit,
                unit,
                first,
                second,
            };
        }
        unreachable!("conflict_at is called only for a given that repeats an earlier one")
    }
}

impl Default for Layout {
    fn default() -> Self {
        Layout::standard()
    }
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layout({})", self.to_line())
    }
}

/// The orthogonal neighbours of cell `i`: up, down, left, right.
pub(crate) fn neighbours(i: usize) -> [Option<usize>; 4] {
    let (row, col) = (i / 9, i % 9);
    [
        (row > 0).then(|| i - 9),
        (row < 8).then(|| i + 9),
        (col > 0).then(|| i - 1),
        (col < 8).then(|| i + 1),
    ]
}

/// Whether the cells of region `r` in `region` (the region of each cell) are orthogonally
/// connected; a region without cells counts as connected.
pub(crate) fn region_connected(region: &[u8; CELLS], r: u8) -> bool {
    let Some(start) = (0..CELLS).find(|&i| region[i] == r) else {
        return true;
    };
    let mut reached = [false; CELLS];
    reached[start] = true;
    let mut stack = vec![start];
    let mut count = 1;
    while let Some(i) = stack.pop() {
        for j in neighbours(i).into_iter().flatten() {
            if !reached[j] && region[j] == r {
                reached[j] = true;
                count += 1;
                stack.push(j);
            }
        }
    }
    count == region.iter().filter(|&&x| x == r).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const STANDARD: &str =
        "111222333111222333111222333444555666444555666444555666777888999777888999777888999";
    const JIGSAW: &str =
        "aaabbbbbbaaabbbcccaaddcccccadddeeecfdddeeeeffdgeefffffggghhhhfiggghhhiiigghhiiiii";

    #[test]
    fn standard_layout_written_out_is_recognised() {
        let layout = Layout::parse(STANDARD.as_bytes()).unwrap();
        assert!(layout.is_standard());
        assert_eq!(layout, Layout::standard());
        let letters = STANDARD.replace('1', "a").replace('5', "E");
        assert!(Layout::parse(letters.as_bytes()).unwrap().is_standard());
    }

    #[test]
    fn a_layout_drawn_as_nine_lines_reads_as_the_same_layout() {
        let drawn: String = (0..9)
            .map(|r| format!("  {} \r\n", &JIGSAW[r * 9..r * 9 + 9]))
            .collect();
        assert_eq!(
            Layout::parse(drawn.as_bytes()).unwrap(),
            Layout::parse(JIGSAW.as_bytes()).unwrap()
        );
        let spaced: String = JIGSAW.chars().flat_map(|c| [c, ' ']).collect();
        assert_eq!(Layout::parse(spaced.as_bytes()).unwrap().to_line(), JIGSAW);
        let short = drawn.replacen('a', "", 1);
        assert_eq!(
            Layout::parse(short.as_bytes()).unwrap_err(),
            LayoutError::WrongLength { found: 80 }
        );
    }

    #[test]
    fn jigsaw_layout_parses() {
        let layout = Layout::parse(JIGSAW.as_bytes()).unwrap();
        assert!(!layout.is_standard());
        assert_eq!(layout.to_line(), JIGSAW);
        assert_eq!(
            layout.region_name(layout.region_of(80)),
            UnitName::Region('i')
        );
    }

    #[test]
    fn bad_layouts_name_the_fault() {
        let mut short = JIGSAW.to_string();
        short.pop();
        assert_eq!(
            Layout::parse(short.as_bytes()).unwrap_err().to_string(),
            "region layout: expected 81 cells, found 80"
        );
        let mut bad = JIGSAW.to_string();
        bad.replace_range(13..14, "x");
        assert_eq!(
            Layout::parse(bad.as_bytes()).unwrap_err().to_string(),
            "region layout: label 'x' at r2c5"
        );
        let mut uneven = JIGSAW.to_string();
        uneven.replace_range(20..21, "a"); // was d
        assert_eq!(
            Layout::parse(uneven.as_bytes()).unwrap_err().to_string(),
            "region layout: region a has 10 cells"
        );
    }

    #[test]
    fn givens_conflicts_name_unit_and_cells() {
        let layout = Layout::standard();
        let mut g = Grid::EMPTY;
        g.set(0, 5);
        g.set(3, 5);
        assert_eq!(
            layout.check_givens(&g).unwrap_err().to_string(),
            "digit 5 twice in row 1: r1c1 and r1c4"
        );
        let mut g = Grid::EMPTY;
        g.set(4, 7);
        g.set(76, 7);
        assert_eq!(
            layout.check_givens(&g).unwrap_err().to_string(),
            "digit 7 twice in column 5: r1c5 and r9c5"
        );
        let mut g = Grid::EMPTY;
        g.set(0, 2);
        g.set(20, 2);
        assert_eq!(
            layout.check_givens(&g).unwrap_err().to_string(),
            "digit 2 twice in box 1: r1c1 and r3c3"
        );
    }

    #[test]
    fn givens_conflict_in_a_region_uses_its_label() {
        let layout = Layout::parse(JIGSAW.as_bytes()).unwrap();
        // r1c7 and r2c4 are both in region b but share no row, column or box.
        let mut g = Grid::EMPTY;
        g.set(6, 5);
        g.set(12, 5);
        assert_eq!(
            layout.check_givens(&g).unwrap_err().to_string(),
            "digit 5 twice in region b: r1c7 and r2c4"
        );
    }

    #[test]
    fn disconnected_regions_are_found() {
        assert!(Layout::standard().disconnected_regions().is_empty());
        // Swap one cell of box 1 with one of box 2 (r1c1 <-> r1c9 is far apart).
        let mut s = STANDARD.as_bytes().to_vec();
        s.swap(0, 8);
        let layout = Layout::parse(&s).unwrap();
        assert_eq!(layout.disconnected_regions(), vec!['3', '1']);
    }
}
