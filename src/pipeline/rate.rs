//! The rate job: one record in, one row out. The solver first tells a puzzle with one solution
//! from one with several (limit 2; every solution it reports checked by the independent
//! verifier); a puzzle with one solution is then rated by the logic solver of [`crate::rate`],
//! with uniqueness techniques allowed and that solution as its safety net: a step that places
//! a wrong digit or removes a true one is a bug that ends the run, never a rating.
//!
//! Only puzzles with one solution are rated, as HoDoKu does: the rating of a puzzle with
//! several would depend on which solution its brute-force steps follow.
//!
//! With [`Scale::Se`] the rating is Sudoku Explainer's ([`crate::rate::se`]), written in the
//! columns [`SE_COLUMNS`], its steps checked against the same solution.

use std::cell::RefCell;

use super::error::SolverBug;
use super::settings::{RatingOptions, Scale};
use crate::format::columns::ColumnKind;
use crate::format::{Cell, Record};
use crate::grid::{CELLS, Grid};
use crate::layout::Layout;
use crate::rate::se::SeRater;
use crate::rate::{Family, RateOptions, Rater};
use crate::row::{RateStatus, Status as _};
use crate::solver::{self, Algorithm, SolveOptions, Status};
use crate::stats::rating::se::{SeRated, SeRow};
use crate::stats::rating::{Rated, RatedRow, techniques_field};

/// The columns of a rate row (after `file`, before the kept columns): the rating, then the
/// steps of each technique family ([`Family::ALL`] order), then every technique's count.
pub(crate) const COLUMNS: &[&str] = &[
    "line",
    "puzzle",
    "status",
    "level",
    "score",
    "hardest",
    "steps",
    "singles",
    "intersections",
    "subsets",
    "basic_fish",
    "finned_fish",
    "single_digit",
    "coloring",
    "uniqueness",
    "chains",
    "wings",
    "als",
    "miscellaneous",
    "forcing",
    "brute_force",
    "techniques",
    "error",
];

/// The number of cells in a rate row.
const WIDTH: usize = 9 + Family::ALL.len();

/// The type of each of [`COLUMNS`]: `line`, then text (`puzzle` to `hardest`), counts
/// (`steps` and the families), and text (`techniques`, `error`).
pub(crate) const KINDS: &[ColumnKind] = &{
    let mut kinds = [ColumnKind::Count; WIDTH];
    let mut i = 1;
    while i < 6 {
        kinds[i] = ColumnKind::Text;
        i += 1;
    }
    kinds[4] = ColumnKind::Count;
    kinds[WIDTH - 2] = ColumnKind::Text;
    kinds[WIDTH - 1] = ColumnKind::Text;
    kinds
};

/// The columns of a rate row on Sudoku Explainer's scale (`rate --scale se`).
pub(crate) const SE_COLUMNS: &[&str] = &[
    "line",
    "puzzle",
    "status",
    "er",
    "ep",
    "ed",
    "er_at_least",
    "hardest",
    "steps",
    "error",
];

/// The type of each of [`SE_COLUMNS`].
pub(crate) const SE_KINDS: &[ColumnKind] = &[
    ColumnKind::Count,
    ColumnKind::Text,
    ColumnKind::Text,
    ColumnKind::Tenths,
    ColumnKind::Tenths,
    ColumnKind::Tenths,
    ColumnKind::Tenths,
    ColumnKind::Text,
    ColumnKind::Count,
    ColumnKind::Text,
];

/// The result for one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RateRow {
    pub status: RateStatus,
    /// The puzzle, when it could be read.
    pub puzzle: Option<Grid>,
    /// The rating, for a puzzle with one solution.
    pub rated: Option<Rated>,
    /// Sudoku Explainer's rating, for a puzzle with one solution (`--scale se`).
    pub se: Option<SeRated>,
    /// Why the record has no rating.
    pub error: Option<String>,
}

impl RateRow {
    fn unrated(status: RateStatus, puzzle: Option<Grid>, error: impl ToString) -> Self {
        RateRow {
            status,
            puzzle,
            rated: None,
            se: None,
            error: Some(error.to_string()),
        }
    }

