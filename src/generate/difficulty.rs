//! Generating to a difficulty: the targets a user can set on the rating of [`crate::rate`]
//! (HoDoKu's level, the score, techniques the solution path must use), parsed and checked once,
//! and whether a rating meets them.
//!
//! A new kind of target (another rater's scale) is one more field of [`Difficulty`], one more
//! clause of [`Difficulty::accepts`] and of its `Display`.

use std::fmt;
use std::str::FromStr;

use crate::rate::se::{UNBUILT_FLOOR, tenths};
use crate::rate::{Ceiling, LADDER, Level, Rating, Technique};

/// What a generated puzzle's rating must meet; every part set must hold.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Difficulty {
    /// HoDoKu levels allowed, `min..=max`.
    pub levels: Option<LevelRange>,
    /// Scores allowed, `min..=max`.
    pub score: Option<ScoreRange>,
    /// Techniques the rating's path must use, each at least once.
    pub needs: Vec<Technique>,
    /// Sudoku Explainer's ER allowed, in tenths (`70..=85` for 7.0 to 8.5).
    pub se: Option<ErRange>,
}

/// The rating a puzzle was accepted with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Accepted {
    /// HoDoKu's level.
    pub level: Level,
    /// The sum of the steps' base scores.
    pub score: u32,
    /// The hardest technique used (`None` for a puzzle with no blank).
    pub hardest: Option<Technique>,
    /// Sudoku Explainer's rating, when an ER was asked for.
    pub se: Option<SeAccepted>,
}

/// The Sudoku Explainer rating a puzzle was accepted with, in tenths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SeAccepted {
    /// ER: the hardest step.
    pub er: u32,
    /// EP: the hardest step up to the first placement.
    pub ep: u32,
    /// ED: the first step.
    pub ed: u32,
}

impl Difficulty {
    /// Whether anything is asked for.
    pub fn is_set(&self) -> bool {
        self.on_hodoku() || self.se.is_some()
    }

    /// Whether anything is asked of HoDoKu's rating.
    pub fn on_hodoku(&self) -> bool {
        self.levels.is_some() || self.score.is_some() || !self.needs.is_empty()
    }

    /// Whether only puzzles that singles alone solve can be accepted (HoDoKu's easy level
    /// is the highest allowed).
    pub fn only_singles(&self) -> bool {
        self.levels.is_some_and(|l| l.max == Level::Easy)
    }

    /// Whether HoDoKu's medium level alone is asked for.
    pub fn only_medium(&self) -> bool {
        self.levels
            .is_some_and(|l| l.min == Level::Medium && l.max == Level::Medium)
    }

    /// The most a rating may reach and still be accepted, for [`crate::rate::Rater::rate_within`].
    pub fn ceiling(&self) -> Ceiling {
        Ceiling {
            level: self.levels.map_or(Level::Extreme, |l| l.max),
            score: self.score.map_or(u32::MAX, |s| s.max),
        }
    }

    /// Whether `rating` meets every part.
    pub fn accepts(&self, rating: &Rating) -> bool {
        self.levels.is_none_or(|l| l.contains(rating.level))
            && self.score.is_none_or(|s| s.contains(rating.score))
            && self.needs.iter().all(|t| rating.counts[t.index()] > 0)
    }

