//! Dataset summaries that merge: how many records ended in each status, and the exact
//! distribution of every search counter, overall and per group.
//!
//! A [`Summary`] keeps, for each counter, how many records had each value (a value -> count
//! map). Everything it reports is computed from those maps, so nothing is sampled or estimated,
//! and two summaries merge by adding their maps: the merge of the summaries of the parts of a
//! dataset *equals* the summary of the whole, in any order and grouping. This is what lets
//! rayon workers, files or machines each summarise their share and one call combine them.
//!
//! # Definitions
//! - **records**: result rows added, whatever their status.
//! - **status counts**: records per [`RowStatus`]; they add up to `records`.
//! - **solved without guessing**: records with status `solved` and `guesses` = 0.
//! - **counter distributions**: for each [`Counter`], the values of the records that carry
//!   counters. `invalid` records carry none (their puzzle was never searched), so a
//!   distribution's count is the number of records that are not `invalid`.
//! - **mean**: the exact sum of the values divided by their count, rounded once to `f64`.
//! - **quantiles** use the *nearest-rank* rule: for `n` values and a percentage `p` in
//!   `1..=100`, the `p`-th percentile is the smallest value `v` such that at least
//!   `ceil(p * n / 100)` of the values are `<= v`. It is always one of the values; `p50` of
//!   `1, 2, 3, 4` is 2, `p90` of ten values is the ninth smallest, `p100` is the maximum. The
//!   rank is computed in integers, so no rounding error moves it.
//! - **histograms** ([`Buckets`]): powers of two (`[0]`, `[1]`, `[2,3]`, `[4,7]`, ...) for counters
//!   that spread over orders of magnitude, one bucket per value for `max_depth` and `givens`.
//!   Buckets run without gaps from the one holding the minimum to the one holding the maximum,
//!   empty buckets included. Values that span more than [`PER_VALUE_SPAN`] (never the case for
//!   the depth and givens of a 9x9 puzzle) fall back to powers of two, so that a strange input
//!   cannot ask for millions of buckets.
//! - **groups** ([`Summary::grouped_by`]): one summary per distinct value of a column (the
//!   `--by` column); the groups add up to the whole.

pub mod read;

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

use crate::solver::{Outcome, SearchStats};
pub use crate::status::{RowStatus, UnknownStatus};

/// One result row as a summary sees it: built by the pipeline for each record, or by the
/// [reader](read) from a line of a results file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row<'a> {
    /// How the record ended.
    pub status: RowStatus,
    /// The search counters; `None` for a record that was not searched (`invalid`).
    pub counters: Option<SearchStats>,
    /// The record's value in the grouping column; a grouped summary files a row without one
    /// under the empty string. Ignored by an ungrouped summary.
    pub group: Option<&'a str>,
}

impl Row<'static> {
    /// The row of a searched puzzle.
    pub fn from_outcome(outcome: &Outcome) -> Self {
        Row {
            status: outcome.status.into(),
            counters: Some(outcome.stats),
            group: None,
        }
    }

    /// The row of a record that could not be searched.
    pub fn invalid() -> Self {
        Row {
            status: RowStatus::Invalid,
            counters: None,
            group: None,
        }
    }
}

impl<'a> Row<'a> {
    /// The same row, filed under `group`.
    pub fn with_group<'b>(self, group: &'b str) -> Row<'b> {
        Row {
            status: self.status,
            counters: self.counters,
            group: Some(group),
        }
    }
}

/// The search counters a summary describes, with the names used in result files and reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Counter {
    /// Entries of the search procedure, the root included.
    Recursions,
    /// Deepest nesting of the search procedure; the root is 1.
    MaxDepth,
    /// Values placed at branch points.
    Guesses,
    /// Guesses undone.
    Backtracks,
    /// Cells placed because one digit was left for them.
    NakedSingles,
    /// Cells placed because a digit had one cell left in a unit.
    HiddenSingles,
    /// Filled cells in the puzzle.
    Givens,
}

impl Counter {
    /// Every counter, in the order of the result columns.
    pub const ALL: [Counter; 7] = [
        Counter::Recursions,
        Counter::MaxDepth,
        Counter::Guesses,
        Counter::Backtracks,
        Counter::NakedSingles,
        Counter::HiddenSingles,
        Counter::Givens,
    ];