    /// The row as a dataset summary counts it.
    pub fn summary_row(&self) -> RatedRow<'static> {
        RatedRow {
            status: self.status,
            rated: self.rated.clone(),
            group: None,
        }
    }

    /// The row as a dataset summary counts it, on Sudoku Explainer's scale.
    pub fn se_summary_row(&self) -> SeRow<'static> {
        SeRow {
            status: self.status,
            rated: self.se.clone(),
            group: None,
            record: None,
        }
    }

    /// The row's cells in [`COLUMNS`] order; `text` holds the puzzle written out and
    /// `techniques` the technique counts.
    pub fn cells<'a>(
        &'a self,
        line: u64,
        text: &'a mut [u8; CELLS],
        techniques: &'a mut String,
    ) -> [Cell<'a>; WIDTH] {
        let puzzle = match &self.puzzle {
            Some(grid) => {
                grid.write_line(text);
                Cell::Plain(text)
            }
            None => Cell::Null,
        };
        let mut cells = [Cell::Null; WIDTH];
        cells[0] = Cell::Int(line);
        cells[1] = puzzle;
        cells[2] = Cell::Plain(self.status.name().as_bytes());
        if let Some(rated) = &self.rated {
            cells[3] = Cell::Plain(rated.level.name().as_bytes());
            cells[4] = Cell::Int(rated.score);
            cells[5] = rated.hardest.map_or(Cell::Null, |t| Cell::Text(t.key()));
            cells[6] = Cell::Int(rated.steps());
            let mut families = [0u64; Family::ALL.len()];
            for (i, &n) in rated.counts.iter().enumerate() {
                families[crate::rate::LADDER[i].family().index()] += u64::from(n);
            }
            for (cell, n) in cells[7..7 + families.len()].iter_mut().zip(families) {
                *cell = Cell::Int(n);
            }
            // A complete grid uses no technique: no value, as `hardest` (null, not "").
            *techniques = techniques_field(&rated.counts);
            if !techniques.is_empty() {
                cells[WIDTH - 2] = Cell::Text(techniques);
            }
        }
        cells[WIDTH - 1] = self.error.as_deref().map_or(Cell::Null, Cell::Text);
        cells
    }

    /// The row's cells in [`SE_COLUMNS`] order; `text` holds the puzzle written out.
    pub fn se_cells<'a>(&'a self, line: u64, text: &'a mut [u8; CELLS]) -> [Cell<'a>; 10] {
        let mut cells = [Cell::Null; 10];
        cells[0] = Cell::Int(line);
        if let Some(grid) = &self.puzzle {
            grid.write_line(text);
            cells[1] = Cell::Plain(text);
        }
        cells[2] = Cell::Plain(self.status.name().as_bytes());
        if let Some(se) = &self.se {
            let tenths = |t: Option<u64>| t.map_or(Cell::Null, Cell::Tenths);
            cells[3] = tenths(se.er);
            cells[4] = tenths(se.ep);
            cells[5] = tenths(se.ed);
            cells[6] = Cell::Tenths(se.er_at_least);
            cells[7] = se.hardest.map_or(Cell::Null, |t| Cell::Text(t.name()));
            cells[8] = Cell::Int(se.steps);
        }
        cells[9] = self.error.as_deref().map_or(Cell::Null, Cell::Text);
        cells
    }
}

thread_local! {
    /// The rater of each worker thread, kept from record to record (its scratch memory is
    /// reused), rebuilt when a record's layout differs from the one it was built for.
    static RATER: RefCell<Option<Rater>> = const { RefCell::new(None) };
    /// The Sudoku Explainer rater of each worker thread.
    static SE_RATER: RefCell<Option<SeRater>> = const { RefCell::new(None) };
}

/// Rates a puzzle with one solution on Sudoku Explainer's scale. A path that needs a technique
/// the rater does not have yet is rated without ER, with the least ER can be (`er_at_least`),
/// ED and EP when the path got that far, and the steps taken so far.
fn rate_se(
    puzzle: Grid,
    layout: &Layout,
    solution: &Grid,
    bug: impl Fn(String) -> SolverBug,
) -> Result<SeRated, SolverBug> {
    let rating = SE_RATER.with_borrow_mut(|rater| {
        rater
            .get_or_insert_with(SeRater::new)
            .rate(&puzzle, layout, Some(solution), false)
    });
    match rating {
        Ok(rating) => Ok(SeRated::from(&rating)),
        Err(e) => Err(bug(format!("Sudoku Explainer rater: {e}"))),
    }
}

