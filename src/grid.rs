//! The 9x9 grid shared by every part of the crate, and parsing of one puzzle written as 81 cells.
//!
//! A [`Grid`] is plain data: 81 cells in reading order (left to right, top to bottom), each `0`
//! for blank or a digit `1..=9`. It knows nothing of rules; [`crate::layout`] says which cells
//! form units and [`crate::layout::Layout::check_givens`] says whether the givens conflict.

use std::fmt;
use std::str::FromStr;

/// Number of cells in a grid.
pub const CELLS: usize = 81;

/// A 9x9 Sudoku grid: 81 cells in reading order, `0` for blank, `1..=9` for a digit.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; CELLS],
}

/// Why a text could not be read as 81 cells.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The text does not hold exactly 81 cells.
    #[error("expected 81 cells, found {found}")]
    WrongLength {
        /// How many cells were found (characters after trimming surrounding whitespace).
        found: usize,
    },
    /// A character that is neither a digit nor a blank marker.
    #[error("invalid character {shown} at row {row}, column {col}")]
    InvalidChar {
        /// The character, quoted and escaped so that control bytes never reach a terminal.
        shown: String,
        /// 1-based row of the offending cell.
        row: usize,
        /// 1-based column of the offending cell.
        col: usize,
    },
}

impl Grid {
    /// The empty grid: every cell blank.
    pub const EMPTY: Grid = Grid { cells: [0; CELLS] };

    /// A grid from 81 values, each `0..=9`.
    ///
    /// # Panics
    /// When a value is above 9.
    pub fn from_cells(cells: [u8; CELLS]) -> Grid {
        assert!(cells.iter().all(|&v| v <= 9), "cell values must be 0..=9");
        Grid { cells }
    }

    /// A grid from 81 values known to be `0..=9` (checked in debug builds only).
    #[inline]
    pub(crate) fn from_cells_trusted(cells: [u8; CELLS]) -> Grid {
        debug_assert!(cells.iter().all(|&v| v <= 9));
        Grid { cells }
    }

    /// Parses one puzzle written as 81 cells: `1`-`9` are givens, `.`, `0`, `_` and `*` blanks.
    ///
    /// Surrounding ASCII whitespace is ignored. The bytes need not be UTF-8: a byte that is not
    /// a cell is reported escaped, with its row and column.
    pub fn parse(text: &[u8]) -> Result<Grid, ParseError> {
        let text = text.trim_ascii();
        // The common case, 81 good cells, in one branch-free pass; anything else takes the
        // careful pass below, which finds what is wrong.
        if let Ok(text) = <&[u8; CELLS]>::try_from(text)
            && let Some(cells) = cells_of(text)
        {
            return Ok(Grid { cells });
        }
        let mut cells = [0u8; CELLS];
        for (i, &b) in text.iter().enumerate() {
            let value = match b {
                b'1'..=b'9' => b - b'0',
                b'.' | b'0' | b'_' | b'*' => 0,
                _ => {
                    if i >= CELLS {
                        break;
                    }
                    return Err(ParseError::InvalidChar {
                        shown: describe_char(&text[i..]),
                        row: i / 9 + 1,
                        col: i % 9 + 1,
                    });
                }
            };
            if i < CELLS {
                cells[i] = value;
            }
        }
        if text.len() != CELLS {
            return Err(ParseError::WrongLength {
                found: count_chars(text),
            });
        }
        Ok(Grid { cells })
    }

