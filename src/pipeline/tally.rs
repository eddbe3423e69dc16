//! Row counts by status, a value that merges across batches.

use std::ops::AddAssign;

pub use crate::status::RowStatus;

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
}
