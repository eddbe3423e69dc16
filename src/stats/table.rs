//! Summaries of result rows held in memory as columns (an Arrow table in the Python package),
//! built through the results reader's own check of a row, so that they give the numbers `stats`
//! gives for the same rows written to a file.

use super::read::{RowProblem, build_row};
use super::{Counter, Summary};

/// The cells of one result row that a summary reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RowCells<'a> {
    /// The `status` cell; `None` when it is null.
    pub status: Option<&'a str>,
    /// The counters, in [`Counter::ALL`] order; `None` where a cell is null.
    pub counters: [Option<u64>; Counter::ALL.len()],
    /// The grouping column's cell, written as text; `None` when it is null (filed under the
    /// empty string, as an empty CSV field is).
    pub group: Option<&'a str>,
}

/// A row that is not a result row of `solve`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("row {index} (counting from 0): {problem}")]
pub struct TableError {
    /// The row's position among the rows given, from 0.
    pub index: u64,
    /// What is wrong with it.
    pub problem: RowProblem,
}

/// Summarises rows given cell by cell; with `by`, grouped by each row's [`RowCells::group`].
///
/// A row is checked as the results reader checks a line of a results file: a status of
/// `solve`, and all seven counters unless it is `invalid` (which may have none).
pub fn summarize<'a>(
    rows: impl IntoIterator<Item = RowCells<'a>>,
    by: Option<&str>,
) -> Result<Summary, TableError> {
    let mut summary = match by {
        Some(column) => Summary::grouped_by(column),
        None => Summary::new(),
    };
    for (index, cells) in (0u64..).zip(rows) {
        let group = by.map(|_| cells.group.unwrap_or(""));
        let row = build_row(
            cells.status.unwrap_or("").as_bytes(),
            |i| Ok(cells.counters[i]),
            group,
        )
        .map_err(|problem| TableError { index, problem })?;
        summary.add(&row);
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::SolveStatus;
    use std::path::Path;

    #[test]
    fn cells_give_the_summary_of_the_same_rows_read_from_csv() {
        let csv = "status,recursions,max_depth,guesses,backtracks,naked_singles,hidden_singles,givens,level\n\
                   solved,1,1,0,0,50,14,17,easy\ninvalid,,,,,,,,hard\nmultiple,9,4,5,3,30,10,21,\n";
        let read = crate::stats::read::read_from(
            std::io::Cursor::new(csv.as_bytes().to_vec()),
            Path::new("r.csv"),
            Some("level"),
        )
        .unwrap();
        let rows = [
            RowCells {
                status: Some("solved"),
                counters: [1, 1, 0, 0, 50, 14, 17].map(Some),
                group: Some("easy"),
            },
            RowCells {
                status: Some("invalid"),
                group: Some("hard"),
                ..RowCells::default()
            },
            RowCells {
                status: Some("multiple"),
                counters: [9, 4, 5, 3, 30, 10, 21].map(Some),
                group: None,
            },
        ];
        let summary = summarize(rows, Some("level")).unwrap();
        assert_eq!(summary, read);
        assert_eq!(summary.status().get(SolveStatus::Invalid), 1);
        assert_eq!(summarize(rows, None).unwrap(), read.ungrouped());
    }

    #[test]
    fn a_row_that_is_not_a_solve_row_is_an_error_naming_it() {
        let good = RowCells {
            status: Some("solved"),
            counters: [1; 7].map(Some),
            group: None,
        };
        let missing = RowCells {
            counters: [Some(1), None, Some(1), Some(1), Some(1), Some(1), Some(1)],
            ..good
        };
        let error = summarize([good, missing], None).unwrap_err();
        assert_eq!(
            error.to_string(),
            "row 1 (counting from 0): max_depth is empty in a 'solved' row"
        );
        let error = summarize([RowCells::default()], None).unwrap_err();
        assert_eq!(
            error.to_string(),
            "row 0 (counting from 0): no field 'status'"
        );
        let verify = RowCells {
            status: Some("ok"),
            ..good
        };
        assert!(
            summarize([verify], None)
                .unwrap_err()
                .to_string()
                .contains("comes from verify")
        );
    }
}