    /// The value of cell `i` (reading order): `0` for blank, else the digit.
    #[inline]
    pub fn get(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// Sets cell `i` to `value` (`0` clears it).
    ///
    /// # Panics
    /// When `value` is above 9 or `i` is not below 81.
    #[inline]
    pub fn set(&mut self, i: usize, value: u8) {
        assert!(value <= 9, "cell values must be 0..=9");
        self.cells[i] = value;
    }

    /// All 81 values in reading order.
    #[inline]
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// How many cells hold a digit.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell holds a digit.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The grid as 81 characters, `.` for blank.
    pub fn to_line(&self) -> String {
        self.to_string()
    }

    /// Writes the 81 characters into `out` (`.` for blank) without allocating.
    pub fn write_line(&self, out: &mut [u8; CELLS]) {
        for (o, &v) in out.iter_mut().zip(&self.cells) {
            *o = if v == 0 { b'.' } else { b'0' + v };
        }
    }
}

impl Default for Grid {
    fn default() -> Self {
        Grid::EMPTY
    }
}

impl FromStr for Grid {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Grid::parse(s.as_bytes())
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = [0u8; CELLS];
        self.write_line(&mut line);
        // The bytes are ASCII digits and dots.
        f.write_str(std::str::from_utf8(&line).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

/// The 81 cells of `text`; `None` when a byte is not a cell. Sixteen bytes at a time with SSE2
/// on x86-64 ([`parse_cells_sse2`]), eight at a time in a word elsewhere ([`parse_cells`]).
#[inline]
fn cells_of(text: &[u8; CELLS]) -> Option<[u8; CELLS]> {
    // SAFETY: SSE2 is part of every x86-64 processor; the function does nothing else unsafe.
    #[cfg(target_arch = "x86_64")]
    return unsafe { parse_cells_sse2(text) };
    #[cfg(not(target_arch = "x86_64"))]
    return parse_cells(text);
}

/// [`parse_cells`] sixteen bytes at a time (SSE2 is part of every x86-64 processor): per byte
/// `b`, `d = b - '0'` (wrapping) is a digit exactly when `min(d, 9) == d` unsigned; a blank
/// marker is a byte equal to `.`, `_` or `*`; the value is `d` for a digit, 0 for a blank. The
/// text is copied into 96 bytes padded with `.`, so that the last vector is whole.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn parse_cells_sse2(text: &[u8; CELLS]) -> Option<[u8; CELLS]> {
    use std::arch::x86_64::*;
    let mut padded = [b'.'; 96];
    padded[..CELLS].copy_from_slice(text);
    let mut cells = [0u8; 96];
    let mut bad = 0;
    let byte = |b: u8| _mm_set1_epi8(b as i8);
    for (out, chunk) in cells.chunks_exact_mut(16).zip(padded.chunks_exact(16)) {
        let half = |i: usize| i64::from_le_bytes(chunk[i..i + 8].try_into().expect("eight bytes"));
        let v = _mm_set_epi64x(half(8), half(0));
        let d = _mm_sub_epi8(v, byte(b'0'));
        let digit = _mm_cmpeq_epi8(_mm_min_epu8(d, byte(9)), d);
        let blank = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, byte(b'.')), _mm_cmpeq_epi8(v, byte(b'_'))),
            _mm_cmpeq_epi8(v, byte(b'*')),
        );
        bad |= _mm_movemask_epi8(_mm_or_si128(digit, blank)) ^ 0xFFFF;
        let value = _mm_and_si128(d, digit);
        out[..8].copy_from_slice(&_mm_cvtsi128_si64(value).to_le_bytes());
        out[8..]
            .copy_from_slice(&_mm_cvtsi128_si64(_mm_unpackhi_epi64(value, value)).to_le_bytes());
    }
    (bad == 0).then(|| cells[..CELLS].try_into().expect("81 cells"))
}

