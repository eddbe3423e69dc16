//! The summary of a set of result rows: records, status counts, the exact distribution of every
//! counter, and optionally the same per value of a grouping column. Summaries merge exactly.

use std::collections::BTreeMap;
use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

use super::bins::{Bins, Number};
use super::counter::Counter;
use super::distinct::DistinctForms;
use super::distribution::Distribution;
use super::hardest::{HardRecord, Hardest};
use super::rating::se::{SeHardRecord, SeInconsistency, SeRow, SeSummary};
use super::rating::{RatedRow, RatingInconsistency, RatingSummary};
use crate::row::{SolveStatus, Tally};
use crate::solver::{Outcome, SearchStats};

/// One result row as a summary sees it: built by the pipeline for each record, or by the
/// [reader](read) from a line of a results file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row<'a> {
    /// How the record ended.
    pub status: SolveStatus,
    /// The search counters; `None` for a record that was not searched (`invalid`).
    pub counters: Option<SearchStats>,
    /// The record's value in the grouping column; a grouped summary files a row without one
    /// under the empty string. Ignored by an ungrouped summary.
    pub group: Option<&'a str>,
    /// Where the record is and its puzzle, for the list of the [hardest](Summary::hardest);
    /// a row without it is counted but never listed.
    pub record: Option<RecordRef<'a>>,
}

/// The record a row is about: where it is in its input, and its puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordRef<'a> {
    /// The input, when the results name it (several inputs).
    pub file: Option<&'a str>,
    /// The line where the record starts.
    pub line: u64,
    /// The puzzle as the results write it.
    pub puzzle: &'a str,
    /// The record's own region layout, if any.
    pub regions: Option<&'a str>,
}

impl Row<'static> {
    /// The row of a searched puzzle.
    pub fn from_outcome(outcome: &Outcome) -> Self {
        Row {
            status: outcome.status.into(),
            counters: Some(outcome.stats),
            group: None,
            record: None,
        }
    }

    /// The row of a record that could not be searched.
    pub fn invalid() -> Self {
        Row {
            status: SolveStatus::Invalid,
            counters: None,
            group: None,
            record: None,
        }
    }
}

impl<'a> Row<'a> {
    /// The same row, filed under `group`.
    pub fn with_group<'b>(self, group: &'b str) -> Row<'b>
    where
        'a: 'b,
    {
        Row {
            group: Some(group),
            ..self
        }
    }

    /// The same row, about `record`.
    pub fn about<'b>(self, record: RecordRef<'b>) -> Row<'b>
    where
        'a: 'b,
    {
        Row {
            record: Some(record),
            ..self
        }
    }
}

/// A row of any results file `stats` reads: of `solve`, or of `rate` ([`super::rating`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultRow<'a> {
    /// A row of `solve`.
    Solve(Row<'a>),
    /// A row of `rate`.
    Rate(RatedRow<'a>),
    /// A row of `rate --scale se`.
    Se(SeRow<'a>),
}

impl<'a> ResultRow<'a> {
    /// The row's value in the grouping column.
    pub fn group(&self) -> Option<&'a str> {
        match self {
            ResultRow::Solve(row) => row.group,
            ResultRow::Rate(row) => row.group,
            ResultRow::Se(row) => row.group,
        }
    }

    /// The same row, with `group` as its value in the grouping column.
    pub fn with_group<'b>(&self, group: &'b str) -> ResultRow<'b>
    where
        'a: 'b,
    {
        match self {
            ResultRow::Solve(row) => ResultRow::Solve(row.with_group(group)),
            ResultRow::Rate(row) => ResultRow::Rate(RatedRow {
                group: Some(group),
                ..row.clone()
            }),
            ResultRow::Se(row) => ResultRow::Se(SeRow {
                group: Some(group),
                ..row.clone()
            }),
        }
    }
}

/// The command of the rows of a summary with a rating part.
const RATE: &str = "rate";
/// The command of the rows of a summary with a Sudoku Explainer part.
const RATE_SE: &str = "rate --scale se";

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

