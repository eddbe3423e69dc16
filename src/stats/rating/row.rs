//! One row of `rate` output as a summary sees it: [`Rated`], the figures of a rated puzzle,
//! [`RatedRow::parse`], which reads and checks a row, and the `techniques` field.

use crate::format::InputFormat;
use crate::rate::{LADDER, Level, Technique};
use crate::row::{RateStatus, RowStatus, Status, UnknownStatus};

/// The columns of a rate row that a summary reads, in this order.
pub const COLUMNS: [&str; 6] = ["status", "level", "score", "hardest", "steps", "techniques"];

/// The figures of one rated puzzle: everything a summary counts of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rated {
    /// HoDoKu's level.
    pub level: Level,
    /// The sum of the base scores of the steps.
    pub score: u64,
    /// The hardest technique used; `None` for a puzzle with no empty cell.
    pub hardest: Option<Technique>,
    /// How many times each technique was applied, by [`Technique::index`].
    pub counts: [u32; Technique::COUNT],
}

impl Rated {
    /// The figures of a puzzle whose steps used each technique `counts[t.index()]` times:
    /// the score, the hardest technique and the level by HoDoKu's rules, as the rater finds
    /// them ([`crate::rate`]).
    pub fn from_counts(counts: [u32; Technique::COUNT]) -> Rated {
        let used = || LADDER.iter().copied().filter(|t| counts[t.index()] > 0);
        let score = used()
            .map(|t| u64::from(t.score()) * u64::from(counts[t.index()]))
            .sum::<u64>();
        let hardest = used().max_by_key(|t| (t.level(), t.score(), t.index()));
        let level = Level::of(
            hardest.map_or(Level::Easy, Technique::level),
            u32::try_from(score).unwrap_or(u32::MAX),
        );
        Rated {
            level,
            score,
            hardest,
            counts,
        }
    }

    /// How many steps were applied.
    pub fn steps(&self) -> u64 {
        self.counts.iter().map(|&c| u64::from(c)).sum()
    }
}

impl From<&crate::rate::Rating> for Rated {
    fn from(rating: &crate::rate::Rating) -> Rated {
        Rated {
            level: rating.level,
            score: u64::from(rating.score),
            hardest: rating.hardest,
            counts: rating.counts,
        }
    }
}

/// The `techniques` field of a rate row: `key:count` for every technique used, in ladder
/// order, separated by one space; empty when no technique was used.
pub fn techniques_field(counts: &[u32; Technique::COUNT]) -> String {
    let mut text = String::new();
    for &t in LADDER {
        let n = counts[t.index()];
        if n > 0 {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(t.key());
            text.push(':');
            text.push_str(itoa::Buffer::new().format(n));
        }
    }
    text
}

/// One `rate` result row as a summary sees it: built by the pipeline for each record, or
/// read from a line of a results file ([`RatedRow::parse`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedRow<'a> {
    /// How the record ended.
    pub status: RateStatus,
    /// The rating: present exactly when the status is `rated`.
    pub rated: Option<Rated>,
    /// The record's value in the grouping column (as [`crate::stats::Row::group`]).
    pub group: Option<&'a str>,
}

/// What is wrong with one rate row.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RatingProblem {
    /// The status is not a known name.
    #[error(transparent)]
    Status(#[from] UnknownStatus),
    /// The status is another command's.
    #[error("status '{0}' is not one of rate's (rated, multiple, unsolvable, invalid, gave_up)")]
    NotRate(RowStatus),
    /// A field is empty in a `rated` row.
    #[error("{column} is empty in a 'rated' row")]
    Missing {
        /// The column.
        column: &'static str,
    },
    /// A field is set in a row that is not `rated`.
    #[error("{column} is set in a '{status}' row, which has no rating")]
    Unexpected {
        /// The column.
        column: &'static str,
        /// The row's status.
        status: RateStatus,
    },
    /// A value that is not what its column holds.
    #[error("{column}: {found} is not {expected}")]
    Value {
        /// The column.
        column: &'static str,
        /// The value, quoted and escaped.
        found: String,
        /// What the column holds.
        expected: &'static str,
    },
    /// A technique listed twice in the `techniques` field.
    #[error("techniques: {key} is listed twice")]
    Twice {
        /// The technique's key.
        key: &'static str,
    },
    /// A field that disagrees with what the technique counts give.
    #[error("{column} is {found}, but the techniques give {derived}")]
    Disagrees {
        /// The column.
        column: &'static str,
        /// Its value.
        found: String,
        /// The value the `techniques` field gives.
        derived: String,
    },
    /// A figure of Sudoku Explainer's scale that disagrees with the others of its row.
    #[error("{column} is {found}, but {rule}")]
    Breaks {
        /// The column.
        column: &'static str,
        /// Its value.
        found: String,
        /// What the row's other figures require of it.
        rule: String,
    },
}

/// `text` in single quotes, control characters escaped, cut after 40 characters.
pub(super) fn quote(field: &[u8]) -> String {
    let text = String::from_utf8_lossy(field);
    let mut shown: String = text.chars().take(40).flat_map(char::escape_debug).collect();
    if text.chars().nth(40).is_some() {
        shown.push_str("...");
    }
    format!("'{shown}'")
}