    /// The column name.
    pub fn name(self) -> &'static str {
        match self {
            Counter::Recursions => "recursions",
            Counter::MaxDepth => "max_depth",
            Counter::Guesses => "guesses",
            Counter::Backtracks => "backtracks",
            Counter::NakedSingles => "naked_singles",
            Counter::HiddenSingles => "hidden_singles",
            Counter::Givens => "givens",
        }
    }

    /// How this counter's histogram is bucketed: one bucket per value for the counters with a
    /// small range (`max_depth`, `givens`), powers of two for the others.
    pub fn buckets(self) -> Buckets {
        match self {
            Counter::MaxDepth | Counter::Givens => Buckets::PerValue,
            _ => Buckets::PowersOfTwo,
        }
    }

    /// This counter's value in `stats`.
    pub fn of(self, stats: &SearchStats) -> u64 {
        match self {
            Counter::Recursions => stats.recursions,
            Counter::MaxDepth => stats.max_depth,
            Counter::Guesses => stats.guesses,
            Counter::Backtracks => stats.backtracks,
            Counter::NakedSingles => stats.naked_singles,
            Counter::HiddenSingles => stats.hidden_singles,
            Counter::Givens => stats.givens,
        }
    }
}

impl fmt::Display for Counter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a histogram groups values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Buckets {
    /// `[0]`, `[1]`, `[2,3]`, `[4,7]`, `[8,15]`, ...: bucket `k > 0` holds `2^(k-1) ..= 2^k - 1`.
    PowersOfTwo,
    /// One bucket per value, when the values span at most [`PER_VALUE_SPAN`]; otherwise
    /// powers of two.
    PerValue,
}

/// The widest range of values (`max - min + 1`) that [`Buckets::PerValue`] gives one bucket each.
pub const PER_VALUE_SPAN: u64 = 256;

impl Buckets {
    /// The index of the bucket holding `value`.
    fn index(self, value: u64) -> u64 {
        match self {
            Buckets::PowersOfTwo => u64::from(u64::BITS - value.leading_zeros()),
            Buckets::PerValue => value,
        }
    }

    /// The first and last value of bucket `index`.
    fn bounds(self, index: u64) -> (u64, u64) {
        match self {
            Buckets::PowersOfTwo if index == 0 => (0, 0),
            Buckets::PowersOfTwo => {
                let from = 1u64 << (index - 1);
                (from, from + (from - 1))
            }
            Buckets::PerValue => (index, index),
        }
    }
}

/// One histogram bucket: how many values lie in `from..=to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bucket {
    /// The smallest value of the bucket.
    pub from: u64,
    /// The largest value of the bucket.
    pub to: u64,
    /// How many values lie in `from..=to`.
    pub count: u64,
}

/// Values below this are counted in a vector rather than a map: most counters of most records
/// are small, and adding a record must stay cheap next to solving its puzzle. The vector grows
/// only as far as the largest value seen (at most 8 KiB).
const DENSE: usize = 1024;

/// Occurrences of the values `>= DENSE`, hashed for cheap adds; sorted only when read.
type Sparse = HashMap<u64, u64, BuildHasherDefault<ValueHasher>>;

/// A fast hasher for `u64` keys (the splitmix64 finaliser): the keys are counter values, not
/// input an attacker chooses to collide.
#[derive(Debug, Clone, Copy, Default)]
struct ValueHasher(u64);

impl Hasher for ValueHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, value: u64) {
        let mut x = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        self.0 = x ^ (x >> 31);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The exact distribution of one counter: how many times each value occurred.
///
/// Serialised as `{"values": {"VALUE": COUNT, ...}}` with values in increasing order and no
/// zero counts; two distributions are equal when they hold the same values the same number of
/// times.
#[derive(Debug, Clone, Default)]
pub struct Distribution {
    /// `dense[v]` = occurrences of `v`, for `v < DENSE`.
    dense: Vec<u64>,
    /// Occurrences of values `>= DENSE`.
    sparse: Sparse,
    count: u64,
    sum: u128,
}

impl Distribution {
    /// An empty distribution.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one occurrence of `value`.
    #[inline]
    pub fn add(&mut self, value: u64) {
        self.add_count(value, 1);
    }

