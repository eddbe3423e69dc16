//! The solve job: one record in, one result row out, every reported solution checked by the
//! independent verifier.

use super::error::SolverBug;
use crate::format::columns::ColumnKind;
use crate::format::{Cell, Record};
use crate::grid::{CELLS, Grid};
use crate::layout::Layout;
use crate::solver::{self, Outcome, SolveOptions, Status};
use crate::stats::{self, Counter};
use crate::verify::verify;

use crate::row::{SolveStatus, Status as _};

/// The columns of a solve row (after `file`, before the kept columns).
pub(crate) const COLUMNS: &[&str] = &[
    "line",
    "puzzle",
    "solution",
    "status",
    "solutions",
    "recursions",
    "max_depth",
    "guesses",
    "backtracks",
    "naked_singles",
    "hidden_singles",
    "givens",
    "error",
];

/// The type of each of [`COLUMNS`].
pub(crate) const KINDS: &[ColumnKind] = &[
    ColumnKind::Count,
    ColumnKind::Text,
    ColumnKind::Text,
    ColumnKind::Text,
    ColumnKind::Count,
    ColumnKind::Count,
    ColumnKind::Count,
    ColumnKind::Count,
    ColumnKind::Count,
    ColumnKind::Count,
    ColumnKind::Count,
    ColumnKind::Count,
    ColumnKind::Text,
];

/// The result for one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SolveRow {
    pub status: SolveStatus,
    /// The puzzle, when it could be read.
    pub puzzle: Option<Grid>,
    /// The search's outcome, when a search ran.
    pub outcome: Option<Outcome>,
    /// Why the record is invalid.
    pub error: Option<String>,
}

impl SolveRow {
    fn invalid(puzzle: Option<Grid>, error: String) -> Self {
        SolveRow {
            status: SolveStatus::Invalid,
            puzzle,
            outcome: None,
            error: Some(error),
        }
    }

    /// The row as a dataset summary counts it.
    pub fn summary_row(&self) -> stats::Row<'static> {
        match &self.outcome {
            Some(outcome) => stats::Row::from_outcome(outcome),
            None => stats::Row::invalid(),
        }
    }

    /// The row's cells in [`COLUMNS`] order; `text` holds the grids written out.
    pub fn cells<'a>(&'a self, line: u64, text: &'a mut [[u8; CELLS]; 2]) -> [Cell<'a>; 13] {
        let [puzzle_text, solution_text] = text;
        let puzzle = grid_cell(self.puzzle.as_ref(), puzzle_text);
        let solution = grid_cell(
            self.outcome.as_ref().and_then(|o| o.solution.as_ref()),
            solution_text,
        );
        let outcome = self.outcome.as_ref();
        // The counters, in `Counter::ALL` order: the order of their columns.
        let [c0, c1, c2, c3, c4, c5, c6] =
            Counter::ALL.map(|c| outcome.map_or(Cell::Null, |o| Cell::Int(c.of(&o.stats))));
        [
            Cell::Int(line),
            puzzle,
            solution,
            Cell::Plain(self.status.name().as_bytes()),
            outcome.map_or(Cell::Null, |o| Cell::Int(o.solutions)),
            c0,
            c1,
            c2,
            c3,
            c4,
            c5,
            c6,
            self.error.as_deref().map_or(Cell::Null, Cell::Text),
        ]
    }
}

/// A grid as 81 characters, or no value.
fn grid_cell<'a>(grid: Option<&Grid>, text: &'a mut [u8; CELLS]) -> Cell<'a> {
    match grid {
        Some(grid) => {
            grid.write_line(text);
            Cell::Plain(text)
        }
        None => Cell::Null,
    }
}

/// Reads, checks and solves one record.
///
/// An unreadable record or conflicting givens give an `invalid` row. A solution the solver
/// reports that the verifier rejects is a bug in the solver, returned as an error.
pub(crate) fn handle(
    record: &Record,
    options: &SolveOptions,
    layout: &Layout,
) -> Result<SolveRow, SolverBug> {
    if let Some(defect) = &record.defect {
        return Ok(SolveRow::invalid(None, defect.to_string()));
    }
    let puzzle = match Grid::parse(&record.puzzle) {
        Ok(puzzle) => puzzle,
        Err(e) => return Ok(SolveRow::invalid(None, e.to_string())),
    };
    let layout = match super::pool::record_layout(record, layout) {
        Ok(layout) => layout,
        Err(e) => return Ok(SolveRow::invalid(Some(puzzle), e.to_string())),
    };
    let layout = layout.as_ref();
    let outcome = match solver::solve(&puzzle, layout, options) {
        Ok(outcome) => outcome,
        Err(conflict) => return Ok(SolveRow::invalid(Some(puzzle), conflict.to_string())),
    };
    check(&puzzle, &outcome, layout)?;
    // A stuck search (logic) says in the error column how far propagation got.
    let error = match (outcome.status, &outcome.solution) {
        (Status::Stuck, Some(partial)) => Some(format!(
            "stuck with {} of 81 cells filled",
            partial.filled()
        )),
        _ => None,
    };
    Ok(SolveRow {
        status: outcome.status.into(),
        puzzle: Some(puzzle),
        outcome: Some(outcome),
        error,
    })
}

