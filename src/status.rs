//! The status of one result row, shared by the pipeline that writes rows and the statistics that
//! read them back.

use std::fmt;
use std::str::FromStr;

/// The status of one output row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RowStatus {
    /// solve: exactly one solution (or the first, with `--max-solutions 1`).
    Solved,
    /// solve: at least two solutions.
    Multiple,
    /// solve: no solution, though the givens do not conflict.
    Unsolvable,
    /// solve: the record could not be read, or its givens conflict; verify: the puzzle or the
    /// solution could not be read, or the puzzle's givens conflict.
    Invalid,
    /// The recursion budget ran out first (solve; verify `--unique`).
    GaveUp,
    /// solve with the `logic` algorithm: propagation stopped with blank cells left.
    Stuck,
    /// verify: the solution is right.
    Ok,
    /// verify: the solution is wrong (or, with `--unique`, not the unique one).
    Wrong,
}

impl RowStatus {
    /// Every status, in the order summaries list them.
    pub const ALL: [RowStatus; 8] = [
        RowStatus::Solved,
        RowStatus::Multiple,
        RowStatus::Unsolvable,
        RowStatus::Invalid,
        RowStatus::GaveUp,
        RowStatus::Stuck,
        RowStatus::Ok,
        RowStatus::Wrong,
    ];

    /// The statuses of a `solve` row, in the order summaries list them.
    pub const SOLVE: [RowStatus; 6] = [
        RowStatus::Solved,
        RowStatus::Multiple,
        RowStatus::Unsolvable,
        RowStatus::Invalid,
        RowStatus::GaveUp,
        RowStatus::Stuck,
    ];

    /// The name written in the `status` column.
    pub fn name(self) -> &'static str {
        match self {
            RowStatus::Solved => "solved",
            RowStatus::Multiple => "multiple",
            RowStatus::Unsolvable => "unsolvable",
            RowStatus::Invalid => "invalid",
            RowStatus::GaveUp => "gave_up",
            RowStatus::Stuck => "stuck",
            RowStatus::Ok => "ok",
            RowStatus::Wrong => "wrong",
        }
    }
}

impl fmt::Display for RowStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<crate::solver::Status> for RowStatus {
    fn from(status: crate::solver::Status) -> Self {
        use crate::solver::Status;
        match status {
            Status::Solved => RowStatus::Solved,
            Status::Multiple => RowStatus::Multiple,
            Status::Unsolvable => RowStatus::Unsolvable,
            Status::GaveUp => RowStatus::GaveUp,
            Status::Stuck => RowStatus::Stuck,
        }
    }
}

/// A status name that is not one of [`RowStatus::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown status '{0}' (expected one of solved, multiple, unsolvable, invalid, gave_up, stuck, ok, wrong)"
)]
pub struct UnknownStatus(pub String);

impl FromStr for RowStatus {
    type Err = UnknownStatus;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RowStatus::ALL
            .into_iter()
            .find(|status| status.name() == s)
            .ok_or_else(|| UnknownStatus(s.to_string()))
    }
}
