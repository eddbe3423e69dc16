//! What a user can ask of the generator, checked once: symmetry, regions, the number of givens,
//! minimality, the seed and the attempt budget; and the errors when that cannot be met.

use std::fmt;
use std::str::FromStr;

use super::Difficulty;
use crate::grid::CELLS;
use crate::layout::Layout;

/// Which cells must be given or blank together: the pattern of givens is unchanged by this
/// map of the grid onto itself (the digits need not be).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// No constraint on the pattern.
    #[default]
    None,
    /// Half-turn about the centre: `(r, c)` with `(8 - r, 8 - c)`.
    Rot180,
    /// Quarter-turn about the centre: `(r, c)`, `(c, 8 - r)`, `(8 - r, 8 - c)`, `(8 - c, r)`.
    Rot90,
    /// Reflection in the main diagonal: `(r, c)` with `(c, r)`.
    Diagonal,
    /// Reflection left to right: `(r, c)` with `(r, 8 - c)`.
    Mirror,
}

impl Symmetry {
    /// Every symmetry, in the order they are documented.
    pub const ALL: &'static [Symmetry] = &[
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Diagonal,
        Symmetry::Mirror,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Diagonal => "diagonal",
            Symmetry::Mirror => "mirror",
        }
    }

    /// The cells that go with `cell` (itself first), without repeats: `orbit.0[..orbit.1]`.
    pub fn orbit(self, cell: usize) -> ([usize; 4], usize) {
        let (r, c) = (cell / 9, cell % 9);
        let at = |r: usize, c: usize| r * 9 + c;
        let images = match self {
            Symmetry::None => [cell; 4],
            Symmetry::Rot180 => [cell, at(8 - r, 8 - c), cell, cell],
            Symmetry::Rot90 => [cell, at(c, 8 - r), at(8 - r, 8 - c), at(8 - c, r)],
            Symmetry::Diagonal => [cell, at(c, r), cell, cell],
            Symmetry::Mirror => [cell, at(r, 8 - c), cell, cell],
        };
        let mut orbit = [cell; 4];
        let mut n = 0;
        for image in images {
            if !orbit[..n].contains(&image) {
                orbit[n] = image;
                n += 1;
            }
        }
        (orbit, n)
    }

    /// Whether the pattern of givens of `puzzle` has this symmetry.
    pub fn holds_for(self, puzzle: &crate::grid::Grid) -> bool {
        (0..CELLS).all(|i| {
            let (orbit, n) = self.orbit(i);
            orbit[..n]
                .iter()
                .all(|&j| (puzzle.get(j) != 0) == (puzzle.get(i) != 0))
        })
    }

    /// Whether some pattern with this symmetry has exactly `givens` givens.
    fn allows_count(self, givens: usize) -> bool {
        match self {
            // Orbits of four, and the centre alone.
            Symmetry::Rot90 => givens % 4 <= 1,
            // Orbits of two and at least one orbit of one (centre, diagonal, middle column).
            _ => true,
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A symmetry name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown symmetry '{0}' (expected one of: none, rot180, rot90, diagonal, mirror)")]
pub struct UnknownSymmetry(pub String);

impl FromStr for Symmetry {
    type Err = UnknownSymmetry;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Symmetry::ALL
            .iter()
            .copied()
            .find(|x| x.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownSymmetry(s.to_string()))
    }
}

/// Where the regions come from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Regions {
    /// The 3x3 boxes.
    #[default]
    Standard,
    /// One layout for every puzzle (standard or jigsaw).
    Layout(Layout),
    /// A new jigsaw layout for every puzzle, made from the boxes by this many boundary swaps
    /// (see [`super::random_layout`]).
    RandomJigsaw {
        /// Swaps per layout.
        swaps: usize,
    },
}

/// A range of numbers of givens, `min..=max`, within `0..=81`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GivensRange {
    min: usize,
    max: usize,
}

