//! The grid format: a puzzle written as nine rows of nine cells, puzzles separated by blank lines.
//!
//! Spaces, tabs and the separators `|`, `-` and `+` are ignored, so boxed drawings read as they
//! are; lines holding only separators are skipped, and so are `#` comments. A puzzle ends at a
//! blank line or as soon as it holds 81 cells, which also reads 81 whitespace-separated numbers
//! with `0` for blank (the input of textbook solvers), one puzzle after another. A puzzle that
//! ends with another count of cells is kept as found and reported by the grid parser. A line
//! longer than [`MAX_LINE`] ends the puzzle it is in, which is invalid; reading goes on with
//! the next line.

use std::io::{self, BufRead};

use super::lines::Lines;
use super::{Defect, MAX_LINE, Position, ReadOptions, Record, RecordReader, Span};
use crate::grid::CELLS;

/// Reads the grid format.
pub struct GridReader<R> {
    lines: Lines<R>,
    span: Span,
}

impl<R: BufRead> GridReader<R> {
    /// A reader over `input`, positioned at `options.span.start`.
    pub fn new(input: R, options: &ReadOptions) -> Self {
        GridReader {
            lines: Lines::new(input, options.span.start, MAX_LINE),
            span: options.span,
        }
    }
}

/// Whether a byte only decorates a grid.
pub(crate) fn is_separator(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'|' | b'-' | b'+')
}

impl<R: BufRead> GridReader<R> {
    /// The next record, whatever the span's `from`.
    fn next_any(&mut self) -> io::Result<Option<Record>> {
        let mut record: Option<Record> = None;
        while let Some(line) = self.lines.next_line()? {
            let text = line.text.trim_ascii();
            if text.is_empty() {
                match record {
                    Some(record) => return Ok(Some(record)),
                    None => continue,
                }
            }
            if text[0] == b'#' {
                continue;
            }
            let has_cells = text.iter().any(|&b| !is_separator(b));
            if !has_cells && !line.too_long {
                continue;
            }
            let current = match &mut record {
                Some(current) => current,
                None => {
                    if self.span.ends_before(line.offset) {
                        return Ok(None);
                    }
                    record.insert(Record {
                        line: line.number,
                        offset: line.offset,
                        ..Record::default()
                    })
                }
            };
            if line.too_long {
                // Its cells are not all kept; there are more than 81 unless it is nearly all
                // separators, so it ends its puzzle as an over-full line does, and the next line
                // starts the next puzzle.
                current.defect = Some(Defect::LineTooLong { limit: MAX_LINE });
                current.puzzle.clear();
                return Ok(record);
            }
            current
                .puzzle
                .extend(text.iter().copied().filter(|&b| !is_separator(b)));
            if current.puzzle.len() >= CELLS {
                return Ok(record);
            }
        }
        Ok(record)
    }
}