/// Checks an outcome against the independent verifier: every solution reported (solved,
/// multiple, and gave up after finding one) must solve the puzzle; solved and multiple must
/// report one; unsolvable must not.
pub(crate) fn check(puzzle: &Grid, outcome: &Outcome, layout: &Layout) -> Result<(), SolverBug> {
    let bug = |detail: String| SolverBug {
        puzzle: puzzle.to_line(),
        detail,
    };
    match (outcome.status, &outcome.solution) {
        (Status::Solved | Status::Multiple | Status::GaveUp, Some(solution)) => {
            verify(puzzle, solution, layout).map_err(|problem| {
                bug(format!("reported solution {solution} is wrong: {problem}",))
            })
        }
        (Status::Solved | Status::Multiple, None) => {
            Err(bug(format!("status {} without a solution", outcome.status)))
        }
        (Status::Unsolvable, Some(solution)) => {
            Err(bug(format!("status unsolvable with a solution {solution}")))
        }
        (Status::GaveUp | Status::Unsolvable | Status::Stuck, _) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SearchStats;
    use crate::test_data::{PUZZLE, SOLUTION};

    #[test]
    fn the_counter_columns_are_the_statistics_counters() {
        let names: Vec<&str> = Counter::ALL.map(|c| c.name()).to_vec();
        assert_eq!(COLUMNS[5..12], names[..]);
    }

    fn record(text: &str) -> Record {
        Record {
            line: 1,
            puzzle: text.as_bytes().to_vec(),
            ..Record::default()
        }
    }

    fn solve(text: &str) -> SolveRow {
        handle(&record(text), &SolveOptions::default(), &Layout::standard()).unwrap()
    }

    #[test]
    fn a_good_puzzle_is_solved_with_counters() {
        let row = solve(PUZZLE);
        assert_eq!(row.status, SolveStatus::Solved);
        let outcome = row.outcome.unwrap();
        assert_eq!(outcome.solution.unwrap().to_line(), SOLUTION);
        assert_eq!(outcome.stats.givens, 30);
        assert!(row.error.is_none());
    }

    #[test]
    fn unreadable_and_conflicting_puzzles_are_invalid() {
        let row = solve(&PUZZLE[1..]);
        assert_eq!(row.status, SolveStatus::Invalid);
        assert_eq!(row.error.as_deref(), Some("expected 81 cells, found 80"));
        assert!(row.puzzle.is_none());
        let clash = format!("55{}", &PUZZLE[2..]);
        let row = solve(&clash);
        assert_eq!(row.status, SolveStatus::Invalid);
        assert_eq!(
            row.error.as_deref(),
            Some("digit 5 twice in row 1: r1c1 and r1c2")
        );
        assert_eq!(row.puzzle.unwrap().to_line(), clash);
    }

    #[test]
    fn cells_leave_counts_empty_without_a_search() {
        let row = solve("x");
        let mut text = [[0; CELLS]; 2];
        let cells = row.cells(7, &mut text);
        assert_eq!(cells[0], Cell::Int(7));
        assert_eq!(cells[1], Cell::Null);
        assert_eq!(cells[3], Cell::Plain(b"invalid"));
        assert!(cells[4..12].iter().all(|c| *c == Cell::Null));
    }

    fn forged(status: Status, solution: Option<&str>) -> Outcome {
        Outcome {
            status,
            solutions: 1,
            solution: solution.map(|s| s.parse().unwrap()),
            stats: SearchStats::default(),
        }
    }

    #[test]
    fn a_wrong_reported_solution_is_a_bug() {
        let puzzle: Grid = PUZZLE.parse().unwrap();
        let layout = Layout::standard();
        assert!(check(&puzzle, &forged(Status::Solved, Some(SOLUTION)), &layout).is_ok());
        let mut wrong = SOLUTION.to_string();
        wrong.replace_range(2..3, "9");
        let bug = check(&puzzle, &forged(Status::Solved, Some(&wrong)), &layout).unwrap_err();
        assert!(
            bug.to_string().contains("is wrong: row 1 has two 9s"),
            "{bug}"
        );
        let bug = check(&puzzle, &forged(Status::GaveUp, Some(&wrong)), &layout).unwrap_err();
        assert!(bug.to_string().contains("is wrong"), "{bug}");
        let bug = check(&puzzle, &forged(Status::Multiple, None), &layout).unwrap_err();
        assert!(
            bug.to_string()
                .contains("status multiple without a solution"),
            "{bug}"
        );
        let bug = check(
            &puzzle,
            &forged(Status::Unsolvable, Some(SOLUTION)),
            &layout,
        )
        .unwrap_err();
        assert!(
            bug.to_string().contains("unsolvable with a solution"),
            "{bug}"
        );
    }
}