    /// Why no rating can meet it, when that is plain from the parts alone.
    pub(super) fn impossible(&self) -> Option<String> {
        if let Some(se) = self.se
            && se.min >= tenths(UNBUILT_FLOOR)
        {
            return Some(format!(
                "an ER of {:.1} or more needs Sudoku Explainer's nested forcing chains, which \
                 this version does not rate",
                UNBUILT_FLOOR
            ));
        }
        let max_level = self.levels.map_or(Level::Extreme, |l| l.max);
        if let Some(t) = self.needs.iter().find(|t| t.level() > max_level) {
            return Some(format!(
                "{} is a technique of level {}, above {max_level}",
                t.key(),
                t.level()
            ));
        }
        if let (Some(levels), Some(score)) = (self.levels, self.score) {
            // Level::of raises the level while the score is above its maximum.
            if score.min > levels.max.max_score() {
                return Some(format!(
                    "a score of {} or more makes a puzzle harder than {}",
                    score.min, levels.max
                ));
            }
        }
        if let Some(needs_score) = self.score.map(|s| s.max) {
            let least: u32 = self.needs.iter().map(|t| t.score()).sum();
            if least > needs_score {
                return Some(format!(
                    "the techniques needed score {least} at least, above {needs_score}"
                ));
            }
        }
        None
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(levels) = self.levels {
            parts.push(format!("level {levels}"));
        }
        if let Some(score) = self.score {
            parts.push(format!("score {score}"));
        }
        if !self.needs.is_empty() {
            let keys: Vec<&str> = self.needs.iter().map(|t| t.key()).collect();
            parts.push(format!("needs {}", keys.join(",")));
        }
        if let Some(se) = self.se {
            parts.push(format!("SE ER {se}"));
        }
        f.write_str(&parts.join(", "))
    }
}

/// HoDoKu levels `min..=max`: `hard`, or `hard-extreme`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LevelRange {
    /// The lowest level allowed.
    pub min: Level,
    /// The highest level allowed.
    pub max: Level,
}

impl LevelRange {
    /// Whether `level` is in the range.
    pub fn contains(&self, level: Level) -> bool {
        (self.min..=self.max).contains(&level)
    }
}

impl fmt::Display for LevelRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.min == self.max {
            true => write!(f, "{}", self.min),
            false => write!(f, "{}-{}", self.min, self.max),
        }
    }
}

/// Sudoku Explainer ERs `min..=max`, in tenths: `7.2`, or `7.0-8.5`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ErRange {
    /// The lowest ER allowed, in tenths.
    pub min: u32,
    /// The highest ER allowed, in tenths.
    pub max: u32,
}

impl ErRange {
    /// Whether `er` (tenths) is in the range.
    pub fn contains(&self, er: u32) -> bool {
        (self.min..=self.max).contains(&er)
    }
}

impl fmt::Display for ErRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = |t: u32| format!("{}.{}", t / 10, t % 10);
        match self.min == self.max {
            true => f.write_str(&d(self.min)),
            false => write!(f, "{}-{}", d(self.min), d(self.max)),
        }
    }
}

impl FromStr for ErRange {
    type Err = DifficultyError;

    /// `E` or `A-B`, each a number with at most one decimal (`7`, `7.2`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || DifficultyError::Er(s.to_string());
        let number = |t: &str| {
            let t = t.trim();
            let (whole, tenth) = t.split_once('.').unwrap_or((t, "0"));
            let ok = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
            if !ok(whole) || !ok(tenth) || tenth.len() > 1 || whole.len() > 3 {
                return Err(bad());
            }
            Ok(whole.parse::<u32>().map_err(|_| bad())? * 10
                + tenth.parse::<u32>().map_err(|_| bad())?)
        };
        let (min, max) = match s.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(s)?, number(s)?),
        };
        if min > max {
            return Err(bad());
        }
        Ok(ErRange { min, max })
    }
}

/// Why a target could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DifficultyError {
    /// Not a level, nor two in order.
    #[error(
        "level '{0}': expected one of easy, medium, hard, unfair, extreme, or two in order \
         (hard-extreme)"
    )]
    Level(String),
    /// Not `N` or `A-B` with `A <= B`.
    #[error("score '{0}': expected N or A-B with A <= B, for example 1000-1600")]
    Score(String),
    /// Not `E` or `A-B` with one decimal at most and `A <= B`.
    #[error("ER '{0}': expected E or A-B with one decimal at most and A <= B, for example 7.0-8.5")]
    Er(String),
    /// Not a technique's name.
    #[error("unknown technique '{name}'; the techniques (as rate writes them): {known}")]
    Technique {
        /// The name given.
        name: String,
        /// Every name, comma-separated.
        known: String,
    },
    /// A list of techniques without a name in it (`--needs ''`).
    #[error("no technique named; the techniques (as rate writes them): {known}")]
    NoTechnique {
        /// Every name, comma-separated.
        known: String,
    },
}

