//! The line format: one puzzle per line, its 81 cells first, then optional trailing fields.
//!
//! Blank lines and lines starting with `#` are skipped. The puzzle is the text up to the first
//! separator (whitespace, `,`, `;` or `:`); what follows is trailing fields. When a solution is
//! wanted (verify), it is the first trailing field made of exactly 81 digits, which covers
//! `puzzle solution`, `puzzle,solution` and `puzzle:count:solution`.

use std::io::{self, BufRead};

use super::lines::Lines;
use super::{Defect, MAX_LINE, Position, ReadOptions, Record, RecordReader, Span};
use crate::grid::CELLS;

/// Reads the line format.
pub struct LineReader<R> {
    lines: Lines<R>,
    span: Span,
    want_solution: bool,
    /// Whether records keep their line as it was ([`Record::raw`]).
    raw: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A reader over `input`, positioned at `options.span.start`.
    pub fn new(input: R, options: &ReadOptions) -> Self {
        LineReader {
            lines: Lines::new(input, options.span.start, MAX_LINE).deferred(),
            span: options.span,
            want_solution: options.wanted.solution(),
            raw: options.raw,
        }
    }
}

impl<R: BufRead + Send> RecordReader for LineReader<R> {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        let mut record = Record::default();
        Ok(self.read_into(&mut record)?.then_some(record))
    }

    fn read_into(&mut self, record: &mut Record) -> io::Result<bool> {
        // Any line may start a record, so the lines before the span are passed over unread.
        if self.lines.position().offset < self.span.from {
            self.lines.skip_to(self.span.from)?;
        }
        while let Some(line) = self.lines.next_line()? {
            // The common line, 81 cells alone or followed by a separator, needs no trimming
            // and no search for the token's end.
            let plain = plain_puzzle(line.text);
            let text = match plain {
                Some(_) => line.text,
                None => line.text.trim_ascii(),
            };
            if text.is_empty() || text[0] == b'#' {
                continue;
            }
            if self.span.ends_before(line.offset) {
                return Ok(false);
            }
            let spare = record.restart(line.number, line.offset);
            if self.raw && !line.too_long {
                record.raw = Some(super::raw_line(spare.raw, line.text));
            }
            if line.too_long {
                record.defect = Some(Defect::LineTooLong { limit: MAX_LINE });
                return Ok(true);
            }
            // Only a line with more than its puzzle can hide one; those at its end are spaces.
            if text.len() > CELLS && memchr::memchr(b'\r', text.trim_ascii_end()).is_some() {
                record.defect = Some(Defect::CarriageReturn);
                return Ok(true);
            }
            let puzzle = plain.unwrap_or_else(|| puzzle_token(text));
            record.puzzle.extend_from_slice(puzzle);
            if self.want_solution {
                record.solution = fields(&text[puzzle.len()..])
                    .find(|f| f.len() == CELLS && f.iter().all(u8::is_ascii_digit))
                    .map(|f| super::refilled(spare.solution, f));
            }
            return Ok(true);
        }
        Ok(false)
    }

    fn position(&self) -> Position {
        self.lines.position()
    }

    fn settle(&mut self) {
        self.lines.settle();
    }
}

/// Whether a byte separates the fields of a line.
fn is_separator(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b',' | b';' | b':')
}

/// The puzzle at the start of a trimmed line: everything up to the first separator.
pub(crate) fn puzzle_token(line: &[u8]) -> &[u8] {
    let end = line
        .iter()
        .position(|&b| is_separator(b))
        .unwrap_or(line.len());
    &line[..end]
}

/// The first 81 bytes of `line` when they are the whole puzzle token and every one of them lies
/// in `.` to `9` (`.`, `/` and the digits, none of them a separator, blank or `#`), which holds for
/// nearly every line of a puzzle file: the line starts with the token, and the token ends there
/// (end of line or a separator). `None` sends the line the careful way ([`puzzle_token`] after
/// trimming), which gives the same token for these lines.
///
/// Eight bytes at a time: per byte `b` of a word `w`, `b + 0x52` has its high bit exactly when
/// `b >= '.'` and `b + 0x46` exactly when `b >= ':'`, for bytes without the high bit; a byte with
/// the high bit fails the word through `!w`, and only such a byte can carry into the next one.
fn plain_puzzle(line: &[u8]) -> Option<&[u8]> {
    const fn lanes(byte: u8) -> u64 {
        u64::from_ne_bytes([byte; 8])
    }
    const HIGH: u64 = lanes(0x80);
    let puzzle: &[u8; CELLS] = line.get(..CELLS)?.try_into().ok()?;
    if line.get(CELLS).is_some_and(|&b| !is_separator(b)) {
        return None;
    }
    let mut good = HIGH;
    for chunk in puzzle.chunks_exact(8) {
        let w = u64::from_ne_bytes(chunk.try_into().expect("eight bytes"));
        good &= !w & w.wrapping_add(lanes(0x52)) & !w.wrapping_add(lanes(0x46));
    }
    let last = puzzle[CELLS - 1];
    (good == HIGH && (b'.'..=b'9').contains(&last)).then_some(puzzle)
}

