//! The rating part of a summary document: the counts of a [`RatingSummary`] with the numbers
//! derived from them.

use serde::Serialize;

use super::{Levels, Named, PerTechnique, RatingSummary, Usage};
use crate::rate::Level;
use crate::row::{RateStatus, Tally};
use crate::stats::document::CounterDoc;

/// The rating part of a summary document, with the derived numbers beside the counts:
///
/// ```text
/// "rating": {
///   "records": 1000,                  rate rows summarised
///   "status": { "rated": 990, "multiple": 6, "unsolvable": 0, "invalid": 4, "gave_up": 0 },
///   "levels": { "easy": 411, "medium": 203, "hard": 240, "unfair": 80, "extreme": 56 },
///   "level_share": { "easy": 0.4152, ... },   level / rated (null when none is rated)
///   "score": { "count": 990, "sum": ..., "min": ..., "mean": ..., "p50": ..., "p90": ...,
///              "p99": ..., "max": ..., "histogram": [ {"from": 0, "to": 99, "count": 0}, ... ],
///              "values": { "412": 3, ... } },
///   "steps": { the same, one histogram bucket per value },
///   "hardest": { "hidden-single": 300, "x-wing": 41, ... },   in ladder order, zeros left out
///   "techniques": { "hidden-single": { "puzzles": 990, "steps": 40211 }, ... }
/// }
/// ```
///
/// Reading takes `status`, `levels`, the `values` of `score` and `steps`, `hardest` and
/// `techniques`; the rest is derived and ignored.
#[derive(Serialize)]
pub struct Doc<'a> {
    records: u64,
    status: &'a Tally<RateStatus>,
    levels: &'a Levels,
    level_share: Named<Level, Option<f64>>,
    score: CounterDoc<'a>,
    steps: CounterDoc<'a>,
    hardest: &'a PerTechnique<u64>,
    techniques: &'a PerTechnique<Usage>,
}

impl<'a> Doc<'a> {
    /// The document form of `rating`.
    pub fn new(rating: &'a RatingSummary) -> Doc<'a> {
        Doc {
            records: rating.records(),
            status: &rating.status,
            levels: &rating.levels,
            level_share: Named::new(
                Level::ALL.map(|l| rating.share_of_rated(rating.levels.get(l))),
            ),
            score: CounterDoc::of(&rating.score, rating.score_histogram()),
            steps: CounterDoc::of(&rating.steps, rating.steps_histogram()),
            hardest: &rating.hardest,
            techniques: &rating.techniques,
        }
    }
}
