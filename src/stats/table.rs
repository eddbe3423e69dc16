//! Summaries of result rows held in memory as columns (an Arrow table in the Python package),
//! built through the results reader's own check of a row, so that they give the numbers `stats`
//! gives for the same rows written to a file.

use super::bins::{Bins, Number, Numbers};
use super::plausible;
use super::read::{RowProblem, build_row, form_of, quote};
use super::{Counter, RecordRef, Summary};

/// How rows given cell by cell are grouped: by the text of a column's cells, or by the bins of
/// its numbers (`stats --by COLUMN --bins ...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy<'a> {
    /// One group per value of the column (`--bins none`).
    Values(&'a str),
    /// One group per value of the column, each a number or empty: the groups a caller puts in
    /// bins afterwards ([`Summary::binned`]), when the bins are found from the values.
    Numbers(&'a str),
    /// One group per bin of the column's numbers (an empty cell: the empty group).
    Bins(&'a str, &'a Bins),
}

impl<'a> GroupBy<'a> {
    /// The grouping column.
    pub fn column(self) -> &'a str {
        match self {
            GroupBy::Values(column) | GroupBy::Numbers(column) | GroupBy::Bins(column, _) => column,
        }
    }

    /// The empty summary these groups fill.
    pub fn summary(self) -> Summary {
        match self {
            GroupBy::Values(column) | GroupBy::Numbers(column) => Summary::grouped_by(column),
            GroupBy::Bins(column, bins) => Summary::binned_by(column, bins.clone()),
        }
    }

    /// The group of row `index`, whose grouping cell is `cell` (`None`: null, the empty
    /// group); a cell that is not a number when numbers are grouped is refused.
    fn group(self, index: u64, cell: Option<&'a str>) -> Result<&'a str, TableError> {
        let value = cell.unwrap_or("");
        match self {
            GroupBy::Values(_) => Ok(value),
            GroupBy::Numbers(column) | GroupBy::Bins(column, _) => {
                number_or_empty(column, index, value).map(|_| value)
            }
        }
    }
}

/// The number in a grouping cell, `None` when it is empty; a cell that is neither is refused.
fn number_or_empty(column: &str, index: u64, value: &str) -> Result<Option<Number>, TableError> {
    if value.trim().is_empty() {
        return Ok(None);
    }
    Number::parse(value.as_bytes())
        .map(Some)
        .ok_or_else(|| TableError::NotANumber {
            index,
            column: column.to_string(),
            value: quote(value),
        })
}

/// Adds to `numbers` the number of each grouping cell of `column` (a null or empty cell is no
/// number), as `stats` surveys a column before finding its quantile bins
/// ([`Bins::quantiles`]); a cell that is not a number is refused.
pub fn survey_numbers<'a>(
    numbers: &mut Numbers,
    column: &str,
    cells: impl IntoIterator<Item = Option<&'a str>>,
) -> Result<(), TableError> {
    for (index, cell) in (0u64..).zip(cells) {
        if let Some(number) = number_or_empty(column, index, cell.unwrap_or(""))? {
            numbers.add(number, 1);
        }
    }
    Ok(())
}

/// The numbers of a summary's groups (those of [`GroupBy::Numbers`]), each counted as often as
/// its group has records: the survey its quantile bins are found from.
pub fn numbers_of_groups(summary: &Summary) -> Numbers {
    let mut numbers = Numbers::default();
    for (key, group) in summary.groups() {
        if let Some(number) = Number::parse(key.as_bytes()) {
            numbers.add(number, group.records());
        }
    }
    numbers
}

/// The cells of one result row that a summary reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RowCells<'a> {
    /// The `status` cell; `None` when it is null.
    pub status: Option<&'a str>,
    /// The counters, in [`Counter::ALL`] order; `None` where a cell is null.
    pub counters: [Option<u64>; Counter::ALL.len()],
    /// The `solutions` cell, when there is one and it is not null (checked for plausibility).
    pub solutions: Option<u64>,
    /// The grouping column's cell, written as text; `None` when it is null (filed under the
    /// empty string, as an empty CSV field is).
    pub group: Option<&'a str>,
    /// The record the row is about (`line`, `file`, `puzzle`, `regions` cells), for the
    /// summary's hardest records: `None` unless the row has a line and a puzzle, as in a file.
    pub record: Option<RecordRef<'a>>,
}