/// The 81 cells of `text`, eight bytes at a time; `None` when a byte is not a cell.
///
/// Per byte `b` of a word (`lanes` sets one value in every byte): a digit `0`-`9` has no high
/// bit, `b + 0x50` has its high bit (`b >= '0'`) and `b + 0x46` has not (`b <= '9'`); only a
/// byte with the high bit can carry into the next byte, and such a byte already fails the whole
/// text. A blank marker is a byte equal to `.`, `_` or `*`,
/// found exactly by `((x & 0x7F) + 0x7F) | x` having no high bit where `x = b ^ marker` is 0.
/// The value of a digit byte is `(b | 0x80) - '0'` (no borrow) cut to its low four bits.
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
fn parse_cells(text: &[u8; CELLS]) -> Option<[u8; CELLS]> {
    const fn lanes(byte: u8) -> u64 {
        u64::from_ne_bytes([byte; 8])
    }
    const HIGH: u64 = lanes(0x80);
    let zero = |x: u64| !((((x & !HIGH) + !HIGH) | x) & HIGH) & HIGH;
    let mut cells = [0u8; CELLS];
    let mut good = HIGH;
    for (out, chunk) in cells.chunks_exact_mut(8).zip(text.chunks_exact(8)) {
        let w = u64::from_ne_bytes(chunk.try_into().expect("eight bytes"));
        let digit = !w & w.wrapping_add(lanes(0x50)) & !w.wrapping_add(lanes(0x46)) & HIGH;
        let blank = zero(w ^ lanes(b'.')) | zero(w ^ lanes(b'_')) | zero(w ^ lanes(b'*'));
        good &= digit | blank;
        let value = ((w | HIGH) - lanes(b'0')) & lanes(0x0F) & ((digit >> 7) * 0x0F);
        out.copy_from_slice(&value.to_ne_bytes());
    }
    let last = text[CELLS - 1];
    let (d, ok) = match last {
        b'0'..=b'9' => (last - b'0', true),
        b'.' | b'_' | b'*' => (0, true),
        _ => (0, false),
    };
    cells[CELLS - 1] = d;
    (good == HIGH && ok).then_some(cells)
}

/// A cell's name in the `r1c1` notation (1-based row and column).
pub fn cell_name(i: usize) -> String {
    format!("r{}c{}", i / 9 + 1, i % 9 + 1)
}

/// Quotes the character at the start of `bytes` for a message: printable characters as
/// `'x'`, control characters and bytes that are not UTF-8 escaped (`'\u{0}'`, `'\xff'`).
pub fn describe_char(bytes: &[u8]) -> String {
    let len = utf8_len(bytes[0]).min(bytes.len());
    match std::str::from_utf8(&bytes[..len])
        .ok()
        .and_then(|s| s.chars().next())
    {
        Some(c) => format!("'{}'", c.escape_debug()),
        None => format!("'\\x{:02x}'", bytes[0]),
    }
}