/// Why a range of givens is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GivensRangeError {
    /// Not `N` or `A-B` with numbers.
    #[error("givens '{text}': expected N or A-B, for example 22-26")]
    Syntax {
        /// The text given.
        text: String,
    },
    /// `min` above `max`, or `max` above 81.
    #[error("givens {min}-{max}: expected 0 <= A <= B <= 81")]
    OutOfOrder {
        /// The lower bound given.
        min: usize,
        /// The upper bound given.
        max: usize,
    },
}

impl GivensRange {
    /// The range `min..=max`.
    pub fn new(min: usize, max: usize) -> Result<GivensRange, GivensRangeError> {
        if min > max || max > CELLS {
            return Err(GivensRangeError::OutOfOrder { min, max });
        }
        Ok(GivensRange { min, max })
    }

    /// The smallest number of givens allowed.
    pub fn min(&self) -> usize {
        self.min
    }

    /// The largest number of givens allowed.
    pub fn max(&self) -> usize {
        self.max
    }

    /// Whether `givens` is in the range.
    pub fn contains(&self, givens: usize) -> bool {
        (self.min..=self.max).contains(&givens)
    }
}

impl fmt::Display for GivensRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.min, self.max)
    }
}

impl FromStr for GivensRange {
    type Err = GivensRangeError;

    /// `N` (exactly N) or `A-B`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let syntax = || GivensRangeError::Syntax {
            text: s.to_string(),
        };
        let number = |t: &str| t.trim().parse::<usize>().map_err(|_| syntax());
        match s.split_once('-') {
            Some((a, b)) => GivensRange::new(number(a)?, number(b)?),
            None => {
                let n = number(s)?;
                GivensRange::new(n, n)
            }
        }
    }
}

/// Everything that decides the puzzles: the same options give the same puzzles, byte for byte,
/// however many threads make them and in whatever order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerateOptions {
    /// The seed of the batch; puzzle `i` draws from [`crate::rng::SplitMix64::output_at`]`(seed, i)`.
    pub seed: u64,
    /// How many givens a puzzle may have; `None`: as few as the removal pass leaves.
    pub givens: Option<GivensRange>,
    /// Every puzzle minimal: no single given can be removed with the solution staying unique.
    pub minimal: bool,
    /// The symmetry of the pattern of givens.
    pub symmetry: Symmetry,
    /// The regions.
    pub regions: Regions,
    /// Attempts per puzzle (a new complete grid each) before giving up with
    /// [`GenerateError::AttemptsExhausted`].
    pub max_attempts: u32,
    /// What the puzzle's rating must meet (nothing: no rating).
    pub difficulty: Difficulty,
    /// With a difficulty: the steps of the walk from a thinned puzzle that does not meet it
    /// (one given moved, then the puzzle thinned again) before a new grid is drawn; 0 (the
    /// default) draws a new grid at once. Measured on one thread, 30 steps made 4% to 24%
    /// fewer puzzles a second than none at every level: a neighbour costs about what a new
    /// grid does and is seldom harder.
    pub walk: u32,
    /// Puzzles made from each puzzle that meets the target before a new grid is drawn, by
    /// moving one given (see the [module page](super)): puzzles come in families of
    /// `neighbours + 1` that share their solution grid. 0 (the default): every puzzle from a
    /// grid of its own.
    pub neighbours: u32,
}

/// The most steps [`GenerateOptions::walk`] may take: each costs about a new grid, so a walk
/// this long already takes about as long as a thousand attempts.
pub const MAX_WALK: u32 = 1000;

/// The most [`GenerateOptions::neighbours`]: a family is made by one thread, in order.
pub const MAX_NEIGHBOURS: u32 = 100;

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            seed: 0,
            givens: None,
            minimal: false,
            symmetry: Symmetry::None,
            regions: Regions::Standard,
            max_attempts: 10_000,
            difficulty: Difficulty::default(),
            walk: 0,
            neighbours: 0,
        }
    }
}