    /// Records `times` occurrences of `value`.
    #[inline]
    pub fn add_count(&mut self, value: u64, times: u64) {
        if times == 0 {
            return;
        }
        if value < DENSE as u64 {
            let i = value as usize;
            if i >= self.dense.len() {
                self.dense.resize(i + 1, 0);
            }
            self.dense[i] += times;
        } else {
            *self.sparse.entry(value).or_insert(0) += times;
        }
        self.count += times;
        self.sum += u128::from(value) * u128::from(times);
    }

    /// Adds every occurrence recorded in `other`.
    pub fn merge(&mut self, other: &Distribution) {
        for (value, times) in other.iter() {
            self.add_count(value, times);
        }
    }

    /// `(value, occurrences)` for every value that occurred, in increasing order of value.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let dense = self
            .dense
            .iter()
            .enumerate()
            .filter(|&(_, &times)| times > 0)
            .map(|(value, &times)| (value as u64, times));
        let mut sparse: Vec<(u64, u64)> = self.sparse.iter().map(|(&v, &t)| (v, t)).collect();
        sparse.sort_unstable();
        dense.chain(sparse)
    }

    /// How many values were recorded.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether no value was recorded.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The exact sum of the values.
    pub fn sum(&self) -> u128 {
        self.sum
    }

    /// The smallest value, if any.
    pub fn min(&self) -> Option<u64> {
        self.iter().next().map(|(value, _)| value)
    }

    /// The largest value, if any.
    pub fn max(&self) -> Option<u64> {
        match self.sparse.keys().max() {
            Some(&value) => Some(value),
            None => self.dense.iter().rposition(|&t| t > 0).map(|v| v as u64),
        }
    }

    /// The exact sum divided by the count, rounded once to `f64`; `None` when empty.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / self.count as f64)
    }

    /// The `p`-th percentile by the nearest-rank rule (see the [module documentation](self)):
    /// the smallest value `v` such that at least `ceil(p * n / 100)` values are `<= v`, at
    /// least the first. `None` when empty.
    ///
    /// # Panics
    /// When `p` is above 100.
    pub fn percentile(&self, p: u32) -> Option<u64> {
        assert!(p <= 100, "a percentile is at most 100, not {p}");
        if self.count == 0 {
            return None;
        }
        let rank = (u128::from(p) * u128::from(self.count))
            .div_ceil(100)
            .max(1);
        let mut seen = 0u128;
        self.iter().find_map(|(value, times)| {
            seen += u128::from(times);
            (seen >= rank).then_some(value)
        })
    }

    /// The histogram of the values in `buckets`, from the bucket of the minimum to the bucket
    /// of the maximum without gaps; empty when no value was recorded.
    pub fn histogram(&self, buckets: Buckets) -> Vec<Bucket> {
        let (Some(min), Some(max)) = (self.min(), self.max()) else {
            return Vec::new();
        };
        let buckets = match buckets {
            Buckets::PerValue if max - min >= PER_VALUE_SPAN => Buckets::PowersOfTwo,
            other => other,
        };
        let first = buckets.index(min);
        let mut histogram: Vec<Bucket> = (first..=buckets.index(max))
            .map(|index| {
                let (from, to) = buckets.bounds(index);
                Bucket { from, to, count: 0 }
            })
            .collect();
        for (value, times) in self.iter() {
            histogram[(buckets.index(value) - first) as usize].count += times;
        }
        histogram
    }
}

impl PartialEq for Distribution {
    fn eq(&self, other: &Self) -> bool {
        self.count == other.count && self.iter().eq(other.iter())
    }
}

impl Eq for Distribution {}

impl AddAssign<&Distribution> for Distribution {
    fn add_assign(&mut self, other: &Distribution) {
        self.merge(other);
    }
}

/// The serialised form of a [`Distribution`].
#[derive(Serialize, Deserialize)]
struct DistributionForm {
    values: BTreeMap<u64, u64>,
}