/// The non-empty fields of `text`.
fn fields(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    text.split(|&b| is_separator(b)).filter(|f| !f.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_data::{PUZZLE, SOLUTION};

    fn read(input: &str, want_solution: bool) -> Vec<Record> {
        let options = ReadOptions {
            wanted: if want_solution {
                super::super::Wanted::PuzzleAndSolution
            } else {
                super::super::Wanted::Puzzle
            },
            ..ReadOptions::default()
        };
        let mut reader = LineReader::new(input.as_bytes(), &options);
        let mut out = Vec::new();
        while let Some(r) = reader.next_record().unwrap() {
            out.push(r);
        }
        out
    }

    #[test]
    fn skips_blank_and_comment_lines_and_keeps_line_numbers() {
        let input = format!("# title\n\n  {PUZZLE}  \r\n   \n{PUZZLE} trailing stuff");
        let records = read(&input, false);
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].line, 3);
        assert_eq!(records[0].puzzle, PUZZLE.as_bytes());
        assert_eq!(records[1].line, 5);
        assert_eq!(records[1].puzzle, PUZZLE.as_bytes());
        assert_eq!(records[1].solution, None);
    }

    #[test]
    fn finds_the_solution_in_every_layout() {
        for line in [
            format!("{PUZZLE} {SOLUTION}"),
            format!("{PUZZLE},{SOLUTION}"),
            format!("{PUZZLE}:1:{SOLUTION}"),
            format!("{PUZZLE};  {SOLUTION}\t# note"),
        ] {
            let records = read(&line, true);
            assert_eq!(records[0].puzzle, PUZZLE.as_bytes(), "{line}");
            assert_eq!(
                records[0].solution.as_deref(),
                Some(SOLUTION.as_bytes()),
                "{line}"
            );
        }
        assert_eq!(read(&format!("{PUZZLE}:1"), true)[0].solution, None);
    }

    #[test]
    fn a_reused_record_reads_as_a_fresh_one() {
        let input = format!(
            "{PUZZLE} {SOLUTION}\n{}\n12345\n{PUZZLE}\n",
            "1".repeat(MAX_LINE + 1)
        );
        let options = ReadOptions {
            wanted: super::super::Wanted::PuzzleAndSolution,
            ..ReadOptions::default()
        };
        let fresh = {
            let mut reader = LineReader::new(input.as_bytes(), &options);
            std::iter::from_fn(|| reader.next_record().unwrap()).collect::<Vec<_>>()
        };
        assert_eq!(fresh.len(), 4);
        let stale = Record {
            kept: vec![b"old".to_vec()],
            regions: Some(b"old".to_vec()),
            ..fresh[0].clone()
        };
        let mut reader = LineReader::new(input.as_bytes(), &options);
        super::super::assert_reads_as_fresh(&mut reader, stale, &fresh);
    }

    #[test]
    fn the_plain_token_is_the_careful_token() {
        let cells = |fill: &str| fill.repeat(CELLS);
        let lines = [
            cells("."),
            cells("9"),
            cells("/"),
            PUZZLE.to_string(),
            format!("{PUZZLE} x"),
            format!("{PUZZLE},{SOLUTION}"),
            format!("{PUZZLE}:1"),
            format!("{PUZZLE}\t"),
            format!("{PUZZLE}0"),
            format!("{PUZZLE}#"),
            format!(" {PUZZLE}"),
            format!("{}_", &PUZZLE[..80]),
            format!("{}:{}", &PUZZLE[..40], &PUZZLE[41..]),
            format!("{}-{}", &PUZZLE[..70], &PUZZLE[71..]),
            format!("{}\u{e9}{}", &PUZZLE[..7], &PUZZLE[9..]),
            PUZZLE[..80].to_string(),
        ];
        for line in &lines {
            let careful = puzzle_token(line.as_bytes().trim_ascii());
            if let Some(plain) = plain_puzzle(line.as_bytes()) {
                assert_eq!(plain, careful, "{line}");
            }
        }
        let plain = |line: &String| plain_puzzle(line.as_bytes()).is_some();
        assert_eq!(
            lines.iter().map(plain).collect::<Vec<_>>(),
            [
                true, true, true, true, true, true, true, true, false, false, false, false, false,
                false, false, false
            ]
        );
    }

    #[test]
    fn a_short_puzzle_is_kept_as_found() {
        let records = read("12345,678", false);
        assert_eq!(records[0].puzzle, b"12345");
    }

    #[test]
    fn a_too_long_line_is_a_defect_and_reading_goes_on() {
        let input = format!("{}\n{PUZZLE}\n", "1".repeat(MAX_LINE + 10));
        let records = read(&input, false);
        assert_eq!(
            records[0].defect,
            Some(Defect::LineTooLong { limit: MAX_LINE })
        );
        assert!(records[0].puzzle.is_empty());
        assert_eq!(records[1].line, 2);
        assert_eq!(records[1].puzzle, PUZZLE.as_bytes());
    }

    #[test]
    fn a_carriage_return_inside_a_line_is_a_defect_not_trailing_text() {
        // Line ends of `\r` alone from line 2 on: the puzzles behind it are not dropped unseen.
        let input = format!("{PUZZLE}\r\n{PUZZLE}\r{PUZZLE}\r\n{PUZZLE} 3\r\r\n{PUZZLE}\n");
        let records = read(&input, false);
        assert_eq!(records.len(), 4);
        assert_eq!(records[0].defect, None);
        assert_eq!(records[1].defect, Some(Defect::CarriageReturn));
        assert!(records[1].puzzle.is_empty());
        // Carriage returns at the end of a line (a conversion done twice) are spaces.
        assert_eq!(records[2].defect, None);
        assert_eq!(records[3].defect, None);
    }

    #[test]
    fn stops_at_the_end_of_the_span() {
        let input = format!("{PUZZLE}\n\n{PUZZLE}\n{PUZZLE}\n");
        let options = ReadOptions {
            span: Span {
                end: Some(84),
                ..Span::default()
            },
            ..ReadOptions::default()
        };
        let mut reader = LineReader::new(input.as_bytes(), &options);
        assert_eq!(reader.next_record().unwrap().unwrap().line, 1);
        assert_eq!(reader.next_record().unwrap().unwrap().line, 3);
        assert!(reader.next_record().unwrap().is_none());
    }
}
