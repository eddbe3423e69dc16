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
}

impl<R: BufRead> LineReader<R> {
    /// A reader over `input`, positioned at `options.span.start`.
    pub fn new(input: R, options: &ReadOptions) -> Self {
        LineReader {
            lines: Lines::new(input, options.span.start, MAX_LINE),
            span: options.span,
            want_solution: options.wanted.solution(),
        }
    }
}

impl<R: BufRead + Send> RecordReader for LineReader<R> {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        // Any line may start a record, so the lines before the span are passed over unread.
        if self.lines.position().offset < self.span.from {
            self.lines.skip_to(self.span.from)?;
        }
        while let Some(line) = self.lines.next_line()? {
            let text = line.text.trim_ascii();
            if text.is_empty() || text[0] == b'#' {
                continue;
            }
            if self.span.ends_before(line.offset) {
                return Ok(None);
            }
            let mut record = Record {
                line: line.number,
                offset: line.offset,
                ..Record::default()
            };
            if line.too_long {
                record.defect = Some(Defect::LineTooLong { limit: MAX_LINE });
                return Ok(Some(record));
            }
            let puzzle = puzzle_token(text);
            record.puzzle = puzzle.to_vec();
            if self.want_solution {
                record.solution = fields(&text[puzzle.len()..])
                    .find(|f| f.len() == CELLS && f.iter().all(u8::is_ascii_digit))
                    .map(<[u8]>::to_vec);
            }
            return Ok(Some(record));
        }
        Ok(None)
    }

    fn position(&self) -> Position {
        self.lines.position()
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
