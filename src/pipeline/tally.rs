//! Row statuses and their counts, a value that merges across batches.

use std::ops::AddAssign;

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

impl std::str::FromStr for RowStatus {
    type Err = String;

    /// The status written as `name`.
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        RowStatus::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| format!("unknown status '{name}'"))
    }
}

impl std::fmt::Display for RowStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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

/// Rows counted by status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Tally {
    counts: [u64; RowStatus::ALL.len()],
}

impl Tally {
    /// Counts one row.
    pub fn add(&mut self, status: RowStatus) {
        self.counts[status as usize] += 1;
    }

    /// Counts `n` rows of one status.
    pub fn add_count(&mut self, status: RowStatus, n: u64) {
        self.counts[status as usize] += n;
    }

    /// Rows with this status.
    pub fn get(&self, status: RowStatus) -> u64 {
        self.counts[status as usize]
    }

    /// All rows.
    pub fn records(&self) -> u64 {
        self.counts.iter().sum()
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_merge() {
        let mut a = Tally::default();
        a.add(RowStatus::Solved);
        a.add(RowStatus::Invalid);
        let mut b = Tally::default();
        b.add(RowStatus::Solved);
        a += b;
        assert_eq!(a.get(RowStatus::Solved), 2);
        assert_eq!(a.get(RowStatus::Invalid), 1);
        assert_eq!(a.get(RowStatus::Ok), 0);
        assert_eq!(a.records(), 3);
        a.add_count(RowStatus::Ok, 5);
        assert_eq!(a.get(RowStatus::Ok), 5);
    }

    #[test]
    fn statuses_read_back_from_their_names() {
        for status in RowStatus::ALL {
            assert_eq!(status.name().parse(), Ok(status));
        }
        assert!("Solved".parse::<RowStatus>().is_err());
    }
}