impl FromStr for LevelRange {
    type Err = DifficultyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let level = |t: &str| {
            Level::ALL
                .into_iter()
                .find(|l| l.name().eq_ignore_ascii_case(t.trim()))
                .ok_or_else(|| DifficultyError::Level(s.to_string()))
        };
        let (min, max) = match s.split_once('-') {
            Some((a, b)) => (level(a)?, level(b)?),
            None => (level(s)?, level(s)?),
        };
        if min > max {
            return Err(DifficultyError::Level(s.to_string()));
        }
        Ok(LevelRange { min, max })
    }
}

/// Scores `min..=max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScoreRange {
    /// The lowest score allowed.
    pub min: u32,
    /// The highest score allowed.
    pub max: u32,
}

impl ScoreRange {
    /// Whether `score` is in the range.
    pub fn contains(&self, score: u32) -> bool {
        (self.min..=self.max).contains(&score)
    }
}

impl fmt::Display for ScoreRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.min, self.max)
    }
}

impl FromStr for ScoreRange {
    type Err = DifficultyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || DifficultyError::Score(s.to_string());
        let number = |t: &str| t.trim().parse::<u32>().map_err(|_| bad());
        let (min, max) = match s.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(s)?, number(s)?),
        };
        if min > max {
            return Err(bad());
        }
        Ok(ScoreRange { min, max })
    }
}

/// Techniques by the names `rate` writes (`x-wing,swordfish`), without repeats.
/// At least one name: an empty list is refused rather than read as no target.
pub fn parse_techniques(s: &str) -> Result<Vec<Technique>, DifficultyError> {
    let known = || {
        LADDER
            .iter()
            .map(|t| t.key())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut needs = Vec::new();
    for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let t = LADDER
            .iter()
            .copied()
            .find(|t| t.key().eq_ignore_ascii_case(name))
            .ok_or_else(|| DifficultyError::Technique {
                name: name.to_string(),
                known: known(),
            })?;
        if !needs.contains(&t) {
            needs.push(t);
        }
    }
    if needs.is_empty() {
        return Err(DifficultyError::NoTechnique { known: known() });
    }
    Ok(needs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_and_refuse_nonsense() {
        let hard: LevelRange = "hard".parse().unwrap();
        assert_eq!((hard.min, hard.max), (Level::Hard, Level::Hard));
        let range: LevelRange = "Medium-extreme".parse().unwrap();
        assert_eq!((range.min, range.max), (Level::Medium, Level::Extreme));
        assert!("extreme-hard".parse::<LevelRange>().is_err());
        assert!("diabolical".parse::<LevelRange>().is_err());
        assert_eq!(
            "1000-1600".parse::<ScoreRange>(),
            Ok(ScoreRange {
                min: 1000,
                max: 1600
            })
        );
        assert!("1600-1000".parse::<ScoreRange>().is_err());
        assert_eq!(
            parse_techniques("x-wing, Swordfish,x-wing"),
            Ok(vec![Technique::XWing, Technique::Swordfish])
        );
        for empty in ["", ",", " , "] {
            assert!(matches!(
                parse_techniques(empty),
                Err(DifficultyError::NoTechnique { .. })
            ));
        }
        let Err(DifficultyError::Technique { known, .. }) = parse_techniques("x-wings") else {
            panic!("x-wings is not a technique")
        };
        assert!(known.contains("x-wing, swordfish"), "{known}");
    }

    #[test]
    fn targets_no_rating_can_meet_are_told() {
        let levels = |s: &str| Some(s.parse::<LevelRange>().unwrap());
        let needs_chain = Difficulty {
            levels: levels("easy-hard"),
            needs: vec![Technique::ForcingChain],
            ..Difficulty::default()
        };
        assert!(needs_chain.impossible().is_some());
        let score_too_high = Difficulty {
            levels: levels("medium"),
            score: Some("1200-2000".parse().unwrap()),
            ..Difficulty::default()
        };
        assert!(score_too_high.impossible().is_some());
        let fine = Difficulty {
            levels: levels("hard-unfair"),
            needs: vec![Technique::XWing],
            ..Difficulty::default()
        };
        assert_eq!(fine.impossible(), None);
    }
}
