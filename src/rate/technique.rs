//! The ladder of techniques with HoDoKu's scores and levels, and HoDoKu's rule for a puzzle's
//! level.
//!
//! # Where the numbers come from
//! HoDoKu 2.2 (Bernhard Hobiger) keeps one table of solver steps in `Options.java`
//! (`solverSteps`): for each technique its place in the solving order, its level and its base
//! score; and a table of levels (`DEFAULT_DIFFICULTY_LEVELS`) with the highest score of each.
//! The numbers below were read from that table as transcribed by `hodoku-py` 0.2.1
//! (`hodoku/core/scoring.py`), the port we compare against, and written out here; the order of
//! [`LADDER`] is HoDoKu's order (its `index` column).
//!
//! # Level rule
//! A rating's level is the highest level among the techniques used; then, while the total
//! score is above that level's maximum (easy 800, medium 1000, hard 1600, unfair 1800,
//! extreme unbounded), the level goes up one ([`Level::of`]).

use std::fmt;

/// HoDoKu's five levels, easiest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Singles only, score at most 800.
    Easy,
    /// Intersections and small subsets, score at most 1000.
    Medium,
    /// Fish, wings, single-digit patterns, uniqueness, coloring; score at most 1600.
    Hard,
    /// Chains, ALS, Sue de Coq, big finned fish; score at most 1800.
    Unfair,
    /// Forcing chains and nets, brute force, or a score above 1800.
    Extreme,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Unfair,
        Level::Extreme,
    ];

    /// The level's name in output (`easy`, ..., `extreme`).
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Unfair => "unfair",
            Level::Extreme => "extreme",
        }
    }

    /// The highest total score a puzzle of this level may have (HoDoKu's `maxScore`).
    pub fn max_score(self) -> u32 {
        match self {
            Level::Easy => 800,
            Level::Medium => 1000,
            Level::Hard => 1600,
            Level::Unfair => 1800,
            Level::Extreme => u32::MAX,
        }
    }

    /// HoDoKu's rule: start at `hardest` (the highest level of a technique used) and go up
    /// while `score` is above the level's maximum.
    pub fn of(hardest: Level, score: u32) -> Level {
        let mut level = hardest;
        while score > level.max_score() {
            level = Level::ALL[level as usize + 1];
        }
        level
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

macro_rules! techniques {
    ($( $(#[$doc:meta])* $variant:ident = ($name:literal, $key:literal, $score:literal, $level:ident), )*) => {
        /// A solving technique of the ladder. Each variant's page gives its HoDoKu name, base
        /// score and level.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Technique {
            $( $(#[$doc])* $variant, )*
        }

        /// Every technique in the order the solver tries them (HoDoKu's order).
        pub const LADDER: &[Technique] = &[ $( Technique::$variant, )* ];

        impl Technique {
            /// The technique's name in a player's words (HoDoKu's).
            pub fn name(self) -> &'static str {
                match self { $( Technique::$variant => $name, )* }
            }

            /// The technique's name in machine output: lower case, words joined by `-`.
            pub fn key(self) -> &'static str {
                match self { $( Technique::$variant => $key, )* }
            }

            /// HoDoKu's base score: points added each time the technique is applied.
            pub fn score(self) -> u32 {
                match self { $( Technique::$variant => $score, )* }
            }

            /// HoDoKu's level of the technique.
            pub fn level(self) -> Level {
                match self { $( Technique::$variant => Level::$level, )* }
            }
        }
    };
}

techniques! {
    /// The last empty cell of a house. HoDoKu: Full House, 4, easy.
    FullHouse = ("Full House", "full-house", 4, Easy),
    /// A cell with one candidate left. HoDoKu: Naked Single, 4, easy.
    NakedSingle = ("Naked Single", "naked-single", 4, Easy),
    /// A digit with one cell left in a house. HoDoKu: Hidden Single, 14, easy.
    HiddenSingle = ("Hidden Single", "hidden-single", 14, Easy),
    /// A naked pair inside a line and a region at once. HoDoKu: Locked Pair, 40, medium.
    LockedPair = ("Locked Pair", "locked-pair", 40, Medium),
    /// A naked triple inside a line and a region at once. HoDoKu: Locked Triple, 60, medium.
    LockedTriple = ("Locked Triple", "locked-triple", 60, Medium),
    /// A digit of a region confined to one line (pointing). HoDoKu: Locked Candidates Type 1,
    /// 50, medium.
    LockedCandidatesPointing = ("Locked Candidates Type 1 (Pointing)", "locked-candidates-pointing", 50, Medium),
    /// A digit of a line confined to one region (claiming). HoDoKu: Locked Candidates Type 2,
    /// 50, medium.
    LockedCandidatesClaiming = ("Locked Candidates Type 2 (Claiming)", "locked-candidates-claiming", 50, Medium),
    /// Two cells of a house holding the same two candidates. HoDoKu: Naked Pair, 60, medium.
    NakedPair = ("Naked Pair", "naked-pair", 60, Medium),
    /// Three cells of a house holding three candidates. HoDoKu: Naked Triple, 80, medium.
    NakedTriple = ("Naked Triple", "naked-triple", 80, Medium),
    /// Two digits confined to the same two cells of a house. HoDoKu: Hidden Pair, 70, medium.
    HiddenPair = ("Hidden Pair", "hidden-pair", 70, Medium),
    /// Three digits confined to three cells of a house. HoDoKu: Hidden Triple, 100, medium.
    HiddenTriple = ("Hidden Triple", "hidden-triple", 100, Medium),
    /// Four cells of a house holding four candidates. HoDoKu: Naked Quadruple, 120, hard.
    NakedQuad = ("Naked Quadruple", "naked-quad", 120, Hard),
    /// Four digits confined to four cells of a house. HoDoKu: Hidden Quadruple, 150, hard.
    HiddenQuad = ("Hidden Quadruple", "hidden-quad", 150, Hard),
    /// A digit in two lines confined to two cross lines. HoDoKu: X-Wing, 140, hard.
    XWing = ("X-Wing", "x-wing", 140, Hard),
    /// The same with three lines. HoDoKu: Swordfish, 150, hard.
    Swordfish = ("Swordfish", "swordfish", 150, Hard),
    /// The same with four lines. HoDoKu: Jellyfish, 160, hard.
    Jellyfish = ("Jellyfish", "jellyfish", 160, Hard),
    /// A chain of bivalue cells with the same two digits. HoDoKu: Remote Pair, 110, hard.
    RemotePair = ("Remote Pair", "remote-pair", 110, Hard),
    /// All cells bivalue but one: that cell takes the digit seen three times. HoDoKu:
    /// Bivalue Universal Grave + 1, 100, hard.
    BugPlusOne = ("Bivalue Universal Grave + 1", "bug-plus-1", 100, Hard),
    /// Two parallel strong links joined at one end. HoDoKu: Skyscraper, 130, hard.
    Skyscraper = ("Skyscraper", "skyscraper", 130, Hard),
    /// A row and a column strong link joined in a region. HoDoKu: 2-String Kite, 150, hard.
    TwoStringKite = ("2-String Kite", "2-string-kite", 150, Hard),
    /// Any two strong links of one digit joined by a weak link. HoDoKu: Turbot Fish, 120, hard.
    TurbotFish = ("Turbot Fish", "turbot-fish", 120, Hard),
    /// A box whose digit lies on a cross, with a strong link. HoDoKu: Empty Rectangle, 120,
    /// hard. Standard layout only.
    EmptyRectangle = ("Empty Rectangle", "empty-rectangle", 120, Hard),
    /// Two equal bivalue cells joined by a strong link. HoDoKu: W-Wing, 150, hard.
    WWing = ("W-Wing", "w-wing", 150, Hard),
    /// A bivalue pivot and two bivalue pincers. HoDoKu: XY-Wing, 160, hard.
    XyWing = ("XY-Wing", "xy-wing", 160, Hard),
    /// A trivalue pivot and two bivalue pincers. HoDoKu: XYZ-Wing, 180, hard.
    XyzWing = ("XYZ-Wing", "xyz-wing", 180, Hard),
    /// Unique rectangle with one extra cell. HoDoKu: Uniqueness Test 1, 100, hard.
    UniqueRectangle1 = ("Uniqueness Test 1", "unique-rectangle-1", 100, Hard),
    /// Unique rectangle, two extra cells with one extra digit. HoDoKu: Uniqueness Test 2, 100,
    /// hard.
    UniqueRectangle2 = ("Uniqueness Test 2", "unique-rectangle-2", 100, Hard),
    /// Unique rectangle whose extra digits form a subset. HoDoKu: Uniqueness Test 3, 100, hard.
    UniqueRectangle3 = ("Uniqueness Test 3", "unique-rectangle-3", 100, Hard),
    /// Unique rectangle with a strong link on one of its digits. HoDoKu: Uniqueness Test 4,
    /// 100, hard.
    UniqueRectangle4 = ("Uniqueness Test 4", "unique-rectangle-4", 100, Hard),
    /// Unique rectangle with strong links through the corner opposite a bivalue cell.
    /// HoDoKu: Hidden Rectangle, 100, hard.
    HiddenRectangle = ("Hidden Rectangle", "hidden-rectangle", 100, Hard),
    /// X-Wing with fins in one region. HoDoKu: Finned X-Wing, 130, hard.
    FinnedXWing = ("Finned X-Wing", "finned-x-wing", 130, Hard),
    /// Degenerate finned X-Wing. HoDoKu: Sashimi X-Wing, 150, hard.
    SashimiXWing = ("Sashimi X-Wing", "sashimi-x-wing", 150, Hard),
    /// Swordfish with fins in one region. HoDoKu: Finned Swordfish, 200, unfair.
    FinnedSwordfish = ("Finned Swordfish", "finned-swordfish", 200, Unfair),
    /// Degenerate finned swordfish. HoDoKu: Sashimi Swordfish, 240, unfair.
    SashimiSwordfish = ("Sashimi Swordfish", "sashimi-swordfish", 240, Unfair),
    /// Jellyfish with fins in one region. HoDoKu: Finned Jellyfish, 250, unfair.
    FinnedJellyfish = ("Finned Jellyfish", "finned-jellyfish", 250, Unfair),
    /// Degenerate finned jellyfish. HoDoKu: Sashimi Jellyfish, 260, unfair.
    SashimiJellyfish = ("Sashimi Jellyfish", "sashimi-jellyfish", 260, Unfair),
    /// A line-region intersection locked with cells of the line and of the region. HoDoKu:
    /// Sue de Coq, 250, unfair.
    SueDeCoq = ("Sue de Coq", "sue-de-coq", 250, Unfair),
    /// Two colours of one digit's strong links. HoDoKu: Simple Colors, 150, hard.
    SimpleColors = ("Simple Colors", "simple-colors", 150, Hard),
    /// Two clusters of colours of one digit. HoDoKu: Multi Colors, 200, hard.
    MultiColors = ("Multi Colors", "multi-colors", 200, Hard),
    /// An alternating chain on one digit. HoDoKu: X-Chain, 260, unfair.
    XChain = ("X-Chain", "x-chain", 260, Unfair),
    /// An alternating chain of bivalue cells. HoDoKu: XY-Chain, 260, unfair.
    XyChain = ("XY-Chain", "xy-chain", 260, Unfair),
    /// An alternating inference chain or nice loop over any candidates. HoDoKu: Nice Loop /
    /// AIC, 280, unfair.
    NiceLoop = ("Nice Loop/AIC", "nice-loop", 280, Unfair),
    /// Two almost locked sets with a restricted common digit. HoDoKu: ALS-XZ, 300, unfair.
    AlsXz = ("Almost Locked Set XZ-Rule", "als-xz", 300, Unfair),
    /// Three almost locked sets, a pivot and two wings. HoDoKu: ALS-XY-Wing, 320, unfair.
    AlsXyWing = ("Almost Locked Set XY-Wing", "als-xy-wing", 320, Unfair),
    /// An assumption followed through single implications to a contradiction, or all
    /// branches of a cell or house agreeing. HoDoKu: Forcing Chain, 500, extreme.
    ForcingChain = ("Forcing Chain", "forcing-chain", 500, Extreme),
    /// The same with singles propagated on the whole grid. HoDoKu: Forcing Net, 700, extreme.
    ForcingNet = ("Forcing Net", "forcing-net", 700, Extreme),
    /// A cell given its value from the solution. HoDoKu: Brute Force, 10000, extreme.
    BruteForce = ("Brute Force", "brute-force", 10000, Extreme),
}

impl Technique {
    /// How many techniques the ladder holds.
    pub const COUNT: usize = LADDER.len();

    /// The technique's position in [`LADDER`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The technique named `key` ([`Technique::key`]), if any.
    pub fn from_key(key: &str) -> Option<Technique> {
        LADDER.iter().copied().find(|t| t.key() == key)
    }

    /// Whether the technique assumes the puzzle has one solution.
    pub fn needs_uniqueness(self) -> bool {
        matches!(
            self,
            Technique::BugPlusOne
                | Technique::UniqueRectangle1
                | Technique::UniqueRectangle2
                | Technique::UniqueRectangle3
                | Technique::UniqueRectangle4
                | Technique::HiddenRectangle
        )
    }

    /// Whether the technique needs 3x3 boxes (it is skipped on jigsaw layouts).
    pub fn needs_boxes(self) -> bool {
        matches!(self, Technique::EmptyRectangle)
    }
}

/// A family of techniques: HoDoKu's solution categories (its `SolutionCategory`), with its
/// "last resort" split into forcing chains and nets and brute force, so that a count says
/// whether logic alone finished the puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// Full house, naked single, hidden single.
    Singles,
    /// Locked candidates (pointing, claiming), locked pair and triple.
    Intersections,
    /// Naked and hidden pairs, triples and quadruples.
    Subsets,
    /// X-Wing, Swordfish, Jellyfish.
    BasicFish,
    /// Finned and sashimi X-Wing, Swordfish, Jellyfish.
    FinnedFish,
    /// Skyscraper, 2-String Kite, Turbot Fish, Empty Rectangle.
    SingleDigit,
    /// Simple and multi colors.
    Coloring,
    /// Unique rectangles, hidden rectangle, BUG+1.
    Uniqueness,
    /// Remote pair, X-chain, XY-chain, nice loops and AICs.
    Chains,
    /// W-Wing, XY-Wing, XYZ-Wing.
    Wings,
    /// ALS-XZ, ALS-XY-Wing.
    Als,
    /// Sue de Coq.
    Miscellaneous,
    /// Forcing chains and nets.
    Forcing,
    /// Brute force.
    BruteForce,
}

impl Family {
    /// Every family, in HoDoKu's order of categories.
    pub const ALL: [Family; 14] = [
        Family::Singles,
        Family::Intersections,
        Family::Subsets,
        Family::BasicFish,
        Family::FinnedFish,
        Family::SingleDigit,
        Family::Coloring,
        Family::Uniqueness,
        Family::Chains,
        Family::Wings,
        Family::Als,
        Family::Miscellaneous,
        Family::Forcing,
        Family::BruteForce,
    ];

    /// The family's name in machine output (a `rate` column): lower case, words joined by `_`.
    pub fn key(self) -> &'static str {
        match self {
            Family::Singles => "singles",
            Family::Intersections => "intersections",
            Family::Subsets => "subsets",
            Family::BasicFish => "basic_fish",
            Family::FinnedFish => "finned_fish",
            Family::SingleDigit => "single_digit",
            Family::Coloring => "coloring",
            Family::Uniqueness => "uniqueness",
            Family::Chains => "chains",
            Family::Wings => "wings",
            Family::Als => "als",
            Family::Miscellaneous => "miscellaneous",
            Family::Forcing => "forcing",
            Family::BruteForce => "brute_force",
        }
    }

    /// The family's position in [`Family::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl Technique {
    /// The technique's family.
    pub fn family(self) -> Family {
        use Technique as T;
        match self {
            T::FullHouse | T::NakedSingle | T::HiddenSingle => Family::Singles,
            T::LockedPair
            | T::LockedTriple
            | T::LockedCandidatesPointing
            | T::LockedCandidatesClaiming => Family::Intersections,
            T::NakedPair
            | T::NakedTriple
            | T::HiddenPair
            | T::HiddenTriple
            | T::NakedQuad
            | T::HiddenQuad => Family::Subsets,
            T::XWing | T::Swordfish | T::Jellyfish => Family::BasicFish,
            T::FinnedXWing
            | T::SashimiXWing
            | T::FinnedSwordfish
            | T::SashimiSwordfish
            | T::FinnedJellyfish
            | T::SashimiJellyfish => Family::FinnedFish,
            T::Skyscraper | T::TwoStringKite | T::TurbotFish | T::EmptyRectangle => {
                Family::SingleDigit
            }
            T::SimpleColors | T::MultiColors => Family::Coloring,
            T::BugPlusOne
            | T::UniqueRectangle1
            | T::UniqueRectangle2
            | T::UniqueRectangle3
            | T::UniqueRectangle4
            | T::HiddenRectangle => Family::Uniqueness,
            T::RemotePair | T::XChain | T::XyChain | T::NiceLoop => Family::Chains,
            T::WWing | T::XyWing | T::XyzWing => Family::Wings,
            T::AlsXz | T::AlsXyWing => Family::Als,
            T::SueDeCoq => Family::Miscellaneous,
            T::ForcingChain | T::ForcingNet => Family::Forcing,
            T::BruteForce => Family::BruteForce,
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_rule_follows_the_score() {
        assert_eq!(Level::of(Level::Easy, 800), Level::Easy);
        assert_eq!(Level::of(Level::Easy, 801), Level::Medium);
        assert_eq!(Level::of(Level::Easy, 1001), Level::Hard);
        assert_eq!(Level::of(Level::Hard, 1700), Level::Unfair);
        assert_eq!(Level::of(Level::Medium, 1801), Level::Extreme);
        assert_eq!(Level::of(Level::Extreme, 0), Level::Extreme);
    }

    #[test]
    fn keys_are_unique_and_found_back() {
        for &t in LADDER {
            assert_eq!(Technique::from_key(t.key()), Some(t));
            assert_eq!(LADDER[t.index()], t);
        }
        assert_eq!(Technique::from_key("nope"), None);
    }

    #[test]
    fn every_family_has_a_technique_and_unique_keys() {
        for family in Family::ALL {
            assert_eq!(Family::ALL[family.index()], family);
            assert!(LADDER.iter().any(|t| t.family() == family), "{family:?}");
        }
        let mut keys: Vec<&str> = Family::ALL.iter().map(|f| f.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), Family::ALL.len());
        assert_eq!(Technique::RemotePair.family(), Family::Chains);
        assert_eq!(Technique::LockedPair.family(), Family::Intersections);
    }

    #[test]
    fn ladder_is_in_hodoku_order_by_level_of_the_cheap_ones() {
        assert_eq!(LADDER[0], Technique::FullHouse);
        assert_eq!(*LADDER.last().unwrap(), Technique::BruteForce);
        assert_eq!(Technique::HiddenSingle.score(), 14);
        assert_eq!(Technique::ForcingNet.level(), Level::Extreme);
    }
}
