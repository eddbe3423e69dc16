//! What the definitions of the counters and statuses rule out: a result row that breaks one of
//! these rules was not written by `solve` (a hand-edited, damaged or foreign file), and `stats`
//! refuses it rather than summarise numbers that mean nothing.
//!
//! The rules hold for every algorithm, by the definitions in [`crate::solver`]:
//! - `givens` is at most 81: a puzzle has 81 cells;
//! - a searched row has `recursions` >= 1 and `max_depth` >= 1 (the root call is entered, at
//!   depth 1), and `max_depth` <= `recursions` (each level of nesting is an entry);
//! - `backtracks` <= `guesses`: only a guess can be undone;
//! - the `solutions` column, when the file has one, agrees with the status: 1 for `solved`, 2
//!   or more for `multiple`, 0 for `unsolvable` and `stuck`, 0 or empty for `invalid`
//!   (`gave_up` may have found any number before its budget ran out).

use crate::grid::CELLS;
use crate::row::SolveStatus;
use crate::solver::SearchStats;

/// A rule of the module page that a row breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Impossibility {
    /// More givens than cells.
    #[error("givens is {givens}, but a puzzle has {CELLS} cells")]
    Givens {
        /// The `givens` value.
        givens: u64,
    },
    /// A searched row whose search was never entered.
    #[error("{column} is 0, but every search enters its root call, at depth 1")]
    NoRoot {
        /// `recursions` or `max_depth`.
        column: &'static str,
    },
    /// Deeper than the calls that were made.
    #[error("max_depth is {max_depth}, more than the {recursions} recursions that reach it")]
    DeeperThanCalls {
        /// The `max_depth` value.
        max_depth: u64,
        /// The `recursions` value.
        recursions: u64,
    },
    /// More guesses undone than made.
    #[error("backtracks is {backtracks}, more than the {guesses} guesses (only a guess is undone)")]
    Backtracks {
        /// The `backtracks` value.
        backtracks: u64,
        /// The `guesses` value.
        guesses: u64,
    },
    /// A solution count the status rules out.
    #[error("solutions is {found}, but a row with status '{status}' has {expected}")]
    Solutions {
        /// The row's status.
        status: SolveStatus,
        /// The `solutions` value.
        found: u64,
        /// What the status allows, in words.
        expected: &'static str,
    },
}

/// Checks a row by the rules of the module page; `solutions` is its `solutions` column, when
/// the file has one and it is not empty.
pub fn check(
    status: SolveStatus,
    counters: Option<&SearchStats>,
    solutions: Option<u64>,
) -> Result<(), Impossibility> {
    if let Some(stats) = counters {
        if stats.givens > CELLS as u64 {
            return Err(Impossibility::Givens {
                givens: stats.givens,
            });
        }
        for (column, value) in [
            ("recursions", stats.recursions),
            ("max_depth", stats.max_depth),
        ] {
            if value == 0 {
                return Err(Impossibility::NoRoot { column });
            }
        }
        if stats.max_depth > stats.recursions {
            return Err(Impossibility::DeeperThanCalls {
                max_depth: stats.max_depth,
                recursions: stats.recursions,
            });
        }
        if stats.backtracks > stats.guesses {
            return Err(Impossibility::Backtracks {
                backtracks: stats.backtracks,
                guesses: stats.guesses,
            });
        }
    }
    let Some(found) = solutions else {
        return Ok(());
    };
    let expected = match status {
        SolveStatus::Solved if found != 1 => "exactly 1",
        SolveStatus::Multiple if found < 2 => "2 or more",
        SolveStatus::Unsolvable | SolveStatus::Stuck | SolveStatus::Invalid if found != 0 => "none",
        _ => return Ok(()),
    };
    Err(Impossibility::Solutions {
        status,
        found,
        expected,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats() -> SearchStats {
        SearchStats {
            recursions: 9,
            max_depth: 4,
            guesses: 8,
            backtracks: 8,
            naked_singles: 40,
            hidden_singles: 300,
            givens: 17,
        }
    }

    #[test]
    fn rows_within_the_definitions_pass() {
        check(SolveStatus::Solved, Some(&stats()), Some(1)).unwrap();
        check(SolveStatus::Solved, Some(&stats()), None).unwrap();
        check(SolveStatus::Multiple, Some(&stats()), Some(2)).unwrap();
        check(SolveStatus::GaveUp, Some(&stats()), Some(1)).unwrap();
        check(SolveStatus::Invalid, None, Some(0)).unwrap();
        check(SolveStatus::Invalid, None, None).unwrap();
        let root = SearchStats {
            recursions: 1,
            max_depth: 1,
            guesses: 0,
            backtracks: 0,
            givens: 81,
            ..stats()
        };
        check(SolveStatus::Solved, Some(&root), Some(1)).unwrap();
    }

    #[test]
    fn each_rule_names_what_it_found() {
        let cases = [
            (
                SearchStats {
                    givens: 200,
                    ..stats()
                },
                None,
                "givens is 200, but a puzzle has 81 cells",
            ),
            (
                SearchStats {
                    recursions: 0,
                    ..stats()
                },
                None,
                "recursions is 0, but every search enters its root call, at depth 1",
            ),
            (
                SearchStats {
                    max_depth: 10,
                    ..stats()
                },
                None,
                "max_depth is 10, more than the 9 recursions that reach it",
            ),
            (
                SearchStats {
                    backtracks: 9,
                    ..stats()
                },
                None,
                "backtracks is 9, more than the 8 guesses (only a guess is undone)",
            ),
            (
                stats(),
                Some(5),
                "solutions is 5, but a row with status 'solved' has exactly 1",
            ),
        ];
        for (stats, solutions, message) in cases {
            let err = check(SolveStatus::Solved, Some(&stats), solutions).unwrap_err();
            assert_eq!(err.to_string(), message);
        }
        let err = check(SolveStatus::Multiple, Some(&stats()), Some(1)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "solutions is 1, but a row with status 'multiple' has 2 or more"
        );
        assert!(check(SolveStatus::Stuck, Some(&stats()), Some(1)).is_err());
        assert!(check(SolveStatus::Invalid, None, Some(3)).is_err());
    }
}