impl Serialize for Distribution {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        DistributionForm {
            values: self.iter().collect(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Distribution {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let form = DistributionForm::deserialize(deserializer)?;
        let mut distribution = Distribution::new();
        for (value, times) in form.values {
            distribution.add_count(value, times);
        }
        Ok(distribution)
    }
}

/// Records per status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct StatusCounts {
    /// Records with status `solved`.
    pub solved: u64,
    /// Records with status `multiple`.
    pub multiple: u64,
    /// Records with status `unsolvable`.
    pub unsolvable: u64,
    /// Records with status `invalid`.
    pub invalid: u64,
    /// Records with status `gave_up`.
    pub gave_up: u64,
    /// Records with status `stuck`.
    pub stuck: u64,
}

impl StatusCounts {
    /// Records with `status`.
    pub fn get(&self, status: RowStatus) -> u64 {
        match status {
            RowStatus::Solved => self.solved,
            RowStatus::Multiple => self.multiple,
            RowStatus::Unsolvable => self.unsolvable,
            RowStatus::Invalid => self.invalid,
            RowStatus::GaveUp => self.gave_up,
            RowStatus::Stuck => self.stuck,
            // A summary counts the rows of `solve`; the reader refuses other statuses.
            RowStatus::Ok | RowStatus::Wrong => 0,
        }
    }

    fn slot(&mut self, status: RowStatus) -> &mut u64 {
        match status {
            RowStatus::Solved => &mut self.solved,
            RowStatus::Multiple => &mut self.multiple,
            RowStatus::Unsolvable => &mut self.unsolvable,
            RowStatus::Invalid => &mut self.invalid,
            RowStatus::GaveUp => &mut self.gave_up,
            RowStatus::Stuck => &mut self.stuck,
            RowStatus::Ok | RowStatus::Wrong => {
                unreachable!("a summary counts the rows of solve; the reader refuses {status}")
            }
        }
    }

    /// Records of every status together.
    pub fn total(&self) -> u64 {
        RowStatus::SOLVE.iter().map(|&s| self.get(s)).sum()
    }
}

impl AddAssign<&StatusCounts> for StatusCounts {
    fn add_assign(&mut self, other: &StatusCounts) {
        for status in RowStatus::SOLVE {
            *self.slot(status) += other.get(status);
        }
    }
}

/// The distribution of every [`Counter`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Counters {
    /// Distribution of `recursions`.
    pub recursions: Distribution,
    /// Distribution of `max_depth`.
    pub max_depth: Distribution,
    /// Distribution of `guesses`.
    pub guesses: Distribution,
    /// Distribution of `backtracks`.
    pub backtracks: Distribution,
    /// Distribution of `naked_singles`.
    pub naked_singles: Distribution,
    /// Distribution of `hidden_singles`.
    pub hidden_singles: Distribution,
    /// Distribution of `givens`.
    pub givens: Distribution,
}

impl Counters {
    /// The distribution of `counter`.
    pub fn get(&self, counter: Counter) -> &Distribution {
        match counter {
            Counter::Recursions => &self.recursions,
            Counter::MaxDepth => &self.max_depth,
            Counter::Guesses => &self.guesses,
            Counter::Backtracks => &self.backtracks,
            Counter::NakedSingles => &self.naked_singles,
            Counter::HiddenSingles => &self.hidden_singles,
            Counter::Givens => &self.givens,
        }
    }

    fn get_mut(&mut self, counter: Counter) -> &mut Distribution {
        match counter {
            Counter::Recursions => &mut self.recursions,
            Counter::MaxDepth => &mut self.max_depth,
            Counter::Guesses => &mut self.guesses,
            Counter::Backtracks => &mut self.backtracks,
            Counter::NakedSingles => &mut self.naked_singles,
            Counter::HiddenSingles => &mut self.hidden_singles,
            Counter::Givens => &mut self.givens,
        }
    }

    fn add(&mut self, stats: &SearchStats) {
        for counter in Counter::ALL {
            self.get_mut(counter).add(counter.of(stats));
        }
    }
}

impl AddAssign<&Counters> for Counters {
    fn add_assign(&mut self, other: &Counters) {
        for counter in Counter::ALL {
            self.get_mut(counter).merge(other.get(counter));
        }
    }
}

/// Two summaries grouped by different columns: their groups cannot be combined.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot merge a summary {} with one {}",
    grouping(.left),
    grouping(.right)
)]
pub struct MergeError {
    /// The grouping column of the summary merged into.
    pub left: Option<String>,
    /// The grouping column of the summary merged in.
    pub right: Option<String>,
}

fn grouping(by: &Option<String>) -> String {
    match by {
        Some(column) => format!("grouped by '{column}'"),
        None => "without groups".to_string(),
    }
}

