//! The verify job: is the proposed solution of each record right (and, with `--unique`, the only
//! one)?

use super::error::SolverBug;
use crate::format::columns::ColumnKind;
use crate::format::{Cell, Record, RecordReader};
use crate::grid::{CELLS, Grid};
use crate::layout::Layout;
use crate::solver::{self, Algorithm, SolveOptions, Status};

use super::VerifyOptions;
use crate::row::{Status as _, VerifyStatus};

/// The columns every verify row has (after `file`).
pub(crate) const COLUMNS: &[&str] = &["line", "status", "error"];

/// The type of each of [`COLUMNS`].
pub(crate) const KINDS: &[ColumnKind] = &[ColumnKind::Count, ColumnKind::Text, ColumnKind::Text];
/// The column of the puzzle, after [`COLUMNS`], unless the user keeps columns of their own.
pub(crate) const PUZZLE: &str = "puzzle";

/// The columns of a `solve` output read with every record, when the input has them
/// ([`crate::format::ReadOptions::optional`]): its `line` and `file`.
pub(crate) const ORIGIN_COLUMNS: [&str; 2] = ["line", "file"];

/// Where a verify row's record came from, when the input is the output of `solve`: which of its
/// columns the rows carry as `original_line` and `original_file`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Original {
    /// The input is not a `solve` output.
    #[default]
    None,
    /// A `solve` output of one input: its `line`.
    Line,
    /// A `solve` output of several inputs: its `line` and `file`.
    LineAndFile,
}

impl Original {
    /// What an input read by `reader` holds: a `solve` output has a `line` and a `status`
    /// column (and `file` when it was made from several inputs).
    pub(crate) fn of(reader: &dyn RecordReader) -> Original {
        if !(reader.has_column("line") && reader.has_column("status")) {
            Original::None
        } else if reader.has_column("file") {
            Original::LineAndFile
        } else {
            Original::Line
        }
    }

    /// The columns it adds, in order.
    pub(crate) fn columns(self) -> &'static [&'static str] {
        match self {
            Original::None => &[],
            Original::Line => &["original_line"],
            Original::LineAndFile => &["original_file", "original_line"],
        }
    }
}

/// The result for one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VerifyRow {
    pub status: VerifyStatus,
    /// The puzzle, when it could be read.
    pub puzzle: Option<Grid>,
    /// Why the record is not `ok`.
    pub error: Option<String>,
}

impl VerifyRow {
    fn new(status: VerifyStatus, puzzle: Option<Grid>, error: impl ToString) -> Self {
        VerifyRow {
            status,
            puzzle,
            error: Some(error.to_string()),
        }
    }

    /// The row's cells: [`COLUMNS`], then the puzzle when `puzzle` is set (`text` holds it
    /// written out), then the `original` columns from `record`'s optional values
    /// ([`ORIGIN_COLUMNS`] order).
    pub fn cells<'a>(
        &'a self,
        record: &'a Record,
        puzzle: bool,
        original: Original,
        text: &'a mut [u8; CELLS],
    ) -> impl Iterator<Item = Cell<'a>> {
        let origin = |i: usize| {
            record
                .optional
                .get(i)
                .and_then(Option::as_deref)
                .map_or(Cell::Null, Cell::Bytes)
        };
        let original: [Option<Cell<'a>>; 2] = match original {
            Original::None => [None, None],
            Original::Line => [Some(origin(0)), None],
            Original::LineAndFile => [Some(origin(1)), Some(origin(0))],
        };
        let puzzle = puzzle.then(|| match &self.puzzle {
            Some(grid) => {
                grid.write_line(text);
                Cell::Plain(text)
            }
            None => Cell::Null,
        });
        [
            Cell::Int(record.line),
            Cell::Plain(self.status.name().as_bytes()),
            self.error.as_deref().map_or(Cell::Null, Cell::Text),
        ]
        .into_iter()
        .chain(puzzle)
        .chain(original.into_iter().flatten())
    }
}

/// Why a record without a solution is `invalid` where one is read (`verify`, `augment
/// --solutions`).
pub(super) const NO_SOLUTION: &str = "no solution (no 81-digit field after the puzzle)";

