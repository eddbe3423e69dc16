//! The hardest records of a summary: the [`HARDEST`] records that needed the most search, kept
//! with where they are and their puzzle, so that a report can list the tail of a dataset and
//! how to look at each one (`sudoku-bulk show PUZZLE`).
//!
//! # Definition
//! Records are ranked by `recursions`, then `guesses`, the most first; ties go to the record
//! that comes first by `file` (no file first), then `line`, then the puzzle and the other
//! fields, so that the order is total and the list is the same whatever the order in which the
//! records were added. Only records that carry counters (every status but `invalid`) are
//! ranked. The list is the first [`HARDEST`] records in that order: merging two lists and
//! keeping the first [`HARDEST`] gives the list of the union, so it merges like the rest of a
//! summary, in bounded space.

use std::cmp::{Ordering, Reverse};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::counter::Counter;
use crate::row::{SolveStatus, Status};
use crate::solver::SearchStats;

/// How many records a summary keeps.
pub const HARDEST: usize = 20;

/// One of the hardest records: where it is, its puzzle, its status and counters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HardRecord {
    /// The input it was read from, when the results name it (a `file` column: several inputs).
    pub file: Option<String>,
    /// The line where it starts in that input.
    pub line: u64,
    /// The puzzle, 81 characters.
    pub puzzle: String,
    /// The record's own region layout (jigsaw), when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regions: Option<String>,
    /// How it ended.
    #[serde(serialize_with = "status_name", deserialize_with = "status_of_name")]
    pub status: SolveStatus,
    /// Its search counters.
    #[serde(flatten)]
    pub counters: SearchStats,
}

fn status_name<S: Serializer>(status: &SolveStatus, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(status.name())
}

fn status_of_name<'de, D: Deserializer<'de>>(deserializer: D) -> Result<SolveStatus, D::Error> {
    let name = String::deserialize(deserializer)?;
    SolveStatus::from_name(&name)
        .filter(|s| *s != SolveStatus::Invalid)
        .ok_or_else(|| {
            serde::de::Error::custom(format!("'{name}' is not the status of a searched record"))
        })
}

impl HardRecord {
    /// The ranking key: the hardest first, then a total order over every field.
    #[allow(clippy::type_complexity)]
    fn key(
        &self,
    ) -> (
        Reverse<u64>,
        Reverse<u64>,
        &Option<String>,
        u64,
        &str,
        SolveStatus,
        [u64; 7],
        &Option<String>,
    ) {
        (
            Reverse(self.counters.recursions),
            Reverse(self.counters.guesses),
            &self.file,
            self.line,
            &self.puzzle,
            self.status,
            Counter::ALL.map(|c| c.of(&self.counters)),
            &self.regions,
        )
    }
}

impl Ranked for HardRecord {
    fn rank(&self, other: &HardRecord) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// A record that a list of the hardest ranks: [`Ranked::rank`] is a total order, `Less`
/// harder.
pub trait Ranked: Clone {
    /// The ranking order: `Less` is harder.
    fn rank(&self, other: &Self) -> Ordering;
}

/// The [`HARDEST`] hardest records, the hardest first: of the searches ([`HardRecord`], the
/// default), or of another ranking (the Sudoku Explainer ratings,
/// [`super::rating::se::SeHardRecord`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hardest<R = HardRecord> {
    records: Vec<R>,
}

impl<R> Default for Hardest<R> {
    fn default() -> Self {
        Hardest {
            records: Vec::new(),
        }
    }
}

impl Hardest {
    /// Whether a record with these counters could enter the list: a cheap test before the
    /// record is built.
    pub fn could_take(&self, counters: &SearchStats) -> bool {
        match self.records.get(HARDEST - 1) {
            None => true,
            Some(last) => {
                (counters.recursions, counters.guesses)
                    >= (last.counters.recursions, last.counters.guesses)
            }
        }
    }
}

impl<R: Ranked> Hardest<R> {
    /// Offers one record: it enters the list if it ranks among the [`HARDEST`] first.
    pub fn offer(&mut self, record: R) {
        let at = self
            .records
            .partition_point(|r| r.rank(&record) != Ordering::Greater);
        if at < HARDEST {
            self.records.insert(at, record);
            self.records.truncate(HARDEST);
        }
    }

    /// Adds every record of `other`.
    pub fn merge(&mut self, other: &Hardest<R>) {
        for record in &other.records {
            self.offer(record.clone());
        }
    }

    /// The records, the hardest first.
    pub fn records(&self) -> &[R] {
        &self.records
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Whether the list is one this module could have made: at most [`HARDEST`] records, in
    /// ranking order.
    pub fn is_well_formed(&self) -> bool {
        self.records.len() <= HARDEST
            && self
                .records
                .windows(2)
                .all(|w| w[0].rank(&w[1]) != Ordering::Greater)
    }
}

impl<R: Serialize> Serialize for Hardest<R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.records.serialize(serializer)
    }
}

impl<'de, R: Deserialize<'de>> Deserialize<'de> for Hardest<R> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Hardest {
            records: Vec::deserialize(deserializer)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(line: u64, recursions: u64, guesses: u64) -> HardRecord {
        HardRecord {
            file: None,
            line,
            puzzle: format!("{line:0>81}"),
            regions: None,
            status: SolveStatus::Solved,
            counters: SearchStats {
                recursions,
                guesses,
                ..SearchStats::default()
            },
        }
    }

    fn lines(h: &Hardest) -> Vec<u64> {
        h.records().iter().map(|r| r.line).collect()
    }

    #[test]
    fn keeps_the_most_recursions_then_guesses_then_the_first_line() {
        let mut h = Hardest::default();
        for (line, rec, guesses) in [(1, 5, 1), (2, 9, 0), (3, 5, 4), (4, 9, 0), (5, 1, 0)] {
            h.offer(record(line, rec, guesses));
        }
        assert_eq!(lines(&h), [2, 4, 3, 1, 5]);
        assert!(h.is_well_formed());
    }

    #[test]
    fn any_order_and_any_split_give_the_same_list() {
        let all: Vec<HardRecord> = (0..100u64)
            .map(|i| record(i, (i * 37) % 23, (i * 11) % 5))
            .collect();
        let mut whole = Hardest::default();
        for r in &all {
            whole.offer(r.clone());
        }
        assert_eq!(whole.records().len(), HARDEST);
        let mut backwards = Hardest::default();
        for r in all.iter().rev() {
            if backwards.could_take(&r.counters) {
                backwards.offer(r.clone());
            }
        }
        assert_eq!(backwards, whole);
        for cut in [0, 1, 17, 50, 99] {
            let (mut left, mut right) = (Hardest::default(), Hardest::default());
            all[..cut].iter().for_each(|r| left.offer(r.clone()));
            all[cut..].iter().for_each(|r| right.offer(r.clone()));
            right.merge(&left);
            assert_eq!(right, whole, "cut at {cut}");
        }
    }

    #[test]
    fn reads_back_and_refuses_an_invalid_status() {
        let mut h = Hardest::default();
        h.offer(HardRecord {
            file: Some("a.txt".into()),
            regions: Some("1".repeat(81)),
            ..record(7, 300, 299)
        });
        let text = serde_json::to_string(&h).unwrap();
        assert!(text.contains("\"status\":\"solved\""), "{text}");
        assert!(text.contains("\"recursions\":300"), "{text}");
        assert_eq!(serde_json::from_str::<Hardest>(&text).unwrap(), h);
        let invalid = text.replace("\"solved\"", "\"invalid\"");
        assert!(serde_json::from_str::<Hardest>(&invalid).is_err());
    }
}