/// A summary whose numbers do not agree with each other (a hand-edited or truncated file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Inconsistency {
    /// The status counts do not add up to the records.
    #[error("{context}status counts add up to {total}, but records is {records}")]
    StatusTotal {
        /// `group 'X': ` or empty for the whole.
        context: String,
        /// Sum of the status counts.
        total: u64,
        /// The records field.
        records: u64,
    },
    /// A counter describes more records than there are.
    #[error("{context}{counter} describes {count} records, more than the {records} there are")]
    CounterCount {
        /// `group 'X': ` or empty for the whole.
        context: String,
        /// The counter.
        counter: Counter,
        /// Values in its distribution.
        count: u64,
        /// The records field.
        records: u64,
    },
    /// More records solved without guessing than solved.
    #[error("{context}{without} solved without guessing, but only {solved} solved")]
    WithoutGuess {
        /// `group 'X': ` or empty for the whole.
        context: String,
        /// The solved_without_guess field.
        without: u64,
        /// The solved count.
        solved: u64,
    },
    /// Groups without a grouping column, or a group that is itself grouped.
    #[error("groups are present but no grouping column is named")]
    GroupsWithoutColumn,
    /// The groups do not add up to the whole.
    #[error("the groups do not add up to the whole summary")]
    GroupsDoNotAddUp,
}

/// The summary of a set of result rows: records, status counts, the exact distribution of each
/// counter, and optionally the same per value of a grouping column.
///
/// Build one with [`Summary::new`] or [`Summary::grouped_by`], [`add`](Summary::add) rows, and
/// combine summaries with [`merge`](Summary::merge) or `+=`. [`Summary::default`] is the empty
/// summary, a neutral element for merging with any summary.
///
/// Its serde form holds the counts only; the documented JSON document, with the derived
/// numbers beside them, is written and read by [`crate::report::json`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    records: u64,
    status: StatusCounts,
    solved_without_guess: u64,
    counters: Counters,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    by: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    groups: BTreeMap<String, Summary>,
}

impl Summary {
    /// An empty summary without groups.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty summary that also keeps one summary per value of `column`.
    pub fn grouped_by(column: impl Into<String>) -> Self {
        Summary {
            by: Some(column.into()),
            ..Summary::default()
        }
    }

    /// Counts one result row; when this summary is grouped, also in the row's group.
    pub fn add(&mut self, row: &Row<'_>) {
        if self.by.is_some() {
            let key = row.group.unwrap_or("");
            match self.groups.get_mut(key) {
                Some(group) => group.add_whole(row),
                None => {
                    let mut group = Summary::new();
                    group.add_whole(row);
                    self.groups.insert(key.to_string(), group);
                }
            }
        }
        self.add_whole(row);
    }

    fn add_whole(&mut self, row: &Row<'_>) {
        self.records += 1;
        *self.status.slot(row.status) += 1;
        if let Some(stats) = &row.counters {
            self.counters.add(stats);
            if row.status == RowStatus::Solved && stats.guesses == 0 {
                self.solved_without_guess += 1;
            }
        }
    }

    /// Adds everything counted in `other`.
    ///
    /// Fails, changing nothing, when both are grouped by different columns, or when one is
    /// grouped and the other holds records without groups. An empty summary without groups
    /// merges with any summary.
    pub fn merge(&mut self, other: &Summary) -> Result<(), MergeError> {
        if self.by != other.by {
            if other.by.is_none() && other.records == 0 {
                return Ok(());
            }
            if self.by.is_none() && self.records == 0 {
                self.by = other.by.clone();
            } else {
                return Err(MergeError {
                    left: self.by.clone(),
                    right: other.by.clone(),
                });
            }
        }
        self.add_counts(other);
        Ok(())
    }

    /// Adds the counts of `other` and of its groups, whatever their grouping columns.
    fn add_counts(&mut self, other: &Summary) {
        self.records += other.records;
        self.status += &other.status;
        self.solved_without_guess += other.solved_without_guess;
        self.counters += &other.counters;
        for (key, group) in &other.groups {
            match self.groups.get_mut(key) {
                Some(mine) => mine.add_counts(group),
                None => {
                    self.groups.insert(key.clone(), group.clone());
                }
            }
        }
    }

    /// This summary without its groups.
    pub fn ungrouped(mut self) -> Summary {
        self.by = None;
        self.groups.clear();
        self
    }