/// A row that is not a result row of `solve`, one group too many, or one canonical form too
/// many.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// A row that is not a result row of `solve`.
    #[error("row {index} (counting from 0): {problem}")]
    Row {
        /// The row's position among the rows given, from 0.
        index: u64,
        /// What is wrong with it.
        problem: RowProblem,
    },
    /// More groups than allowed (as `stats --max-groups`).
    #[error(
        "row {index} (counting from 0): more than {max} distinct values of '{column}' to group \
         by: group by a column with fewer values, or give max_groups=N to allow more (each group \
         takes about half a kilobyte)"
    )]
    TooManyGroups {
        /// The row that made one group too many, from 0.
        index: u64,
        /// The grouping column.
        column: String,
        /// The most groups allowed.
        max: usize,
    },
    /// More distinct canonical forms than allowed (as `stats --max-classes`).
    #[error(
        "row {index} (counting from 0): more than {max} distinct puzzles (canonical forms) to \
         count: give max_classes=N to allow more (each takes 20 to 60 bytes of memory)"
    )]
    TooManyForms {
        /// The last row of the rows whose forms made one too many, from 0.
        index: u64,
        /// The most forms allowed.
        max: u64,
    },
    /// A grouping cell that is not a number, where the column's numbers go in bins.
    #[error(
        "row {index} (counting from 0): {column}: {value} is not a number, so the column cannot \
         be put in bins"
    )]
    NotANumber {
        /// The row, from 0.
        index: u64,
        /// The grouping column.
        column: String,
        /// The value, quoted, escaped and cut.
        value: String,
    },
}

impl TableError {
    /// The same error, its row counted `rows` further (rows summarised before these).
    pub fn after(mut self, rows: u64) -> TableError {
        match &mut self {
            TableError::Row { index, .. }
            | TableError::TooManyGroups { index, .. }
            | TableError::TooManyForms { index, .. }
            | TableError::NotANumber { index, .. } => *index += rows,
        }
        self
    }
}

/// Refuses `summary` when it has more than `max_groups` groups; `index` is the row that made
/// the last one.
pub fn check_groups(summary: &Summary, max_groups: usize, index: u64) -> Result<(), TableError> {
    match summary.by() {
        Some(column) if summary.groups().len() > max_groups => Err(TableError::TooManyGroups {
            index,
            column: column.to_string(),
            max: max_groups,
        }),
        _ => Ok(()),
    }
}

/// Counts in `summary` (which must count forms: [`Summary::counting_forms`]) the canonical
/// form of each `(puzzle, regions)` cell pair, as `stats --canonical` counts a row's.
pub fn add_forms<'a>(
    summary: &mut Summary,
    rows: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
) {
    let mut canonicaliser = crate::canon::Canonicaliser::new();
    for (puzzle, regions) in rows {
        let regions = regions.map(str::as_bytes);
        if let Some(form) = form_of(puzzle.as_bytes(), regions, &mut canonicaliser) {
            summary.add_form(form);
        }
    }
}

/// Refuses `summary` when it counts more than `max` distinct canonical forms; `index` is the
/// last row counted.
pub fn check_forms(summary: &Summary, max: u64, index: u64) -> Result<(), TableError> {
    match summary.canonical() {
        Some(forms) if forms.distinct() > max => Err(TableError::TooManyForms { index, max }),
        _ => Ok(()),
    }
}

/// Summarises rows given cell by cell; with `by`, grouped by each row's [`RowCells::group`]
/// (or its bin).
///
/// A row is checked as the results reader checks a line of a results file: a status of
/// `solve`, all seven counters unless it is `invalid` (which may have none), and values the
/// counters' definitions allow ([`plausible`]).
pub fn summarize<'a>(
    rows: impl IntoIterator<Item = RowCells<'a>>,
    by: Option<GroupBy<'a>>,
    max_groups: usize,
) -> Result<Summary, TableError> {
    let mut summary = by.map_or_else(Summary::new, GroupBy::summary);
    for (index, cells) in (0u64..).zip(rows) {
        let group = by.map(|by| by.group(index, cells.group)).transpose()?;
        let problem = |problem| TableError::Row { index, problem };
        let row = build_row(
            cells.status.unwrap_or("").as_bytes(),
            |i| Ok(cells.counters[i]),
            group,
        )
        .map_err(problem)?;
        plausible::check(row.status, row.counters.as_ref(), cells.solutions)
            .map_err(|e| problem(e.into()))?;
        match cells.record {
            Some(record) => summary.add(&row.about(record)),
            None => summary.add(&row),
        }
        check_groups(&summary, max_groups, index)?;
    }
    Ok(summary)
}