/// Why a puzzle could not be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The standard layout and at most 16 givens: no such puzzle has a unique solution.
    #[error(
        "no standard Sudoku with fewer than 17 givens has a unique solution (McGuire, Tugemann and \
         Civario, 2012); asked for at most {max}"
    )]
    BelowSeventeen {
        /// The upper bound asked for.
        max: usize,
    },
    /// No pattern with the symmetry has a number of givens in the range.
    #[error("no pattern with {symmetry} symmetry has {range} givens (rot90 needs 4k or 4k+1)")]
    NoCountForSymmetry {
        /// The symmetry asked for.
        symmetry: Symmetry,
        /// The range asked for.
        range: GivensRange,
    },
    /// Every attempt ended outside the options (too many givens left, not minimal, or no
    /// complete grid found on a jigsaw layout).
    #[error(
        "puzzle {index}: no puzzle met the options in {attempts} attempts (givens {givens}, \
         symmetry {symmetry}{minimal}{target}); widen a range, drop a constraint or raise \
         --max-attempts",
        givens = range.map_or("any".to_string(), |r| r.to_string()),
        minimal = if *minimal { ", minimal" } else { "" },
        target = if difficulty.is_set() { format!(", {difficulty}") } else { String::new() }
    )]
    AttemptsExhausted {
        /// The puzzle's index in the batch.
        index: u64,
        /// Attempts made.
        attempts: u32,
        /// The range of givens asked for.
        range: Option<GivensRange>,
        /// The symmetry asked for.
        symmetry: Symmetry,
        /// Whether minimal puzzles were asked for.
        minimal: bool,
        /// The rating asked for.
        difficulty: Difficulty,
    },
    /// No rating can meet the difficulty asked for.
    #[error("no puzzle can be rated {difficulty}: {reason}")]
    Unreachable {
        /// The difficulty asked for.
        difficulty: Difficulty,
        /// Why.
        reason: String,
    },
    /// `--walk` above [`MAX_WALK`].
    #[error("--walk {walk}: at most {MAX_WALK} steps (each costs about a new grid)")]
    WalkTooLong {
        /// The steps asked for.
        walk: u32,
    },
    /// `--neighbours` above [`MAX_NEIGHBOURS`].
    #[error(
        "--neighbours {neighbours}: at most {MAX_NEIGHBOURS} (a family of puzzles is made by one \
         thread)"
    )]
    TooManyNeighbours {
        /// The neighbours asked for.
        neighbours: u32,
    },
    /// A technique that needs 3x3 boxes was asked for on a jigsaw layout.
    #[error("{technique} needs 3x3 boxes; it is never used on a jigsaw layout")]
    NeedsBoxes {
        /// The technique's name.
        technique: &'static str,
    },
    /// An SE rating asked for on a jigsaw layout.
    #[error("--se: Sudoku Explainer rates puzzles on 3x3 boxes only, not jigsaw layouts")]
    SeNeedsBoxes,
    /// The run was interrupted while the puzzle was being made.
    #[error("puzzle {index}: interrupted")]
    Interrupted {
        /// The puzzle's index in the batch.
        index: u64,
    },
    /// A layout given for every puzzle admits no complete grid within the search budget.
    #[error("puzzle {index}: no complete grid found for the layout {layout}")]
    NoGridForLayout {
        /// The puzzle's index in the batch.
        index: u64,
        /// The layout, as 81 labels.
        layout: String,
    },
    /// The final check disagreed with the generator: a bug, reported instead of a wrong puzzle.
    #[error("puzzle {index}: generated puzzle {puzzle} failed its check: {reason}")]
    CheckFailed {
        /// The puzzle's index in the batch.
        index: u64,
        /// The puzzle, as 81 characters.
        puzzle: String,
        /// What the solver or the verifier said.
        reason: String,
    },
}

