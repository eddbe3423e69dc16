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
//! - **status counts**: records per [`RowStatus`]; with the status counts of the rating
//!   part (the rows of `rate`), they add up to `records`.
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
//!   `--by` column), or per range of its values ([`bins`], [`Summary::binned_by`]); the groups
//!   add up to the whole.
//! - **the hardest records** ([`hardest`]): the records that needed the most search, with
//!   where they are and their puzzle, a bounded list that merges like the rest.
//! - **ratings** ([`rating`]): the rows of `rate` (levels, scores, techniques) are counted in
//!   `records` and in a rating part of their own; status counts and counters above describe
//!   the rows of `solve`.
//! - **canonical** ([`Summary::counting_forms`], `--canonical`): the puzzles with a canonical
//!   form and how many distinct forms they have ([`distinct`]); whole summary only.

pub mod bins;
mod counter;
pub mod distinct;
mod distribution;
pub mod document;
pub mod grouping;
pub mod hardest;
pub mod plausible;
pub mod rating;
pub mod read;
mod summary;
pub mod table;

pub use counter::Counter;
pub use distribution::{Bucket, Buckets, Distribution, PER_VALUE_SPAN};
pub use summary::{Counters, Inconsistency, RecordRef, ResultRow, Row, Summary, Unmergeable};