/// The cells of one row of `rate` (on either scale) that a summary reads: the text of each
/// column the results reader reads, in its order ([`super::rating::COLUMNS`], or
/// [`super::rating::se::SE_ROW_COLUMNS`] on Sudoku Explainer's scale), `""` for a null.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RatedCells<'a> {
    /// The cells, in the order of the scale's columns (HoDoKu's scale reads the first six).
    pub fields: [&'a str; 7],
    /// The grouping column's cell, as [`RowCells::group`].
    pub group: Option<&'a str>,
    /// The record the row is about, as [`RowCells::record`] (the list of the hardest of
    /// Sudoku Explainer's scale).
    pub record: Option<RecordRef<'a>>,
}

/// Summarises rows of `rate` given cell by cell, on Sudoku Explainer's scale when `se`, else
/// on HoDoKu's; with `by`, grouped by each row's [`RatedCells::group`] (or its bin). A row is
/// checked as the results reader checks a line of `rate` output ([`super::rating`]).
pub fn summarize_rated<'a>(
    se: bool,
    rows: impl IntoIterator<Item = RatedCells<'a>>,
    by: Option<GroupBy<'a>>,
    max_groups: usize,
) -> Result<Summary, TableError> {
    use super::rating::{RatedRow, se::SeRow};
    let mut summary = by.map_or_else(Summary::new, GroupBy::summary);
    for (index, cells) in (0u64..).zip(rows) {
        let group = by.map(|by| by.group(index, cells.group)).transpose()?;
        let problem = |problem: super::rating::RatingProblem| TableError::Row {
            index,
            problem: problem.into(),
        };
        let fields = cells.fields.map(str::as_bytes);
        if se {
            let row = SeRow::parse(fields, group).map_err(problem)?;
            summary.add_se(&SeRow {
                record: cells.record,
                ..row
            });
        } else {
            let six = std::array::from_fn(|i| fields[i]);
            summary.add_rated(&RatedRow::parse(six, group).map_err(problem)?);
        }
        check_groups(&summary, max_groups, index)?;
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::SolveStatus;
    use std::path::Path;

    const PUZZLE: &str = crate::test_data::PUZZLE;

    #[test]
    fn cells_give_the_summary_of_the_same_rows_read_from_csv() {
        let csv = format!(
            "line,puzzle,status,solutions,recursions,max_depth,guesses,backtracks,naked_singles,hidden_singles,givens,level\n\
             2,{PUZZLE},solved,1,1,1,0,0,50,14,17,easy\n3,x,invalid,,,,,,,,,hard\n\
             4,{PUZZLE},multiple,2,9,4,5,3,30,10,21,\n"
        );
        let read = crate::stats::read::read_from(
            std::io::Cursor::new(csv.into_bytes()),
            Path::new("r.csv"),
            Some("level"),
        )
        .unwrap();
        let about = |line| {
            Some(RecordRef {
                file: None,
                line,
                puzzle: PUZZLE,
                regions: None,
            })
        };
        let rows = [
            RowCells {
                status: Some("solved"),
                counters: [1, 1, 0, 0, 50, 14, 17].map(Some),
                solutions: Some(1),
                group: Some("easy"),
                record: about(2),
            },
            RowCells {
                status: Some("invalid"),
                group: Some("hard"),
                record: Some(RecordRef {
                    puzzle: "x",
                    ..about(3).unwrap()
                }),
                ..RowCells::default()
            },
            RowCells {
                status: Some("multiple"),
                counters: [9, 4, 5, 3, 30, 10, 21].map(Some),
                solutions: Some(2),
                group: None,
                record: about(4),
            },
        ];
        let summary = summarize(rows, Some(GroupBy::Values("level")), usize::MAX).unwrap();
        assert_eq!(summary, read);
        assert_eq!(summary.status().get(SolveStatus::Invalid), 1);
        assert_eq!(
            summarize(rows, None, usize::MAX).unwrap(),
            read.clone().ungrouped()
        );
        // Without the records, the hardest are not known: another summary.
        let anonymous = rows.map(|r| RowCells { record: None, ..r });
        assert_ne!(
            summarize(anonymous, Some(GroupBy::Values("level")), usize::MAX).unwrap(),
            read
        );
    }

    #[test]
    fn rows_making_more_groups_than_allowed_are_refused_at_the_first_too_many() {
        // Issue 33, case 7: Python's summarize(by=...) had no bound (196,632 groups took 3 GB).
        let values = ["1", "2", "3", "1"];
        let rows = values.map(|v| RowCells {
            status: Some("solved"),
            counters: [1; 7].map(Some),
            group: Some(v),
            ..RowCells::default()
        });
        assert_eq!(
            summarize(rows, Some(GroupBy::Values("id")), 3)
                .unwrap()
                .groups()
                .len(),
            3
        );
        let error = summarize(rows, Some(GroupBy::Values("id")), 2).unwrap_err();
        assert_eq!(
            error.to_string(),
            "row 2 (counting from 0): more than 2 distinct values of 'id' to group by: group by \
             a column with fewer values, or give max_groups=N to allow more (each group takes \
             about half a kilobyte)"
        );
        assert_eq!(
            error.after(10).to_string()[..23],
            *"row 12 (counting from 0"
        );
    }

    #[test]
    fn bins_of_cells_are_the_bins_of_their_groups_and_refuse_what_is_not_a_number() {
        use crate::stats::bins::Chosen;
        let row = |hidden: u64, group: Option<&'static str>| RowCells {
            status: Some("solved"),
            counters: [1, 1, 0, 0, 50, hidden, 30].map(Some),
            solutions: Some(1),
            group,
            record: None,
        };
        let values = ["3", "1.5", "", "7", "3", "12", "-2", "7", "7"];
        let rows: Vec<RowCells> = (0..)
            .zip(values)
            .map(|(i, v)| row(i, (!v.is_empty()).then_some(v)))
            .collect();
        let by_value = summarize(rows.clone(), Some(GroupBy::Numbers("x")), usize::MAX).unwrap();
        let mut numbers = Numbers::default();
        survey_numbers(&mut numbers, "x", rows.iter().map(|r| r.group)).unwrap();
        assert_eq!(numbers, numbers_of_groups(&by_value));
        assert_eq!(numbers.rows(), 8);
        for bins in [
            Bins::quantiles(&numbers, 3, Chosen::Quantiles).unwrap(),
            Bins::given(&["0", "3", "10"]).unwrap(),
        ] {
            let binned = summarize(rows.clone(), Some(GroupBy::Bins("x", &bins)), 10).unwrap();
            assert_eq!(binned, by_value.clone().binned(bins.clone()).unwrap());
            let records: u64 = binned.groups().values().map(Summary::records).sum();
            assert_eq!(records, 9);
        }
        // Bins of 0, 3 and 10: below, two bins, above, and the empty value.
        let bins = Bins::given(&["0", "3", "10"]).unwrap();
        let binned = summarize(rows.clone(), Some(GroupBy::Bins("x", &bins)), 10).unwrap();
        let sizes: Vec<(&str, u64)> = binned
            .groups()
            .iter()
            .map(|(k, g)| (k.as_str(), g.records()))
            .collect();
        assert_eq!(sizes.len(), 5, "{sizes:?}");
        let mut with_word = rows;
        with_word[4].group = Some("seven");
        for by in [GroupBy::Numbers("x"), GroupBy::Bins("x", &bins)] {
            let error = summarize(with_word.clone(), Some(by), 10).unwrap_err();
            assert_eq!(
                error.after(2).to_string(),
                "row 6 (counting from 0): x: 'seven' is not a number, so the column cannot be \
                 put in bins"
            );
        }
        let error = survey_numbers(&mut numbers, "x", with_word.iter().map(|r| r.group));
        assert!(matches!(
            error,
            Err(TableError::NotANumber { index: 4, .. })
        ));
        // One group per value takes any text.
        assert!(summarize(with_word, Some(GroupBy::Values("x")), 10).is_ok());
    }

    #[test]
    fn a_row_that_is_not_a_solve_row_is_an_error_naming_it() {
        let good = RowCells {
            status: Some("solved"),
            counters: [1; 7].map(Some),
            ..RowCells::default()
        };
        let missing = RowCells {
            counters: [Some(1), None, Some(1), Some(1), Some(1), Some(1), Some(1)],
            ..good
        };
        let error = summarize([good, missing], None, usize::MAX).unwrap_err();
        assert_eq!(
            error.to_string(),
            "row 1 (counting from 0): max_depth is empty in a 'solved' row"
        );
        let error = summarize([RowCells::default()], None, usize::MAX).unwrap_err();
        assert_eq!(
            error.to_string(),
            "row 0 (counting from 0): no field 'status'"
        );
        let verify = RowCells {
            status: Some("ok"),
            ..good
        };
        assert!(
            summarize([verify], None, usize::MAX)
                .unwrap_err()
                .to_string()
                .contains("comes from verify")
        );
    }

    #[test]
    fn counters_their_definitions_rule_out_are_an_error() {
        let row = RowCells {
            status: Some("solved"),
            counters: [1, 1, 0, 0, 50, 14, 17].map(Some),
            ..RowCells::default()
        };
        let too_many = RowCells {
            counters: [1, 1, 0, 0, 50, 14, 82].map(Some),
            ..row
        };
        assert!(summarize([row, too_many], None, usize::MAX).is_err());
        let two = RowCells {
            solutions: Some(2),
            ..row
        };
        assert!(summarize([row], None, usize::MAX).is_ok());
        assert!(summarize([two], None, usize::MAX).is_err());
    }

    #[test]
    fn rated_cells_give_the_summary_of_the_same_rate_rows_read_from_csv() {
        let se = format!(
            "line,puzzle,status,er,ep,ed,er_at_least,hardest,steps,error\n\
             2,{PUZZLE},rated,7.2,1.2,1.2,7.2,Forcing Chain,67,\n\
             3,{PUZZLE},rated,,1.2,1.2,9.5,Forcing Chain,40,\n\
             4,x,invalid,,,,,,,bad\n"
        );
        let read = crate::stats::read::read_from(
            std::io::Cursor::new(se.into_bytes()),
            Path::new("se.csv"),
            Some("hardest"),
        )
        .unwrap();
        let about = |line| {
            Some(RecordRef {
                file: None,
                line,
                puzzle: PUZZLE,
                regions: None,
            })
        };
        let rows = [
            RatedCells {
                fields: ["rated", "7.2", "1.2", "1.2", "7.2", "Forcing Chain", "67"],
                group: Some("Forcing Chain"),
                record: about(2),
            },
            RatedCells {
                fields: ["rated", "", "1.2", "1.2", "9.5", "Forcing Chain", "40"],
                group: Some("Forcing Chain"),
                record: about(3),
            },
            RatedCells {
                fields: ["invalid", "", "", "", "", "", ""],
                group: None,
                record: None,
            },
        ];
        let summary = summarize_rated(true, rows, Some(GroupBy::Values("hardest")), 10).unwrap();
        assert_eq!(summary, read);
        assert_eq!(summary.se_hardest().records().len(), 2);
        let hodoku = RatedCells {
            fields: [
                "rated",
                "easy",
                "42",
                "hidden-single",
                "3",
                "hidden-single:3",
                "",
            ],
            ..RatedCells::default()
        };
        let s = summarize_rated(false, [hodoku], None, 10).unwrap();
        assert_eq!(s.rating().map(|r| r.rated()), Some(1));
        let wrong = RatedCells {
            fields: [
                "rated",
                "easy",
                "41",
                "hidden-single",
                "3",
                "hidden-single:3",
                "",
            ],
            ..RatedCells::default()
        };
        let err = summarize_rated(false, [hodoku, wrong], None, 10).unwrap_err();
        assert_eq!(
            err.to_string(),
            "row 1 (counting from 0): score is 41, but the techniques give 42"
        );
    }
}