impl<R: BufRead + Send> RecordReader for GridReader<R> {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        // Whether a line starts a puzzle depends on the lines before it (a blank line, or 81
        // cells completed): records before the span are read to find where the next starts.
        loop {
            match self.next_any()? {
                Some(record) if self.span.starts_after(record.offset) => continue,
                other => return Ok(other),
            }
        }
    }

    fn position(&self) -> Position {
        self.lines.position()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_data::PUZZLE;

    fn read(input: &str) -> Vec<Record> {
        let mut reader = GridReader::new(input.as_bytes(), &ReadOptions::default());
        let mut out = Vec::new();
        while let Some(r) = reader.next_record().unwrap() {
            out.push(r);
        }
        out
    }

    fn rows(puzzle: &str) -> Vec<&str> {
        (0..9).map(|r| &puzzle[r * 9..r * 9 + 9]).collect()
    }

    #[test]
    fn plain_rows_separated_by_blank_lines() {
        let grid = rows(PUZZLE).join("\n");
        let input = format!("# two puzzles\n{grid}\n\n\n{grid}\n");
        let records = read(&input);
        assert_eq!(records.len(), 2);
        assert_eq!((records[0].line, records[1].line), (2, 13));
        assert!(records.iter().all(|r| r.puzzle == PUZZLE.as_bytes()));
    }

    #[test]
    fn boxed_drawing_with_separators() {
        let mut text = String::new();
        for (r, row) in rows(PUZZLE).iter().enumerate() {
            if r % 3 == 0 && r > 0 {
                text.push_str("------+-------+------\r\n");
            }
            let cells: Vec<String> = row.chars().map(|c| c.to_string()).collect();
            text.push_str(&format!(
                "{} | {} | {}\r\n",
                cells[0..3].join(" "),
                cells[3..6].join(" "),
                cells[6..9].join(" ")
            ));
        }
        let records = read(&text);
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].puzzle, PUZZLE.as_bytes());
    }

    #[test]
    fn numbers_with_zero_blanks_back_to_back() {
        let numbers: Vec<String> = PUZZLE
            .replace('.', "0")
            .chars()
            .map(|c| c.to_string())
            .collect();
        // Puzzle 1 as nine lines of nine numbers, puzzle 2 on one line, no blank line between.
        let mut text: String = numbers.chunks(9).map(|row| row.join(" ") + "\n").collect();
        text.push_str(&numbers.join(" "));
        let records = read(&text);
        assert_eq!(records.len(), 2);
        assert_eq!((records[0].line, records[1].line), (1, 10));
        assert!(
            records
                .iter()
                .all(|r| r.puzzle == PUZZLE.replace('.', "0").as_bytes())
        );
    }

    #[test]
    fn a_short_grid_ends_at_the_blank_line() {
        let grid = rows(PUZZLE)[..8].join("\n");
        let records = read(&format!("{grid}\n\n{PUZZLE}"));
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].puzzle.len(), 72);
        assert_eq!(records[1].line, 10);
    }

    #[test]
    fn a_too_long_line_ends_its_puzzle_and_the_next_line_starts_the_next() {
        // Scanner style: 81 numbers a line, no blank line anywhere.
        let numbers = |p: &str| {
            p.replace('.', "0")
                .chars()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let long = "1 ".repeat(MAX_LINE);
        let mut text = format!("{}\n{long}\n", numbers(PUZZLE));
        for _ in 0..5 {
            text.push_str(&numbers(PUZZLE));
            text.push('\n');
        }
        let records = read(&text);
        let lines: Vec<u64> = records.iter().map(|r| r.line).collect();
        assert_eq!(lines, [1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(
            records[1].defect,
            Some(Defect::LineTooLong { limit: MAX_LINE })
        );
        assert!(
            records
                .iter()
                .all(|r| r.line == 2 || r.puzzle.len() == CELLS)
        );
        // In the middle of a nine-line grid: the rows before it go with it, the rows after it
        // are the next record.
        let grid = rows(PUZZLE);
        let text = format!(
            "{}\n{long}\n{}\n\n{}\n",
            grid[..3].join("\n"),
            grid[3..].join("\n"),
            grid.join("\n")
        );
        let records = read(&text);
        let lines: Vec<u64> = records.iter().map(|r| r.line).collect();
        assert_eq!(lines, [1, 5, 12]);
        assert!(records[0].defect.is_some());
        assert_eq!(records[1].puzzle.len(), 54);
        assert_eq!(records[2].puzzle, PUZZLE.as_bytes());
    }

    #[test]
    fn a_too_long_line_spoils_its_puzzle_only() {
        let grid = rows(PUZZLE).join("\n");
        let long = "1".repeat(MAX_LINE + 1);
        let records = read(&format!("{long}\n\n{grid}\n"));
        assert_eq!(
            records[0].defect,
            Some(Defect::LineTooLong { limit: MAX_LINE })
        );
        assert_eq!(records[1].puzzle, PUZZLE.as_bytes());
        assert_eq!(records[1].line, 3);
    }
}