/// Checks one record.
///
/// `invalid` when the puzzle or the solution cannot be read or the givens conflict; `wrong` when
/// the verifier rejects the solution, or with `unique` when the puzzle has another solution too.
/// A uniqueness search that contradicts the verifier is a solver bug, returned as an error.
pub(crate) fn handle(
    record: &Record,
    options: &VerifyOptions,
    layout: &Layout,
) -> Result<VerifyRow, SolverBug> {
    use VerifyStatus::{GaveUp, Invalid, Wrong};
    if let Some(defect) = &record.defect {
        return Ok(VerifyRow::new(Invalid, None, defect));
    }
    let puzzle = match Grid::parse(&record.puzzle) {
        Ok(puzzle) => puzzle,
        Err(e) => return Ok(VerifyRow::new(Invalid, None, format_args!("puzzle: {e}"))),
    };
    let read = Some(puzzle);
    let Some(text) = &record.solution else {
        return Ok(VerifyRow::new(Invalid, read, NO_SOLUTION));
    };
    let solution = match Grid::parse(text) {
        Ok(solution) => solution,
        Err(e) => return Ok(VerifyRow::new(Invalid, read, format_args!("solution: {e}"))),
    };
    let layout = match super::pool::record_layout(record, layout) {
        Ok(layout) => layout,
        Err(e) => return Ok(VerifyRow::new(Invalid, read, e)),
    };
    let layout = layout.as_ref();
    if let Err(conflict) = layout.check_givens(&puzzle) {
        return Ok(VerifyRow::new(
            Invalid,
            read,
            format_args!("puzzle: {conflict}"),
        ));
    }
    if let Err(problem) = crate::verify::verify(&puzzle, &solution, layout) {
        return Ok(VerifyRow::new(Wrong, read, problem));
    }
    if options.unique {
        let search = SolveOptions {
            algorithm: Algorithm::default(),
            max_solutions: 2,
            max_recursions: options.max_recursions,
            seed: 0,
        };
        let bug = |detail: String| SolverBug {
            puzzle: puzzle.to_line(),
            detail,
        };
        let outcome = solver::solve(&puzzle, layout, &search)
            .map_err(|c| bug(format!("givens conflict missed by the check: {c}")))?;
        super::solve::check(&puzzle, &outcome, layout)?;
        match outcome.status {
            Status::Multiple => {
                return Ok(VerifyRow::new(Wrong, read, "not the unique solution"));
            }
            Status::Solved if outcome.solution != Some(solution) => {
                return Err(bug(format!(
                    "found the single solution {} but {solution} is valid too",
                    outcome.solution.map_or(String::new(), |g| g.to_line())
                )));
            }
            Status::Solved => {}
            Status::GaveUp => {
                return Ok(VerifyRow::new(
                    GaveUp,
                    read,
                    format_args!(
                        "uniqueness not decided within {} recursions",
                        options.max_recursions
                    ),
                ));
            }
            Status::Unsolvable | Status::Stuck => {
                return Err(bug(format!(
                    "status {} though {solution} is a valid solution",
                    outcome.status
                )));
            }
        }
    }
    Ok(VerifyRow {
        status: VerifyStatus::Ok,
        puzzle: read,
        error: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_data::{PUZZLE, SOLUTION};

    fn check(puzzle: &str, solution: Option<&str>, unique: bool) -> VerifyRow {
        let record = Record {
            line: 1,
            puzzle: puzzle.as_bytes().to_vec(),
            solution: solution.map(|s| s.as_bytes().to_vec()),
            ..Record::default()
        };
        let options = VerifyOptions {
            unique,
            max_recursions: 1_000_000,
        };
        handle(&record, &options, &Layout::standard()).unwrap()
    }

    fn says(row: VerifyRow) -> (VerifyStatus, String) {
        (row.status, row.error.unwrap_or_default())
    }

    #[test]
    fn a_right_solution_is_ok_with_and_without_unique() {
        assert_eq!(
            says(check(PUZZLE, Some(SOLUTION), false)),
            (VerifyStatus::Ok, String::new())
        );
        assert_eq!(
            says(check(PUZZLE, Some(SOLUTION), true)),
            (VerifyStatus::Ok, String::new())
        );
    }

    #[test]
    fn a_corrupted_solution_is_wrong() {
        let mut bad = SOLUTION.to_string();
        bad.replace_range(18..19, "7"); // r3c1 (not a given): row 3 now has two 7s
        assert_eq!(
            says(check(PUZZLE, Some(&bad), false)),
            (VerifyStatus::Wrong, "row 3 has two 7s".into())
        );
        let mut changed = SOLUTION.to_string();
        changed.replace_range(0..1, "1");
        assert_eq!(
            says(check(PUZZLE, Some(&changed), false)),
            (VerifyStatus::Wrong, "changes the given at r1c1".into())
        );
    }

    #[test]
    fn unique_rejects_a_valid_solution_of_an_ambiguous_puzzle() {
        // The empty puzzle has many solutions, this one among them.
        let empty = ".".repeat(81);
        assert_eq!(
            check(&empty, Some(SOLUTION), false).status,
            VerifyStatus::Ok
        );
        assert_eq!(
            says(check(&empty, Some(SOLUTION), true)),
            (VerifyStatus::Wrong, "not the unique solution".into())
        );
    }

    #[test]
    fn unreadable_parts_are_invalid() {
        assert_eq!(
            says(check(&PUZZLE[1..], Some(SOLUTION), false)),
            (
                VerifyStatus::Invalid,
                "puzzle: expected 81 cells, found 80".into()
            )
        );
        assert_eq!(
            says(check(PUZZLE, None, false)),
            (
                VerifyStatus::Invalid,
                "no solution (no 81-digit field after the puzzle)".into()
            )
        );
        assert_eq!(
            says(check(PUZZLE, Some(""), false)),
            (
                VerifyStatus::Invalid,
                "solution: expected 81 cells, found 0".into()
            )
        );
        let clash = format!("55{}", &PUZZLE[2..]);
        assert_eq!(
            says(check(&clash, Some(SOLUTION), false)),
            (
                VerifyStatus::Invalid,
                "puzzle: digit 5 twice in row 1: r1c1 and r1c2".into()
            )
        );
    }
}