impl<'a> RatedRow<'a> {
    /// Reads a row from its fields in [`COLUMNS`] order (`status`, `level`, `score`,
    /// `hardest`, `steps`, `techniques`), filed under `group`.
    pub fn parse(
        fields: [&[u8]; 6],
        group: Option<&'a str>,
    ) -> Result<RatedRow<'a>, RatingProblem> {
        let [status, level, score, hardest, steps, techniques] = fields.map(<[u8]>::trim_ascii);
        let status = rate_status(
            status,
            &COLUMNS,
            &[level, score, hardest, steps, techniques],
        )?;
        if status != RateStatus::Rated {
            return Ok(RatedRow {
                status,
                rated: None,
                group,
            });
        }
        for (i, field) in [level, score, steps].iter().enumerate() {
            if field.is_empty() {
                return Err(RatingProblem::Missing {
                    column: ["level", "score", "steps"][i],
                });
            }
        }
        let rated = Rated::from_counts(parse_techniques(techniques)?);
        let level_found = Level::ALL
            .iter()
            .copied()
            .find(|l| l.name().as_bytes() == level)
            .ok_or_else(|| RatingProblem::Value {
                column: "level",
                found: quote(level),
                expected: "a level (easy, medium, hard, unfair, extreme)",
            })?;
        let number = |column: &'static str, field: &[u8]| {
            std::str::from_utf8(field)
                .ok()
                .and_then(|t| t.parse::<u64>().ok())
                .ok_or_else(|| RatingProblem::Value {
                    column,
                    found: quote(field),
                    expected: "a count",
                })
        };
        let score_found = number("score", score)?;
        let steps_found = number("steps", steps)?;
        let hardest_found = if hardest.is_empty() {
            None
        } else {
            let key = std::str::from_utf8(hardest).unwrap_or_default();
            Some(
                Technique::from_key(key).ok_or_else(|| RatingProblem::Value {
                    column: "hardest",
                    found: quote(hardest),
                    expected: "a technique's key",
                })?,
            )
        };
        let disagrees = |column: &'static str, found: String, derived: String| {
            Err(RatingProblem::Disagrees {
                column,
                found,
                derived,
            })
        };
        if steps_found != rated.steps() {
            return disagrees("steps", steps_found.to_string(), rated.steps().to_string());
        }
        if score_found != rated.score {
            return disagrees("score", score_found.to_string(), rated.score.to_string());
        }
        if hardest_found != rated.hardest {
            let key = |t: Option<Technique>| t.map_or("(none)", Technique::key).to_string();
            return disagrees("hardest", key(hardest_found), key(rated.hardest));
        }
        if level_found != rated.level {
            return disagrees(
                "level",
                level_found.name().to_string(),
                rated.level.name().to_string(),
            );
        }
        Ok(RatedRow {
            status,
            rated: Some(rated),
            group,
        })
    }
}

/// The status of a row of `rate` (on either scale) from its `status` field; `rating` are the
/// fields of the rating (named by `columns` after the first, `status`), which a row that is
/// not `rated` must leave empty.
pub(super) fn rate_status(
    status: &[u8],
    columns: &[&'static str],
    rating: &[&[u8]],
) -> Result<RateStatus, RatingProblem> {
    let name = String::from_utf8_lossy(status);
    if name.is_empty() {
        return Err(RatingProblem::Missing { column: "status" });
    }
    let status = match RateStatus::from_name(&name) {
        Some(status) => status,
        None => return Err(RatingProblem::NotRate(name.parse::<RowStatus>()?)),
    };
    if status != RateStatus::Rated
        && let Some(i) = rating.iter().position(|f| !f.is_empty())
    {
        return Err(RatingProblem::Unexpected {
            column: columns[1 + i],
            status,
        });
    }
    Ok(status)
}

/// The technique counts of a `techniques` field ([`techniques_field`]); pairs in any order.
pub fn parse_techniques(field: &[u8]) -> Result<[u32; Technique::COUNT], RatingProblem> {
    let mut counts = [0; Technique::COUNT];
    for pair in field
        .split(u8::is_ascii_whitespace)
        .filter(|p| !p.is_empty())
    {
        let bad = || RatingProblem::Value {
            column: "techniques",
            found: quote(pair),
            expected: "a technique's key and a count, as 'x-wing:2'",
        };
        let text = std::str::from_utf8(pair).map_err(|_| bad())?;
        let (key, count) = text.split_once(':').ok_or_else(bad)?;
        let technique = Technique::from_key(key).ok_or_else(bad)?;
        let count: u32 = count.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?;
        if counts[technique.index()] > 0 {
            return Err(RatingProblem::Twice {
                key: technique.key(),
            });
        }
        counts[technique.index()] = count;
    }
    Ok(counts)
}

/// Whether the first line of a results input is that of `rate` output: a CSV header, or a
/// first JSON-lines row, with the `level`, `score` and `techniques` columns.
pub fn is_rate_output(head: &[u8], format: InputFormat) -> bool {
    has_columns(head, format, &["level", "score", "techniques"])
}

/// The columns that tell the output of `rate --scale se` (Sudoku Explainer's ratings).
pub const SE_COLUMNS: [&str; 2] = ["er", "er_at_least"];

/// Whether the first line of a results input is that of `rate --scale se` output.
pub fn is_se_output(head: &[u8], format: InputFormat) -> bool {
    has_columns(head, format, &SE_COLUMNS)
}

/// Whether a CSV header, or a first JSON-lines row, has every column of `wanted`.
fn has_columns(head: &[u8], format: InputFormat, wanted: &[&str]) -> bool {
    match format {
        InputFormat::Jsonl => serde_json::from_slice::<serde_json::Value>(head)
            .is_ok_and(|row| wanted.iter().all(|name| row.get(name).is_some())),
        _ => {
            let names: Vec<&[u8]> = head
                .split(|&b| b == b',')
                .map(|field| {
                    let field = field.trim_ascii();
                    field
                        .strip_prefix(b"\"")
                        .and_then(|f| f.strip_suffix(b"\""))
                        .unwrap_or(field)
                })
                .collect();
            wanted.iter().all(|name| names.contains(&name.as_bytes()))
        }
    }
}