/// Reads, checks and rates one record.
///
/// An unreadable record or conflicting givens give an `invalid` row; a puzzle without a
/// solution, with several, or whose uniqueness search ran out of budget gives a row without
/// a rating and says why. A solution the solver reports that the verifier rejects, or a
/// rating step the safety net rejects, is a bug, returned as an error.
pub(crate) fn handle(
    record: &Record,
    options: &RatingOptions,
    layout: &Layout,
    canonicaliser: &mut crate::canon::Canonicaliser,
) -> Result<RateRow, SolverBug> {
    use RateStatus::{GaveUp, Invalid, Multiple, Unsolvable};
    if let Some(defect) = &record.defect {
        return Ok(RateRow::unrated(Invalid, None, defect));
    }
    let puzzle = match Grid::parse(&record.puzzle) {
        Ok(puzzle) => puzzle,
        Err(e) => return Ok(RateRow::unrated(Invalid, None, e)),
    };
    let layout = match super::pool::record_layout(record, layout) {
        Ok(layout) => layout,
        Err(e) => return Ok(RateRow::unrated(Invalid, Some(puzzle), e)),
    };
    let layout = layout.as_ref();
    if options.scale == Scale::Se && !layout.is_standard() {
        let not_standard = crate::rate::se::SeError::NotStandard;
        return Ok(RateRow::unrated(Invalid, Some(puzzle), not_standard));
    }
    if options.invariant && !layout.is_standard() {
        let jigsaw = crate::canon::CanonError::JigsawLayout;
        return Ok(RateRow::unrated(Invalid, Some(puzzle), jigsaw));
    }
    let search = SolveOptions {
        algorithm: Algorithm::default(),
        max_solutions: 2,
        max_recursions: options.max_recursions,
        seed: 0,
    };
    let outcome = match solver::solve(&puzzle, layout, &search) {
        Ok(outcome) => outcome,
        Err(conflict) => return Ok(RateRow::unrated(Invalid, Some(puzzle), conflict)),
    };
    super::solve::check(&puzzle, &outcome, layout)?;
    let bug = |detail: String| SolverBug {
        puzzle: puzzle.to_line(),
        detail,
    };
    let solution = match (outcome.status, outcome.solution) {
        (Status::Solved, Some(solution)) => solution,
        (Status::Multiple, _) => {
            return Ok(RateRow::unrated(
                Multiple,
                Some(puzzle),
                "at least two solutions: not rated",
            ));
        }
        (Status::Unsolvable, _) => {
            return Ok(RateRow::unrated(
                Unsolvable,
                Some(puzzle),
                "no solution: not rated",
            ));
        }
        (Status::GaveUp, _) => {
            return Ok(RateRow::unrated(
                GaveUp,
                Some(puzzle),
                format_args!(
                    "uniqueness not decided within {} recursions: not rated",
                    options.max_recursions
                ),
            ));
        }
        (status, _) => return Err(bug(format!("the uniqueness search ended {status}"))),
    };
    // The row keeps the puzzle as written; with `invariant` its canonical form is rated.
    let (written, puzzle, solution) = match options.invariant {
        false => (puzzle, puzzle, solution),
        true => {
            let canonical = canonicaliser
                .canonical(&puzzle, layout)
                .map_err(|e| bug(format!("canonical form of a puzzle with one solution: {e}")))?;
            let solution = canonical.transform.apply(&solution);
            (puzzle, canonical.form, solution)
        }
    };
    if options.scale == Scale::Se {
        return Ok(RateRow {
            status: RateStatus::Rated,
            puzzle: Some(written),
            rated: None,
            se: Some(rate_se(puzzle, layout, &solution, bug)?),
            error: None,
        });
    }
    let rate_options = RateOptions {
        unique: true,
        solution: Some(solution),
        record_steps: false,
    };
    let rating = RATER.with_borrow_mut(|rater| {
        let rater = match rater {
            Some(rater) if rater.layout() == layout => rater,
            other => other.insert(Rater::new(layout)),
        };
        rater.rate(&puzzle, &rate_options)
    });
    let rating = rating.map_err(|e| bug(format!("rater: {e}")))?;
    if rating.solution != solution {
        return Err(bug(format!(
            "the rater completed the grid as {}, but its solution is {solution}",
            rating.solution
        )));
    }
    Ok(RateRow {
        status: RateStatus::Rated,
        puzzle: Some(written),
        rated: Some(Rated::from(&rating)),
        se: None,
        error: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::Level;
    use crate::test_data::PUZZLE;

    /// The technique counted at `index` of [`Rated::counts`].
    fn technique_of(index: usize) -> crate::rate::Technique {
        crate::rate::LADDER[index]
    }

    fn rate(text: &str) -> RateRow {
        let record = Record {
            line: 1,
            puzzle: text.as_bytes().to_vec(),
            ..Record::default()
        };
        let options = RatingOptions {
            max_recursions: 1_000_000,
            scale: Scale::Hodoku,
            invariant: false,
        };
        let mut canonicaliser = crate::canon::Canonicaliser::new();
        handle(&record, &options, &Layout::standard(), &mut canonicaliser).unwrap()
    }

    #[test]
    fn the_family_columns_follow_the_families() {
        let names: Vec<&str> = Family::ALL.iter().map(|f| f.key()).collect();
        assert_eq!(COLUMNS[7..7 + Family::ALL.len()], names[..]);
        assert_eq!(COLUMNS.len(), WIDTH);
        assert_eq!(KINDS.len(), WIDTH);
        // Counts where the cells are numbers, text elsewhere.
        let (mut text, mut techniques) = ([0; CELLS], String::new());
        let row = rate(PUZZLE);
        for (i, cell) in row.cells(1, &mut text, &mut techniques).iter().enumerate() {
            let count = matches!(cell, Cell::Int(_));
            assert_eq!(KINDS[i] == ColumnKind::Count, count, "{}", COLUMNS[i]);
        }
        for name in crate::stats::rating::COLUMNS {
            assert!(COLUMNS.contains(&name), "stats reads '{name}'");
        }
        for name in crate::stats::rating::se::SE_ROW_COLUMNS {
            assert!(
                SE_COLUMNS.contains(&name),
                "stats reads '{name}' of SE rows"
            );
        }
        assert_eq!(SE_COLUMNS.len(), SE_KINDS.len());
    }

    #[test]
    fn a_unique_puzzle_is_rated_with_its_techniques() {
        let row = rate(PUZZLE);
        assert_eq!(row.status, RateStatus::Rated);
        assert_eq!(row.error, None);
        let rated = row.rated.clone().unwrap();
        assert_eq!(rated.level, Level::Easy);
        assert_eq!(rated.steps(), 51);
        // Every count belongs to a single technique.
        for (i, &n) in rated.counts.iter().enumerate() {
            if n > 0 {
                assert_eq!(technique_of(i).family(), Family::Singles);
            }
        }
        let (mut text, mut techniques) = ([0; CELLS], String::new());
        let cells = row.cells(3, &mut text, &mut techniques);
        assert_eq!(cells[2], Cell::Plain(b"rated"));
        assert_eq!(cells[3], Cell::Plain(b"easy"));
        assert_eq!(cells[6], Cell::Int(51));
        assert_eq!(cells[7], Cell::Int(51), "the singles column");
        assert!(cells[8..WIDTH - 2].iter().all(|c| *c == Cell::Int(0)));
        assert_eq!(cells[WIDTH - 1], Cell::Null);
    }

    #[test]
    fn a_complete_grid_is_rated_without_techniques_as_nulls() {
        let row = rate(crate::test_data::SOLUTION);
        assert_eq!(row.status, RateStatus::Rated);
        let (mut text, mut techniques) = ([0; CELLS], String::new());
        let cells = row.cells(1, &mut text, &mut techniques);
        assert_eq!(cells[4], Cell::Int(0), "score");
        assert_eq!(cells[5], Cell::Null, "hardest");
        assert_eq!(cells[WIDTH - 2], Cell::Null, "techniques");
    }

    #[test]
    fn puzzles_without_one_solution_are_not_rated_and_say_why() {
        let row = rate(&".".repeat(81));
        assert_eq!(row.status, RateStatus::Multiple);
        assert_eq!(row.rated, None);
        assert_eq!(
            row.error.as_deref(),
            Some("at least two solutions: not rated")
        );
        // r1c9 can hold nothing: 1-8 in its row, 9 in its column.
        let mut dead = "12345678.".to_string() + &".".repeat(72);
        dead.replace_range(17..18, "9");
        let row = rate(&dead);
        assert_eq!(row.status, RateStatus::Unsolvable);
        let row = rate(&PUZZLE[1..]);
        assert_eq!(row.status, RateStatus::Invalid);
        assert_eq!(row.error.as_deref(), Some("expected 81 cells, found 80"));
        let clash = format!("55{}", &PUZZLE[2..]);
        let row = rate(&clash);
        assert_eq!(row.status, RateStatus::Invalid);
        assert!(row.puzzle.is_some());
        let (mut text, mut techniques) = ([0; CELLS], String::new());
        let cells = row.cells(1, &mut text, &mut techniques);
        assert!(cells[3..WIDTH - 1].iter().all(|c| *c == Cell::Null));
    }
}