/// Why two summaries cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unmergeable {
    /// Grouped differently (by different columns, or in different bins): their groups cannot
    /// be combined.
    #[error("cannot merge a summary {left} with one {right}")]
    Grouping {
        /// How the summary merged into is grouped, in words.
        left: String,
        /// How the summary merged in is grouped, in words.
        right: String,
    },
    /// More records in all than a count holds. Every other count of a consistent summary is
    /// at most its records, so this is the one sum that can overflow.
    #[error(
        "cannot merge summaries of {left} and {right} records: more than {} in all",
        u64::MAX
    )]
    TooMany {
        /// Records of the summary merged into.
        left: u64,
        /// Records of the summary merged in.
        right: u64,
    },
    /// Rows of `rate` and rows of another command: their shares would be taken over different
    /// rows (the levels over the rated ones, the statuses over all).
    #[error(
        "cannot summarise rows of {left} together with rows of {right}: give the outputs of \
         one command at a time"
    )]
    Commands {
        /// The command of the rows merged into: `rate`, or `solve` (any other).
        left: &'static str,
        /// The command of the rows merged in.
        right: &'static str,
    },
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
    /// A counter describes another number of records than were searched (all but the invalid).
    #[error(
        "{context}{counter} describes {count} records, but the statuses say {searched} were \
         searched (all but the invalid ones)"
    )]
    CounterCount {
        /// `group 'X': ` or empty for the whole.
        context: String,
        /// The counter.
        counter: Counter,
        /// Values in its distribution.
        count: u64,
        /// The records the status counts say were searched.
        searched: u64,
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
    /// The rating part disagrees with itself.
    #[error("{context}{problem}")]
    Rating {
        /// `group 'X': ` or empty for the whole.
        context: String,
        /// What disagrees.
        problem: RatingInconsistency,
    },
    /// The Sudoku Explainer rating part disagrees with itself.
    #[error("{context}{problem}")]
    SeRating {
        /// `group 'X': ` or empty for the whole.
        context: String,
        /// What disagrees.
        problem: SeInconsistency,
    },
    /// A group of a binned summary whose name is not one of its bins.
    #[error("group '{key}' is not one of the bins")]
    NotABin {
        /// The group's key.
        key: String,
    },
    /// The list of the hardest records is out of order, too long, kept by a group, or
    /// describes records the counters do not hold.
    #[error("{context}the list of the hardest records {problem}")]
    Hardest {
        /// `group 'X': ` or empty for the whole.
        context: String,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// More puzzles with a canonical form than records.
    #[error("canonical: {puzzles} puzzles counted, but records is {records}")]
    CanonicalPuzzles {
        /// The canonical puzzles field.
        puzzles: u64,
        /// The records field.
        records: u64,
    },
}

/// The summary of a set of result rows: records, status counts, the exact distribution of each
/// counter, and optionally the same per value of a grouping column.
///
/// Build one with [`Summary::new`] or [`Summary::grouped_by`], [`add`](Summary::add) rows, and
/// combine summaries with [`merge`](Summary::merge). [`Summary::default`] is the empty
/// summary, a neutral element for merging with any summary.
///
/// Its serde form holds the counts only; the documented JSON document, with the derived
/// numbers beside them, is written and read by [`super::document`].
///
/// A grouped summary may be *binned* ([`Summary::bins`]): its groups are then ranges of a
/// numeric column ([`super::bins`]), named by their labels. Only the whole keeps the list of
/// the [hardest](Summary::hardest) records; its groups do not.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    records: u64,
    status: Tally<SolveStatus>,
    solved_without_guess: u64,
    counters: Counters,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bins: Option<Bins>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    groups: BTreeMap<String, Summary>,
    /// The rows of `rate` ([`super::rating`]), when there are any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rating: Option<RatingSummary>,
    /// The rows of `rate --scale se` ([`super::rating::se`]), when there are any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    se_rating: Option<SeSummary>,
    #[serde(default, skip_serializing_if = "Hardest::is_empty")]
    hardest: Hardest,
    /// The hardest rows of `rate --scale se`, by ER (whole summary only).
    #[serde(default, skip_serializing_if = "Hardest::is_empty")]
    se_hardest: Hardest<SeHardRecord>,
    /// The distinct canonical forms of the rows' puzzles, when counted (whole summary only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    canonical: Option<DistinctForms>,
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

    /// An empty summary that keeps one summary per bin of the numeric column `column`.
    pub fn binned_by(column: impl Into<String>, bins: Bins) -> Self {
        Summary {
            by: Some(column.into()),
            bins: Some(bins),
            ..Summary::default()
        }
    }

    /// Counts one result row; when this summary is grouped, also in the row's group (for a
    /// binned summary, the group of the bin holding the row's value, which must then be a
    /// number or empty); when the row names its record, offers it to the list of the hardest.
    pub fn add(&mut self, row: &Row<'_>) {
        if let (Some(counters), Some(record)) = (&row.counters, &row.record)
            && self.hardest.could_take(counters)
        {
            self.hardest.offer(HardRecord {
                file: record.file.map(str::to_string),
                line: record.line,
                puzzle: record.puzzle.to_string(),
                regions: record.regions.map(str::to_string),
                status: row.status,
                counters: *counters,
            });
        }
        if let Some(bins) = self.bins.take() {
            let key = row.group.unwrap_or("");
            let bin = match Number::parse(key.as_bytes()) {
                Some(value) => bins.label_of(value),
                None => {
                    debug_assert!(key.trim().is_empty(), "'{key}' is not a number to bin");
                    ""
                }
            };
            self.add_to_group(bin, row);
            self.bins = Some(bins);
            self.add_whole(row);
            return;
        }
        if self.by.is_some() {
            self.add_to_group(row.group.unwrap_or(""), row);
        }
        self.add_whole(row);
    }

    fn add_to_group(&mut self, key: &str, row: &Row<'_>) {
        match self.groups.get_mut(key) {
            Some(group) => group.add_whole(row),
            None => {
                let mut group = Summary::new();
                group.add_whole(row);
                self.groups.insert(key.to_string(), group);
            }
        }
    }

    fn add_whole(&mut self, row: &Row<'_>) {
        self.records += 1;
        self.status.add(row.status);
        if let Some(stats) = &row.counters {
            self.counters.add(stats);
            if row.status == SolveStatus::Solved && stats.guesses == 0 {
                self.solved_without_guess += 1;
            }
        }
    }

    /// Counts one row of any results file ([`Summary::add`], [`Summary::add_rated`]).
    pub fn add_result(&mut self, row: &ResultRow<'_>) {
        match row {
            ResultRow::Solve(row) => self.add(row),
            ResultRow::Rate(row) => self.add_rated(row),
            ResultRow::Se(row) => self.add_se(row),
        }
    }

    /// Whether `row` may be counted with the rows counted so far: a row of `rate` with rows of
    /// another command, or the other way round, may not (see [`Unmergeable::Commands`]).
    pub fn takes(&self, row: &ResultRow<'_>) -> Result<(), Unmergeable> {
        let right = match row {
            ResultRow::Solve(_) => "solve",
            ResultRow::Rate(_) => RATE,
            ResultRow::Se(_) => RATE_SE,
        };
        match self.command() {
            Some(left) if left != right => Err(Unmergeable::Commands { left, right }),
            _ => Ok(()),
        }
    }

    /// Counts one row of `rate`, grouped as [`Summary::add`] groups a row of `solve`.
    pub fn add_rated(&mut self, row: &RatedRow<'_>) {
        let add = |s: &mut Summary| {
            s.records += 1;
            s.rating.get_or_insert_default().add(row);
        };
        self.add_grouped(row.group, add);
    }

    /// Counts one row of `rate --scale se`, grouped as [`Summary::add`] groups a row of
    /// `solve`; when the row names its record, offers it to the list of the hardest.
    pub fn add_se(&mut self, row: &SeRow<'_>) {
        let add = |s: &mut Summary| {
            s.records += 1;
            s.se_rating.get_or_insert_default().add(row);
        };
        self.add_grouped(row.group, add);
        if let (Some(record), Some(rated)) = (&row.record, &row.rated)
            && self.se_hardest.could_take_rated(rated)
        {
            self.se_hardest.offer(SeHardRecord::new(record, rated));
        }
    }

    /// Counts a row whose value in the grouping column is `group` with `add`, in its group
    /// (when grouped) and in the whole.
    fn add_grouped(&mut self, group: Option<&str>, add: impl Fn(&mut Summary)) {
        if self.by.is_some() {
            let value = group.unwrap_or("");
            let key = match &self.bins {
                Some(bins) => match Number::parse(value.as_bytes()) {
                    Some(number) => bins.label_of(number).to_string(),
                    None => String::new(),
                },
                None => value.to_string(),
            };
            add(self.groups.entry(key).or_default());
        }
        add(self);
    }

    /// The same summary, with a (possibly empty) rating part: a summary of `rate` output.
    pub fn rating_kept(mut self) -> Summary {
        self.rating.get_or_insert_default();
        self
    }

    /// The summary of the rows of `rate`, if it counted any (or was made for them).
    pub fn rating(&self) -> Option<&RatingSummary> {
        self.rating.as_ref()
    }

    /// The summary of the rows of `rate --scale se`, if it counted any.
    pub fn se_rating(&self) -> Option<&SeSummary> {
        self.se_rating.as_ref()
    }

    /// Whether every row counted is a row of `rate` (on either scale): no search counters,
    /// statuses of `solve` or hardest searches to show.
    pub fn rate_rows_only(&self) -> bool {
        (self.rating.is_some() || self.se_rating.is_some()) && self.status.records() == 0
    }

    /// This summary, also counting the distinct canonical forms of the rows' puzzles (given to
    /// [`Summary::add_form`]).
    pub fn counting_forms(mut self) -> Summary {
        self.canonical = Some(DistinctForms::new());
        self
    }

    /// Counts the canonical form (its digest) of a row's puzzle, when this summary counts forms.
    pub fn add_form(&mut self, digest: u128) {
        if let Some(forms) = &mut self.canonical {
            forms.add(digest);
        }
    }

    /// This summary without its count of canonical forms.
    pub fn without_forms(mut self) -> Summary {
        self.canonical = None;
        self
    }

    /// The distinct canonical forms, when counted.
    pub fn canonical(&self) -> Option<&DistinctForms> {
        self.canonical.as_ref()
    }

    /// Adds everything counted in `other`.
    ///
    /// Fails, changing nothing, when both are grouped by different columns, when one is
    /// grouped and the other holds records without groups, or when their records add up to
    /// more than a count holds, or when one counts rows of `rate` and the other rows of
    /// another command. An empty summary without groups
    /// merges with any summary. Canonical forms stay counted when both count them (their sets
    /// join) or when the other side is empty; a summary with rows whose forms were not counted
    /// makes the count unknown (`None`).
    pub fn merge(&mut self, other: &Summary) -> Result<(), Unmergeable> {
        if self.records.checked_add(other.records).is_none() {
            return Err(Unmergeable::TooMany {
                left: self.records,
                right: other.records,
            });
        }
        if let (Some(left), Some(right)) = (self.command(), other.command())
            && left != right
        {
            return Err(Unmergeable::Commands { left, right });
        }
        if (&self.by, &self.bins) != (&other.by, &other.bins) {
            let empty_plain = |s: &Summary| s.by.is_none() && s.records == 0;
            if empty_plain(other) {
                return Ok(());
            }
            if empty_plain(self) {
                self.by = other.by.clone();
                self.bins = other.bins.clone();
            } else {
                return Err(Unmergeable::Grouping {
                    left: self.grouping(),
                    right: other.grouping(),
                });
            }
        }
        self.canonical = match (self.canonical.take(), &other.canonical) {
            (Some(mut mine), Some(theirs)) => {
                mine.merge(theirs);
                Some(mine)
            }
            (Some(mine), None) if other.records == 0 => Some(mine),
            (None, Some(theirs)) if self.records == 0 => Some(theirs.clone()),
            _ => None,
        };
        self.add_counts(other);
        Ok(())
    }

    /// The command whose rows this summary counts: `rate` when it has a rating part,
    /// `rate --scale se` when it has a Sudoku Explainer part, else `solve` (or verify); `None`
    /// when it counts no rows.
    fn command(&self) -> Option<&'static str> {
        match (self.records, &self.rating, &self.se_rating) {
            (0, _, _) => None,
            (_, Some(_), _) => Some(RATE),
            (_, None, Some(_)) => Some(RATE_SE),
            (_, None, None) => Some("solve"),
        }
    }

    /// How this summary is grouped, in words: `grouped by 'givens'`, `without groups`.
    pub fn grouping(&self) -> String {
        match (&self.by, &self.bins) {
            (Some(column), Some(bins)) => {
                format!("grouped by '{column}' in {}", bins.describe())
            }
            (Some(column), None) => format!("grouped by '{column}'"),
            (None, _) => "without groups".to_string(),
        }
    }

    /// Adds the counts of `other` and of its groups, whatever their grouping columns.
    fn add_counts(&mut self, other: &Summary) {
        self.records += other.records;
        self.status += other.status;
        self.solved_without_guess += other.solved_without_guess;
        self.counters += &other.counters;
        if let Some(rating) = &other.rating {
            self.rating.get_or_insert_default().merge(rating);
        }
        if let Some(se) = &other.se_rating {
            self.se_rating.get_or_insert_default().merge(se);
        }
        self.hardest.merge(&other.hardest);
        self.se_hardest.merge(&other.se_hardest);
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
        self.bins = None;
        self.groups.clear();
        self
    }

    /// This summary, without its groups, as the one group `key` of a summary grouped by
    /// `column` (`stats --by input` files each input's summary under its name).
    pub fn filed_under(self, column: &str, key: &str) -> Summary {
        let mut group = self.ungrouped();
        let hardest = std::mem::take(&mut group.hardest);
        let se_hardest = std::mem::take(&mut group.se_hardest);
        let canonical = group.canonical.take();
        let mut whole = Summary::grouped_by(column);
        whole.add_counts(&group);
        whole.hardest = hardest;
        whole.se_hardest = se_hardest;
        whole.canonical = canonical;
        whole.groups.insert(key.to_string(), group);
        whole
    }

    /// The same summary with its groups, each named by a number (or empty), gathered into
    /// `bins`; the key of the first group that is neither is the error.
    pub fn binned(self, bins: Bins) -> Result<Summary, String> {
        let mut binned = Summary {
            bins: Some(bins),
            groups: BTreeMap::new(),
            ..self
        };
        let bins = binned.bins.as_ref().expect("just set");
        let mut groups: BTreeMap<String, Summary> = BTreeMap::new();
        for (key, group) in self.groups {
            let bin = if key.trim().is_empty() {
                String::new()
            } else {
                let value = Number::parse(key.as_bytes()).ok_or_else(|| key.clone())?;
                bins.label_of(value).to_string()
            };
            groups.entry(bin).or_default().add_counts(&group);
        }
        binned.groups = groups;
        Ok(binned)
    }

    /// Result rows counted.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Records per status.
    pub fn status(&self) -> &Tally<SolveStatus> {
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

    /// The bins of the grouping column, when the groups are ranges of its values.
    pub fn bins(&self) -> Option<&Bins> {
        self.bins.as_ref()
    }

    /// The hardest records counted (whole summaries only; groups keep none).
    pub fn hardest(&self) -> &Hardest {
        &self.hardest
    }

    /// The hardest rows of `rate --scale se` counted, by ER (whole summaries only).
    pub fn se_hardest(&self) -> &Hardest<SeHardRecord> {
        &self.se_hardest
    }

    /// The summary of each group, keyed by the column's value.
    pub fn groups(&self) -> &BTreeMap<String, Summary> {
        &self.groups
    }

    /// The groups in reading order: bins from the lowest; else by numeric value when every
    /// key but the empty one is a number (so `9` comes before `17`), by level when every one is
    /// a HoDoKu level (`easy` to `extreme`), otherwise by key; the empty key first.
    pub fn groups_in_order(&self) -> Vec<(&str, &Summary)> {
        let mut groups: Vec<(&str, &Summary)> =
            self.groups.iter().map(|(k, s)| (k.as_str(), s)).collect();
        if let Some(bins) = &self.bins {
            groups.sort_by_key(|(k, _)| bins.rank_of(k).map_or(0, |rank| rank + 1));
            return groups;
        }
        // The empty key is `None`, before every number.
        let numbers: Option<Vec<Option<Number>>> = groups
            .iter()
            .map(|(k, _)| {
                if k.is_empty() {
                    Some(None)
                } else {
                    Number::parse(k.as_bytes()).map(Some)
                }
            })
            .collect();
        if let Some(numbers) = numbers {
            let mut keyed: Vec<_> = numbers.into_iter().zip(groups).collect();
            // A stable sort: keys of one number (`1`, `1.0`) stay in key order.
            keyed.sort_by_key(|(n, _)| *n);
            groups = keyed.into_iter().map(|(_, g)| g).collect();
            return groups;
        }
        let level = |k: &str| crate::rate::Level::ALL.iter().position(|l| l.name() == k);
        if groups
            .iter()
            .all(|(k, _)| k.is_empty() || level(k).is_some())
        {
            groups.sort_by_key(|(k, _)| level(k).map_or(0, |rank| rank + 1));
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
            let context = format!("group '{key}': ");
            group.check_whole(&context)?;
            if !group.hardest.is_empty() || !group.se_hardest.is_empty() {
                return Err(Inconsistency::Hardest {
                    context,
                    problem: "is kept by a group",
                });
            }
            if let Some(bins) = &self.bins
                && !key.is_empty()
                && bins.rank_of(key).is_none()
            {
                return Err(Inconsistency::NotABin { key: key.clone() });
            }
            total.add_counts(group);
        }
        let mut whole = self.clone().ungrouped();
        whole.hardest = Hardest::default();
        whole.se_hardest = Hardest::default();
        whole.canonical = None;
        if total != whole {
            return Err(Inconsistency::GroupsDoNotAddUp);
        }
        Ok(())
    }

    fn check_whole(&self, context: &str) -> Result<(), Inconsistency> {
        let rated = self.rating.as_ref().map_or(0, RatingSummary::records)
            + self.se_rating.as_ref().map_or(0, SeSummary::records);
        if let Some(Err(problem)) = self.rating.as_ref().map(RatingSummary::check) {
            return Err(Inconsistency::Rating {
                context: context.to_string(),
                problem,
            });
        }
        if let Some(Err(problem)) = self.se_rating.as_ref().map(SeSummary::check) {
            return Err(Inconsistency::SeRating {
                context: context.to_string(),
                problem,
            });
        }
        if let Some(forms) = &self.canonical
            && forms.puzzles() > self.records
        {
            return Err(Inconsistency::CanonicalPuzzles {
                puzzles: forms.puzzles(),
                records: self.records,
            });
        }
        let total = self.status.records() + rated;
        if total != self.records {
            return Err(Inconsistency::StatusTotal {
                context: context.to_string(),
                total,
                records: self.records,
            });
        }
        // Every record but an invalid one carries the counters of its search.
        let searched = self.status.records() - self.status.get(SolveStatus::Invalid);
        for counter in Counter::ALL {
            let count = self.counter(counter).count();
            if count != searched {
                return Err(Inconsistency::CounterCount {
                    context: context.to_string(),
                    counter,
                    count,
                    searched,
                });
            }
        }
        if self.solved_without_guess > self.status.get(SolveStatus::Solved) {
            return Err(Inconsistency::WithoutGuess {
                context: context.to_string(),
                without: self.solved_without_guess,
                solved: self.status.get(SolveStatus::Solved),
            });
        }
        self.check_hardest(context)
    }

    /// The hardest records must be in order, and each one's counters among the values counted.
    fn check_hardest(&self, context: &str) -> Result<(), Inconsistency> {
        let problem = |problem| {
            Err(Inconsistency::Hardest {
                context: context.to_string(),
                problem,
            })
        };
        if !self.hardest.is_well_formed() || !self.se_hardest.is_well_formed() {
            return problem("is out of order or too long");
        }
        let counted = |d: &Distribution, v: u64| d.iter().any(|(value, _)| value == v);
        for record in self.se_hardest.records() {
            let Some(se) = &self.se_rating else {
                return problem("holds ratings that the distributions do not");
            };
            let fits = match record.er {
                Some(er) => counted(se.er(), er),
                None => counted(se.er_at_least(), record.er_at_least),
            };
            if !fits {
                return problem("holds ratings that the distributions do not");
            }
        }
        let mut listed = Counters::default();
        for record in self.hardest.records() {
            listed.add(&record.counters);
        }
        for counter in Counter::ALL {
            let counted = self.counter(counter);
            let fits = listed.get(counter).iter().all(|(value, times)| {
                counted
                    .iter()
                    .find(|&(v, _)| v == value)
                    .is_some_and(|(_, n)| n >= times)
            });
            if !fits {
                return problem("holds counters that the distributions do not");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn row(status: SolveStatus, recursions: u64, guesses: u64) -> Row<'static> {
        Row {
            status,
            counters: Some(stats(recursions, guesses)),
            group: None,
            record: None,
        }
    }

    #[test]
    fn status_and_guessing_counts() {
        let mut s = Summary::new();
        s.add(&row(SolveStatus::Solved, 1, 0));
        s.add(&row(SolveStatus::Solved, 9, 4));
        s.add(&row(SolveStatus::Multiple, 3, 0));
        s.add(&Row::invalid());
        assert_eq!(s.records(), 4);
        assert_eq!(s.status().get(SolveStatus::Solved), 2);
        assert_eq!(s.status().get(SolveStatus::Multiple), 1);
        assert_eq!(s.status().get(SolveStatus::Invalid), 1);
        assert_eq!(s.solved_without_guess(), 1);
        assert_eq!(s.counter(Counter::Recursions).count(), 3);
        assert_eq!(s.share(1), Some(0.25));
        assert_eq!(Summary::new().share(0), None);
        s.check().unwrap();
    }

    #[test]
    fn grouped_rows_without_a_value_go_to_the_empty_group() {
        let mut s = Summary::grouped_by("difficulty");
        s.add(&row(SolveStatus::Solved, 1, 0).with_group("easy"));
        s.add(&row(SolveStatus::Solved, 5, 2));
        assert_eq!(s.groups().len(), 2);
        assert_eq!(s.groups()[""].records(), 1);
        assert_eq!(s.groups()["easy"].records(), 1);
        s.check().unwrap();
    }

    #[test]
    fn merge_refuses_more_records_than_a_count_holds_and_changes_nothing() {
        let mut a = Summary::new();
        a.add(&row(SolveStatus::Solved, 1, 0));
        a.records = 1 << 63;
        let before = a.clone();
        assert_eq!(
            a.merge(&a.clone()),
            Err(Unmergeable::TooMany {
                left: 1 << 63,
                right: 1 << 63
            })
        );
        assert_eq!(a, before);
    }

    #[test]
    fn merge_refuses_different_groupings_and_changes_nothing() {
        let mut a = Summary::grouped_by("givens");
        a.add(&row(SolveStatus::Solved, 1, 0).with_group("17"));
        let before = a.clone();
        let mut b = Summary::grouped_by("difficulty");
        b.add(&row(SolveStatus::Solved, 1, 0).with_group("easy"));
        let err = a.merge(&b).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot merge a summary grouped by 'givens' with one grouped by 'difficulty'"
        );
        assert_eq!(a, before);
        let mut plain = Summary::new();
        plain.add(&row(SolveStatus::Solved, 1, 0));
        assert!(a.merge(&plain).is_err());
        assert_eq!(a, before);
    }

    #[test]
    fn the_empty_summary_is_neutral() {
        let mut a = Summary::grouped_by("givens");
        a.add(&row(SolveStatus::Solved, 4, 1).with_group("17"));
        let mut left = Summary::default();
        left.merge(&a).unwrap();
        assert_eq!(left, a);
        let mut right = a.clone();
        right.merge(&Summary::default()).unwrap();
        assert_eq!(right, a);
    }

    #[test]
    fn groups_sort_numerically_when_all_keys_are_numbers() {
        let mut s = Summary::grouped_by("givens");
        for g in ["17", "9", "24"] {
            s.add(&row(SolveStatus::Solved, 1, 0).with_group(g));
        }
        let keys: Vec<&str> = s.groups_in_order().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["9", "17", "24"]);
        s.add(&row(SolveStatus::Solved, 1, 0));
        let keys: Vec<&str> = s.groups_in_order().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["", "9", "17", "24"]);
        s.add(&row(SolveStatus::Solved, 1, 0).with_group("x"));
        let keys: Vec<&str> = s.groups_in_order().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["", "17", "24", "9", "x"]);
        // HoDoKu's levels in their order, not the alphabet's.
        let mut s = Summary::grouped_by("level");
        for g in ["medium", "easy", "unfair", "extreme", "hard", ""] {
            s.add(&row(SolveStatus::Solved, 1, 0).with_group(g));
        }
        let keys: Vec<&str> = s.groups_in_order().iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["", "easy", "medium", "hard", "unfair", "extreme"]);
    }

    #[test]
    fn check_finds_groups_that_do_not_add_up() {
        let mut s = Summary::grouped_by("givens");
        s.add(&row(SolveStatus::Solved, 1, 0).with_group("17"));
        s.add(&row(SolveStatus::Solved, 2, 1).with_group("18"));
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

    /// One more solved record in the statuses and the total, but not in the counters: a
    /// hand-edited file, refused.
    #[test]
    fn check_finds_statuses_the_counters_do_not_describe() {
        let mut s = Summary::new();
        s.add(&row(SolveStatus::Solved, 1, 0));
        s.add(&Row::invalid());
        s.check().unwrap();
        let mut broken = s.clone();
        broken.status.add(SolveStatus::Solved);
        broken.records += 1;
        assert!(matches!(
            broken.check(),
            Err(Inconsistency::CounterCount {
                count: 1,
                searched: 2,
                ..
            })
        ));
        // An invalid record has no counters: one more of those is consistent.
        let mut more = s.clone();
        more.status.add(SolveStatus::Invalid);
        more.records += 1;
        more.check().unwrap();
    }
}