    /// Result rows counted.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Records per status.
    pub fn status(&self) -> &StatusCounts {
        &self.status
    }

    /// Records with status `solved` and no guess.
    pub fn solved_without_guess(&self) -> u64 {
        self.solved_without_guess
    }

    /// The distribution of every counter.
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// The distribution of `counter`.
    pub fn counter(&self, counter: Counter) -> &Distribution {
        self.counters.get(counter)
    }

    /// `count` as a fraction of the records; `None` when there are none.
    pub fn share(&self, count: u64) -> Option<f64> {
        (self.records > 0).then(|| count as f64 / self.records as f64)
    }

    /// The grouping column, if this summary is grouped.
    pub fn by(&self) -> Option<&str> {
        self.by.as_deref()
    }

    /// The summary of each group, keyed by the column's value.
    pub fn groups(&self) -> &BTreeMap<String, Summary> {
        &self.groups
    }

    /// The groups in reading order: by numeric value when every key but the empty one is an
    /// integer (so `9` comes before `17`), otherwise by key; the empty key first.
    pub fn groups_in_order(&self) -> Vec<(&str, &Summary)> {
        let mut groups: Vec<(&str, &Summary)> =
            self.groups.iter().map(|(k, s)| (k.as_str(), s)).collect();
        let numbers: Option<Vec<i128>> = groups
            .iter()
            .map(|(k, _)| {
                if k.is_empty() {
                    Some(i128::MIN)
                } else {
                    k.parse().ok()
                }
            })
            .collect();
        if let Some(numbers) = numbers {
            let mut keyed: Vec<_> = numbers.into_iter().zip(groups).collect();
            keyed.sort_by_key(|(n, _)| *n);
            groups = keyed.into_iter().map(|(_, g)| g).collect();
        }
        groups
    }

    /// Checks that the numbers agree: status counts add up to the records, no counter
    /// describes more records than there are, groups (if any) add up to the whole.
    pub fn check(&self) -> Result<(), Inconsistency> {
        self.check_whole("")?;
        if self.groups.is_empty() {
            return Ok(());
        }
        if self.by.is_none() {
            return Err(Inconsistency::GroupsWithoutColumn);
        }
        let mut total = Summary::new();
        for (key, group) in &self.groups {
            if group.by.is_some() || !group.groups.is_empty() {
                return Err(Inconsistency::GroupsWithoutColumn);
            }
            group.check_whole(&format!("group '{key}': "))?;
            total.add_counts(group);
        }
        if total != self.clone().ungrouped() {
            return Err(Inconsistency::GroupsDoNotAddUp);
        }
        Ok(())
    }

    fn check_whole(&self, context: &str) -> Result<(), Inconsistency> {
        let total = self.status.total();
        if total != self.records {
            return Err(Inconsistency::StatusTotal {
                context: context.to_string(),
                total,
                records: self.records,
            });
        }
        for counter in Counter::ALL {
            let count = self.counter(counter).count();
            if count > self.records {
                return Err(Inconsistency::CounterCount {
                    context: context.to_string(),
                    counter,
                    count,
                    records: self.records,
                });
            }
        }
        if self.solved_without_guess > self.status.solved {
            return Err(Inconsistency::WithoutGuess {
                context: context.to_string(),
                without: self.solved_without_guess,
                solved: self.status.solved,
            });
        }
        Ok(())
    }
}

/// Merges, panicking where [`Summary::merge`] fails.
///
/// # Panics
/// When the summaries are grouped differently (see [`Summary::merge`]).
impl AddAssign<&Summary> for Summary {
    fn add_assign(&mut self, other: &Summary) {
        if let Err(e) = self.merge(other) {
            panic!("{e}");
        }
    }
}

/// Merges, panicking where [`Summary::merge`] fails.
///
/// # Panics
/// When the summaries are grouped differently (see [`Summary::merge`]).
impl AddAssign<Summary> for Summary {
    fn add_assign(&mut self, other: Summary) {
        *self += &other;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(values: &[u64]) -> Distribution {
        let mut d = Distribution::new();
        values.iter().for_each(|&v| d.add(v));
        d
    }

    fn stats(recursions: u64, guesses: u64) -> SearchStats {
        SearchStats {
            recursions,
            max_depth: recursions.min(5),
            guesses,
            backtracks: guesses / 2,
            naked_singles: 40,
            hidden_singles: 20,
            givens: 17 + guesses % 3,
        }
    }

    fn row(status: RowStatus, recursions: u64, guesses: u64) -> Row<'static> {
        Row {
            status,
            counters: Some(stats(recursions, guesses)),
            group: None,
        }
    }