impl GenerateOptions {
    /// Refuses options that no puzzle can meet, before any attempt.
    pub fn check(&self) -> Result<(), GenerateError> {
        if self.walk > MAX_WALK {
            return Err(GenerateError::WalkTooLong { walk: self.walk });
        }
        if self.neighbours > MAX_NEIGHBOURS {
            return Err(GenerateError::TooManyNeighbours {
                neighbours: self.neighbours,
            });
        }
        let reason = self
            .difficulty
            .impossible()
            .or_else(|| self.score_out_of_reach())
            .or_else(|| self.last_cells_only());
        if let Some(reason) = reason {
            return Err(GenerateError::Unreachable {
                difficulty: self.difficulty.clone(),
                reason,
            });
        }
        let standard = match &self.regions {
            Regions::Standard => true,
            Regions::Layout(layout) => layout.is_standard(),
            Regions::RandomJigsaw { .. } => false,
        };
        if let Some(t) = self.difficulty.needs.iter().find(|t| t.needs_boxes())
            && !standard
        {
            return Err(GenerateError::NeedsBoxes { technique: t.key() });
        }
        if self.difficulty.se.is_some() && !standard {
            return Err(GenerateError::SeNeedsBoxes);
        }
        let Some(range) = self.givens else {
            return Ok(());
        };
        if standard && range.max() < 17 {
            return Err(GenerateError::BelowSeventeen { max: range.max() });
        }
        if !(range.min()..=range.max()).any(|n| self.symmetry.allows_count(n)) {
            return Err(GenerateError::NoCountForSymmetry {
                symmetry: self.symmetry,
                range,
            });
        }
        Ok(())
    }

    /// Why no puzzle of these givens can score in the range asked for, if none can. Every blank
    /// cell is filled by one step of the rating, and every step scores at least the cheapest
    /// technique (4); every step fills a cell or removes a candidate, so a puzzle with `b` blank
    /// cells has at most `10 b` steps, each scoring at most the dearest technique.
    fn score_out_of_reach(&self) -> Option<String> {
        use crate::rate::LADDER;
        let score = self.difficulty.score?;
        let cheapest = LADDER.iter().map(|t| t.score()).min().unwrap_or(0);
        let dearest = LADDER.iter().map(|t| t.score()).max().unwrap_or(0);
        let most_givens = self.givens.map_or(CELLS - 1, |r| r.max());
        let least = cheapest.saturating_mul((CELLS - most_givens) as u32);
        let most = dearest.saturating_mul(10 * CELLS as u32);
        if score.max < least {
            return Some(format!(
                "a puzzle with at most {most_givens} givens scores {least} at least \
                 ({cheapest} a blank cell)"
            ));
        }
        (score.min > most).then(|| format!("no puzzle scores above {most}"))
    }