/// Characters in `bytes`, counting each UTF-8 sequence once and each stray byte once.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xF7 => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn parses_every_blank_marker_and_round_trips() {
        let g: Grid = PUZZLE.parse().unwrap();
        assert_eq!(g.to_line(), PUZZLE);
        let other = PUZZLE
            .replacen('.', "0", 3)
            .replacen('.', "_", 3)
            .replacen('.', "*", 3);
        assert_eq!(other.parse::<Grid>().unwrap(), g);
        assert_eq!(g.filled(), 17);
    }

    #[test]
    fn ignores_surrounding_whitespace() {
        let padded = format!("  {PUZZLE}\r\n");
        assert_eq!(padded.parse::<Grid>().unwrap().to_line(), PUZZLE);
    }

    #[test]
    fn wrong_length_says_how_many_cells() {
        let err = PUZZLE[..80].parse::<Grid>().unwrap_err();
        assert_eq!(err.to_string(), "expected 81 cells, found 80");
        let err = format!("{PUZZLE}1").parse::<Grid>().unwrap_err();
        assert_eq!(err.to_string(), "expected 81 cells, found 82");
    }

    #[test]
    fn invalid_character_names_row_and_column() {
        let mut s = PUZZLE.to_string();
        s.replace_range(36..37, "x");
        let err = s.parse::<Grid>().unwrap_err();
        assert_eq!(err.to_string(), "invalid character 'x' at row 5, column 1");
    }

    #[test]
    fn control_and_non_utf8_bytes_are_escaped() {
        let mut bytes = PUZZLE.as_bytes().to_vec();
        bytes[3] = 0;
        let err = Grid::parse(&bytes).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid character '\\0' at row 1, column 4"
        );
        bytes[3] = 0xff;
        let err = Grid::parse(&bytes).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid character '\\xff' at row 1, column 4"
        );
    }

    /// The cell rule for one byte: its value, or `None` when it is not a cell.
    fn cell_rule(b: u8) -> Option<u8> {
        match b {
            b'1'..=b'9' => Some(b - b'0'),
            b'.' | b'0' | b'_' | b'*' => Some(0),
            _ => None,
        }
    }

    #[test]
    fn every_byte_in_every_place_follows_the_cell_rule() {
        // Every byte value at every cell, alone and after every byte with the high bit (which
        // may carry into its neighbour in the eight-byte pass), in a text of good cells.
        let base: Vec<u8> = (0..CELLS).map(|i| b"123456789.0_*"[i % 13]).collect();
        let expected =
            |text: &[u8]| -> Option<Vec<u8>> { text.iter().map(|&b| cell_rule(b)).collect() };
        for pos in 0..CELLS {
            for b in 0..=255u8 {
                let mut text = base.clone();
                text[pos] = b;
                if b.is_ascii_whitespace() && (pos == 0 || pos == CELLS - 1) {
                    continue;
                }
                let parsed = Grid::parse(&text).ok().map(|g| g.cells().to_vec());
                assert_eq!(parsed, expected(&text), "byte {b:#x} at {pos}");
                if pos > 0 {
                    for high in 0x80..=0xFFu8 {
                        text[pos - 1] = high;
                        assert!(
                            Grid::parse(&text).is_err(),
                            "{high:#x} then {b:#x} at {pos}"
                        );
                    }
                }
            }
        }
    }

    proptest::proptest! {
        /// The fast pass and the careful pass agree: a text parses iff it is 81 cells, and
        /// each cell gets its value.
        #[test]
        fn parsing_matches_the_cell_rules(text in proptest::collection::vec(
            proptest::sample::select(b"123456789.0_*x \xff".to_vec()), 79..=83)
        ) {
            let trimmed = text.trim_ascii();
            let expected: Option<Vec<u8>> = (trimmed.len() == CELLS)
                .then(|| trimmed.iter().map(|&b| match b {
                    b'1'..=b'9' => Some(b - b'0'),
                    b'.' | b'0' | b'_' | b'*' => Some(0),
                    _ => None,
                }).collect::<Option<Vec<u8>>>())
                .flatten();
            let parsed = Grid::parse(&text).ok().map(|g| g.cells().to_vec());
            proptest::prop_assert_eq!(parsed, expected);
        }

        /// The word-at-a-time pass and the one of this processor agree on 81 bytes, mostly
        /// cells (so that both accept often), sometimes a byte that is not.
        #[test]
        fn both_fast_passes_agree(text in proptest::collection::vec(
            proptest::sample::select(b"1234567899.0_*.1234567899.0_*/:x\xff".to_vec()), CELLS)
        ) {
            let text: &[u8; CELLS] = text.as_slice().try_into().unwrap();
            proptest::prop_assert_eq!(cells_of(text), parse_cells(text));
        }
    }

    #[test]
    fn every_cell_byte_reads_alone_and_others_fail() {
        for b in 0..=255u8 {
            let mut text = [b'5'; CELLS];
            for i in [0, 15, 16, 79, 80] {
                text[i] = b;
                assert_eq!(cells_of(&text), parse_cells(&text), "byte {b} at {i}");
            }
            let expected = match b {
                b'0'..=b'9' => Some(b - b'0'),
                b'.' | b'_' | b'*' => Some(0),
                _ => None,
            };
            assert_eq!(cells_of(&text).map(|c| c[80]), expected, "byte {b}");
        }
    }
}