    #[test]
    fn nearest_rank_percentiles() {
        let d = dist(&[1, 2, 3, 4]);
        assert_eq!(d.percentile(50), Some(2));
        assert_eq!(d.percentile(51), Some(3));
        assert_eq!(d.percentile(100), Some(4));
        assert_eq!(d.percentile(0), Some(1));
        let ten = dist(&[10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
        assert_eq!(ten.percentile(90), Some(9));
        assert_eq!(ten.percentile(91), Some(10));
        assert_eq!(ten.percentile(99), Some(10));
        assert_eq!(dist(&[]).percentile(50), None);
    }

    #[test]
    fn percentiles_see_large_values_in_the_sparse_part() {
        let d = dist(&[70_000, 3, 1000, 5000, 5000, 1 << 40, 2000]);
        assert_eq!(d.min(), Some(3));
        assert_eq!(d.max(), Some(1 << 40));
        assert_eq!(d.percentile(50), Some(5000));
        assert_eq!(d.percentile(14), Some(3));
        assert_eq!(d.percentile(15), Some(1000));
        assert_eq!(d.percentile(29), Some(2000));
        assert_eq!(d.percentile(85), Some(70_000));
        assert_eq!(d.percentile(86), Some(1 << 40));
        let sum = 3 + 1000 + 2000 + 5000 + 5000 + 70_000 + (1u128 << 40);
        assert_eq!(d.sum(), sum);
        assert_eq!(d.mean(), Some(sum as f64 / 7.0));
        let values: Vec<u64> = d.iter().map(|(v, _)| v).collect();
        assert_eq!(values, [3, 1000, 2000, 5000, 70_000, 1 << 40]);
    }

    #[test]
    fn power_of_two_buckets_run_without_gaps() {
        let h = dist(&[2, 3, 9, 300]).histogram(Buckets::PowersOfTwo);
        let got: Vec<(u64, u64, u64)> = h.iter().map(|b| (b.from, b.to, b.count)).collect();
        assert_eq!(
            got,
            [
                (2, 3, 2),
                (4, 7, 0),
                (8, 15, 1),
                (16, 31, 0),
                (32, 63, 0),
                (64, 127, 0),
                (128, 255, 0),
                (256, 511, 1)
            ]
        );
        let zero = dist(&[0, 1, 1]).histogram(Buckets::PowersOfTwo);
        assert_eq!(
            zero,
            [
                Bucket {
                    from: 0,
                    to: 0,
                    count: 1
                },
                Bucket {
                    from: 1,
                    to: 1,
                    count: 2
                }
            ]
        );
    }

    #[test]
    fn power_of_two_bucket_of_the_largest_value() {
        let h = dist(&[u64::MAX]).histogram(Buckets::PowersOfTwo);
        assert_eq!(h.len(), 1);
        assert_eq!((h[0].from, h[0].to), (1 << 63, u64::MAX));
    }

    #[test]
    fn per_value_buckets_include_empty_values() {
        let h = dist(&[17, 19, 19]).histogram(Buckets::PerValue);
        let got: Vec<(u64, u64)> = h.iter().map(|b| (b.from, b.count)).collect();
        assert_eq!(got, [(17, 1), (18, 0), (19, 2)]);
        assert!(h.iter().all(|b| b.from == b.to));
    }

    #[test]
    fn per_value_buckets_fall_back_to_powers_of_two_over_a_wide_span() {
        let last = PER_VALUE_SPAN - 1;
        assert_eq!(dist(&[0, last]).histogram(Buckets::PerValue).len(), 256);
        let wide = dist(&[0, last + 1]).histogram(Buckets::PerValue);
        assert_eq!(wide, dist(&[0, last + 1]).histogram(Buckets::PowersOfTwo));
        let huge = dist(&[17, 1 << 40]).histogram(Buckets::PerValue);
        assert_eq!(huge.len(), 37);
    }

    #[test]
    fn distributions_equal_whatever_their_storage() {
        let mut a = dist(&[1, 300]);
        let b = dist(&[300, 1]);
        assert_eq!(a, b);
        a.add_count(7, 0);
        assert_eq!(a, b);
        a.add(2);
        assert_ne!(a, b);
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, r#"{"values":{"1":1,"2":1,"300":1}}"#);
        assert_eq!(serde_json::from_str::<Distribution>(&json).unwrap(), a);
    }

    #[test]
    fn status_and_guessing_counts() {
        let mut s = Summary::new();
        s.add(&row(RowStatus::Solved, 1, 0));
        s.add(&row(RowStatus::Solved, 9, 4));
        s.add(&row(RowStatus::Multiple, 3, 0));
        s.add(&Row::invalid());
        assert_eq!(s.records(), 4);
        assert_eq!(s.status().solved, 2);
        assert_eq!(s.status().multiple, 1);
        assert_eq!(s.status().invalid, 1);
        assert_eq!(s.solved_without_guess(), 1);
        assert_eq!(s.counter(Counter::Recursions).count(), 3);
        assert_eq!(s.share(1), Some(0.25));
        assert_eq!(Summary::new().share(0), None);
        s.check().unwrap();
    }

    #[test]
    fn grouped_rows_without_a_value_go_to_the_empty_group() {
        let mut s = Summary::grouped_by("difficulty");
        s.add(&row(RowStatus::Solved, 1, 0).with_group("easy"));
        s.add(&row(RowStatus::Solved, 5, 2));
        assert_eq!(s.groups().len(), 2);
        assert_eq!(s.groups()[""].records(), 1);
        assert_eq!(s.groups()["easy"].records(), 1);
        s.check().unwrap();
    }

    #[test]
    fn merge_refuses_different_groupings_and_changes_nothing() {
        let mut a = Summary::grouped_by("givens");
        a.add(&row(RowStatus::Solved, 1, 0).with_group("17"));
        let before = a.clone();
        let mut b = Summary::grouped_by("difficulty");
        b.add(&row(RowStatus::Solved, 1, 0).with_group("easy"));
        let err = a.merge(&b).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot merge a summary grouped by 'givens' with one grouped by 'difficulty'"
        );
        assert_eq!(a, before);
        let mut plain = Summary::new();
        plain.add(&row(RowStatus::Solved, 1, 0));
        assert!(a.merge(&plain).is_err());
        assert_eq!(a, before);
    }

    #[test]
    fn the_empty_summary_is_neutral() {
        let mut a = Summary::grouped_by("givens");
        a.add(&row(RowStatus::Solved, 4, 1).with_group("17"));
        let mut left = Summary::default();
        left += &a;
        assert_eq!(left, a);
        let mut right = a.clone();
        right += Summary::default();
        assert_eq!(right, a);
    }

    #[test]
    fn groups_sort_numerically_when_all_keys_are_numbers() {
        let mut s = Summary::grouped_by("givens");
        for g in ["17", "9", "24"] {
            s.add(&row(RowStatus::Solved, 1, 0).with_group(g));
        }
        let keys: Vec<&str> = s.groups_in_order().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["9", "17", "24"]);
        s.add(&row(RowStatus::Solved, 1, 0));
        let keys: Vec<&str> = s.groups_in_order().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["", "9", "17", "24"]);
        s.add(&row(RowStatus::Solved, 1, 0).with_group("x"));
        let keys: Vec<&str> = s.groups_in_order().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["", "17", "24", "9", "x"]);
    }

    #[test]
    fn check_finds_groups_that_do_not_add_up() {
        let mut s = Summary::grouped_by("givens");
        s.add(&row(RowStatus::Solved, 1, 0).with_group("17"));
        s.add(&row(RowStatus::Solved, 2, 1).with_group("18"));
        s.check().unwrap();
        let mut broken = s.clone();
        broken.groups.remove("18");
        assert_eq!(broken.check(), Err(Inconsistency::GroupsDoNotAddUp));
        let mut broken = s.clone();
        broken.records += 1;
        assert!(matches!(
            broken.check(),
            Err(Inconsistency::StatusTotal { .. })
        ));
    }

    #[test]
    fn status_names_parse_back() {
        for status in RowStatus::ALL {
            assert_eq!(status.name().parse::<RowStatus>(), Ok(status));
        }
        assert!("Solved".parse::<RowStatus>().is_err());
    }
}
