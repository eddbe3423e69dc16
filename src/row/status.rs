//! The status of one result row: a type per command ([`SolveStatus`], [`VerifyStatus`],
//! [`RateStatus`]), and
//! [`RowStatus`], any row's status by its unique name, for what handles rows of every command
//! alike (tallies, checkpoints, messages).

use std::fmt;
use std::str::FromStr;

/// A kind of row status: a closed set of names, each with its place in a [`Tally`](super::Tally).
pub trait Status: Copy + Eq + fmt::Debug + fmt::Display + 'static {
    /// Every status of this kind, in the order reports list them.
    const ALL: &'static [Self];

    /// The name written in the `status` column.
    fn name(self) -> &'static str;

    /// The position of this status in [`Status::ALL`].
    fn index(self) -> usize;

    /// The status named `name`, if there is one.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|s| s.name() == name)
    }
}

/// How a `solve` record ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SolveStatus {
    /// Exactly one solution (or the first, with `--max-solutions 1`).
    Solved,
    /// At least two solutions.
    Multiple,
    /// No solution, though the givens do not conflict.
    Unsolvable,
    /// The record could not be read, or its givens conflict.
    Invalid,
    /// The recursion budget ran out first.
    GaveUp,
    /// Propagation alone stopped with blank cells left (an algorithm that never guesses).
    Stuck,
}

/// How a `verify` record ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VerifyStatus {
    /// The proposed solution is right (and, with `--unique`, the only one).
    Ok,
    /// The proposed solution is wrong, or not the only one.
    Wrong,
    /// The puzzle or the solution could not be read, or the puzzle's givens conflict.
    Invalid,
    /// `--unique`: the uniqueness search ran out of budget.
    GaveUp,
}

/// How a `rate` record ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RateStatus {
    /// Exactly one solution, and rated.
    Rated,
    /// At least two solutions: not rated (HoDoKu rates only puzzles with one solution).
    Multiple,
    /// No solution, though the givens do not conflict: not rated.
    Unsolvable,
    /// The record could not be read, or its givens conflict.
    Invalid,
    /// The uniqueness search ran out of its recursion budget: not rated.
    GaveUp,
}

/// Any row's status, by its name: the statuses of every command, each name once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RowStatus {
    /// `solved` (solve).
    Solved,
    /// `multiple` (solve).
    Multiple,
    /// `unsolvable` (solve).
    Unsolvable,
    /// `invalid` (every command).
    Invalid,
    /// `gave_up` (solve; verify `--unique`).
    GaveUp,
    /// `stuck` (solve).
    Stuck,
    /// `ok` (verify).
    Ok,
    /// `wrong` (verify).
    Wrong,
    /// `rated` (rate).
    Rated,
}

