//! The search counters of a result row: their names in result files, in this order, and their
//! values in [`SearchStats`].

use std::fmt;

use super::distribution::Buckets;
use crate::solver::SearchStats;

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