    /// Why no puzzle of these givens meets the difficulty, when every one has at most one
    /// blank cell: its rating is then fixed (no step, or one full house: score 4, level easy).
    fn last_cells_only(&self) -> Option<String> {
        use crate::rate::Technique::FullHouse;
        let range = self.givens?;
        let difficulty = &self.difficulty;
        if !difficulty.is_set() || range.min() < CELLS - 1 {
            return None;
        }
        let meets = |givens: usize| {
            let blank = givens < CELLS;
            let score = FullHouse.score() * u32::from(blank);
            difficulty
                .levels
                .is_none_or(|l| l.contains(FullHouse.level()))
                && difficulty.score.is_none_or(|s| s.contains(score))
                && difficulty.needs.iter().all(|&t| blank && t == FullHouse)
        };
        (!(range.min()..=range.max()).any(meets)).then(|| {
            "a puzzle with at most one blank cell is solved by at most one full house (score 0 \
             or 4, level easy)"
                .to_string()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_have_the_documented_sizes() {
        let sizes = |s: Symmetry| -> Vec<usize> { (0..CELLS).map(|i| s.orbit(i).1).collect() };
        assert!(sizes(Symmetry::None).iter().all(|&n| n == 1));
        assert_eq!(
            sizes(Symmetry::Rot180).iter().filter(|&&n| n == 1).count(),
            1
        );
        assert_eq!(
            sizes(Symmetry::Rot90).iter().filter(|&&n| n == 4).count(),
            80
        );
        assert_eq!(
            sizes(Symmetry::Diagonal)
                .iter()
                .filter(|&&n| n == 1)
                .count(),
            9
        );
        assert_eq!(
            sizes(Symmetry::Mirror).iter().filter(|&&n| n == 1).count(),
            9
        );
        // Every cell of an orbit has the same orbit.
        for &s in Symmetry::ALL {
            for i in 0..CELLS {
                let (orbit, n) = s.orbit(i);
                for &j in &orbit[..n] {
                    let (other, m) = s.orbit(j);
                    let mut a = orbit[..n].to_vec();
                    let mut b = other[..m].to_vec();
                    a.sort();
                    b.sort();
                    assert_eq!(a, b, "{s} {i} {j}");
                }
            }
        }
    }

    #[test]
    fn givens_ranges_parse_and_refuse_nonsense() {
        assert_eq!("22-26".parse(), Ok(GivensRange::new(22, 26).unwrap()));
        assert_eq!("30".parse(), Ok(GivensRange::new(30, 30).unwrap()));
        assert!(matches!(
            "26-22".parse::<GivensRange>(),
            Err(GivensRangeError::OutOfOrder { .. })
        ));
        assert!(matches!(
            "a-b".parse::<GivensRange>(),
            Err(GivensRangeError::Syntax { .. })
        ));
        assert_eq!("ROT90".parse(), Ok(Symmetry::Rot90));
        assert!("spiral".parse::<Symmetry>().is_err());
    }

    #[test]
    fn impossible_options_are_refused_before_any_attempt() {
        let with = |givens: &str, symmetry| GenerateOptions {
            givens: Some(givens.parse().unwrap()),
            symmetry,
            ..GenerateOptions::default()
        };
        assert_eq!(
            with("10-16", Symmetry::None).check(),
            Err(GenerateError::BelowSeventeen { max: 16 })
        );
        assert!(matches!(
            with("18-19", Symmetry::Rot90).check(),
            Err(GenerateError::NoCountForSymmetry { .. })
        ));
        assert_eq!(with("17-17", Symmetry::Rot90).check(), Ok(()));
        let jigsaw = GenerateOptions {
            regions: Regions::RandomJigsaw { swaps: 40 },
            ..with("12-14", Symmetry::None)
        };
        assert_eq!(jigsaw.check(), Ok(()));
    }

    #[test]
    fn scores_no_puzzle_can_have_and_overlong_walks_are_refused() {
        let scoring = |score: &str, givens: Option<&str>| GenerateOptions {
            givens: givens.map(|g| g.parse().unwrap()),
            difficulty: Difficulty {
                score: Some(score.parse().unwrap()),
                ..Difficulty::default()
            },
            ..GenerateOptions::default()
        };
        let unreachable =
            |o: GenerateOptions| matches!(o.check(), Err(GenerateError::Unreachable { .. }));
        // One blank cell at least, filled by a step of 4 at least.
        assert!(unreachable(scoring("1-3", None)));
        assert_eq!(scoring("4", None).check(), Ok(()));
        // 30 givens at most: 51 blank cells, 204 at least.
        assert!(unreachable(scoring("100-203", Some("25-30"))));
        assert_eq!(scoring("100-204", Some("25-30")).check(), Ok(()));
        assert!(unreachable(scoring("4000000000", None)));
        // At most one blank cell: no step, or one full house.
        assert!(unreachable(scoring("100-200", Some("80"))));
        assert!(unreachable(scoring("5-10", Some("81"))));
        assert_eq!(scoring("0-4", Some("80-81")).check(), Ok(()));
        let leveled = |levels: &str, needs: Vec<crate::rate::Technique>| GenerateOptions {
            givens: Some("80-81".parse().unwrap()),
            difficulty: Difficulty {
                levels: Some(levels.parse().unwrap()),
                needs,
                ..Difficulty::default()
            },
            ..GenerateOptions::default()
        };
        assert!(unreachable(leveled("medium", vec![])));
        assert_eq!(leveled("easy", vec![]).check(), Ok(()));
        let full_house = vec![crate::rate::Technique::FullHouse];
        assert_eq!(leveled("easy", full_house).check(), Ok(()));
        let walking = |walk| GenerateOptions {
            walk,
            ..GenerateOptions::default()
        };
        assert_eq!(walking(MAX_WALK).check(), Ok(()));
        assert_eq!(
            walking(MAX_WALK + 1).check(),
            Err(GenerateError::WalkTooLong { walk: MAX_WALK + 1 })
        );
    }
}