impl Status for SolveStatus {
    const ALL: &'static [SolveStatus] = &[
        SolveStatus::Solved,
        SolveStatus::Multiple,
        SolveStatus::Unsolvable,
        SolveStatus::Invalid,
        SolveStatus::GaveUp,
        SolveStatus::Stuck,
    ];

    fn name(self) -> &'static str {
        RowStatus::from(self).name()
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl Status for VerifyStatus {
    const ALL: &'static [VerifyStatus] = &[
        VerifyStatus::Ok,
        VerifyStatus::Wrong,
        VerifyStatus::Invalid,
        VerifyStatus::GaveUp,
    ];

    fn name(self) -> &'static str {
        RowStatus::from(self).name()
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl Status for RateStatus {
    const ALL: &'static [RateStatus] = &[
        RateStatus::Rated,
        RateStatus::Multiple,
        RateStatus::Unsolvable,
        RateStatus::Invalid,
        RateStatus::GaveUp,
    ];

    fn name(self) -> &'static str {
        RowStatus::from(self).name()
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl Status for RowStatus {
    const ALL: &'static [RowStatus] = &[
        RowStatus::Solved,
        RowStatus::Multiple,
        RowStatus::Unsolvable,
        RowStatus::Invalid,
        RowStatus::GaveUp,
        RowStatus::Stuck,
        RowStatus::Ok,
        RowStatus::Wrong,
        RowStatus::Rated,
    ];

    fn name(self) -> &'static str {
        match self {
            RowStatus::Solved => "solved",
            RowStatus::Multiple => "multiple",
            RowStatus::Unsolvable => "unsolvable",
            RowStatus::Invalid => "invalid",
            RowStatus::GaveUp => "gave_up",
            RowStatus::Stuck => "stuck",
            RowStatus::Ok => "ok",
            RowStatus::Wrong => "wrong",
            RowStatus::Rated => "rated",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl From<SolveStatus> for RowStatus {
    fn from(status: SolveStatus) -> Self {
        match status {
            SolveStatus::Solved => RowStatus::Solved,
            SolveStatus::Multiple => RowStatus::Multiple,
            SolveStatus::Unsolvable => RowStatus::Unsolvable,
            SolveStatus::Invalid => RowStatus::Invalid,
            SolveStatus::GaveUp => RowStatus::GaveUp,
            SolveStatus::Stuck => RowStatus::Stuck,
        }
    }
}

impl From<VerifyStatus> for RowStatus {
    fn from(status: VerifyStatus) -> Self {
        match status {
            VerifyStatus::Ok => RowStatus::Ok,
            VerifyStatus::Wrong => RowStatus::Wrong,
            VerifyStatus::Invalid => RowStatus::Invalid,
            VerifyStatus::GaveUp => RowStatus::GaveUp,
        }
    }
}

impl From<RateStatus> for RowStatus {
    fn from(status: RateStatus) -> Self {
        match status {
            RateStatus::Rated => RowStatus::Rated,
            RateStatus::Multiple => RowStatus::Multiple,
            RateStatus::Unsolvable => RowStatus::Unsolvable,
            RateStatus::Invalid => RowStatus::Invalid,
            RateStatus::GaveUp => RowStatus::GaveUp,
        }
    }
}

impl From<crate::solver::Status> for SolveStatus {
    fn from(status: crate::solver::Status) -> Self {
        use crate::solver::Status;
        match status {
            Status::Solved => SolveStatus::Solved,
            Status::Multiple => SolveStatus::Multiple,
            Status::Unsolvable => SolveStatus::Unsolvable,
            Status::GaveUp => SolveStatus::GaveUp,
            Status::Stuck => SolveStatus::Stuck,
        }
    }
}

macro_rules! display_and_parse {
    ($($kind:ty),*) => {$(
        impl fmt::Display for $kind {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $kind {
            type Err = UnknownStatus;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                <$kind>::from_name(s).ok_or_else(|| UnknownStatus(s.to_string()))
            }
        }
    )*};
}

display_and_parse!(SolveStatus, VerifyStatus, RateStatus, RowStatus);

/// A status name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown status '{0}' (expected one of solved, multiple, unsolvable, invalid, gave_up, stuck, ok, wrong, rated)"
)]
pub struct UnknownStatus(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_parse_back_in_every_kind() {
        fn round_trip<S: Status + FromStr>() {
            for (i, &status) in S::ALL.iter().enumerate() {
                assert_eq!(status.index(), i);
                assert_eq!(S::from_name(status.name()), Some(status));
            }
        }
        round_trip::<SolveStatus>();
        round_trip::<VerifyStatus>();
        round_trip::<RateStatus>();
        round_trip::<RowStatus>();
        for &s in SolveStatus::ALL {
            assert_eq!(RowStatus::from(s).name(), s.name());
        }
        for &s in VerifyStatus::ALL {
            assert_eq!(RowStatus::from(s).name(), s.name());
        }
        for &s in RateStatus::ALL {
            assert_eq!(RowStatus::from(s).name(), s.name());
        }
        assert_eq!("ok".parse::<SolveStatus>(), Err(UnknownStatus("ok".into())));
        assert_eq!("ok".parse::<RowStatus>(), Ok(RowStatus::Ok));
    }
}
