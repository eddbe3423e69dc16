//! Sudoku Explainer's techniques as this rater knows them: each one's name (SE's own) and its
//! base difficulty.

use std::fmt;

/// A technique of Sudoku Explainer 1.2.1.3's rating, in SE's order of preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SeTechnique {
    /// The last empty cell of a block, row or column (SE: "Hidden Single", 1.0).
    FullHouse,
    /// A digit with one place left in a block (1.2).
    HiddenSingleBlock,
    /// A digit with one place left in a row or column (1.5).
    HiddenSingleLine,
    /// A pointing whose eliminations leave a hidden single in another block (1.7).
    DirectPointing,
    /// A claiming whose eliminations leave a hidden single in another row or column (1.9).
    DirectClaiming,
    /// A hidden pair whose eliminations leave a hidden single in its region (2.0).
    DirectHiddenPair,
    /// A cell with one candidate left (2.3).
    NakedSingle,
    /// A hidden triplet whose eliminations leave a hidden single in its region (2.5).
    DirectHiddenTriplet,
    /// A digit of a block confined to one row or column (2.6).
    Pointing,
    /// A digit of a row or column confined to one block (2.8).
    Claiming,
    /// Two cells of a region with the same two candidates (3.0).
    NakedPair,
    /// A digit confined to two cross lines in two lines (3.2).
    XWing,
    /// Two digits confined to the same two cells of a region (3.4).
    HiddenPair,
    /// Three cells of a region with three candidates between them (3.6).
    NakedTriplet,
    /// The three-line fish (3.8).
    Swordfish,
    /// Three digits confined to the same three cells of a region (4.0).
    HiddenTriplet,
    /// Three bivalue cells xy, xz, yz: z leaves the cells seeing xz and yz (4.2).
    XyWing,
    /// An xyz cell with two bivalue wings: z leaves the cells seeing all three (4.4).
    XyzWing,
    /// A unique rectangle or loop, types 1 to 4 (4.5 and up with the loop's length).
    UniqueLoop,
    /// Four cells of a region with four candidates between them (5.0).
    NakedQuad,
    /// The four-line fish (5.2).
    Jellyfish,
    /// Four digits confined to the same four cells of a region (5.4).
    HiddenQuad,
    /// The bivalue universal grave, types 1 to 4 (5.6 to 6.0).
    Bug,
    /// Aligned pair exclusion (6.2).
    AlignedPairExclusion,
    /// A cycle of X-links (strong and weak links of one digit) (6.5 and up with its length).
    BidirectionalXCycle,
    /// A cycle of Y-links (through bivalue cells) (6.5 and up).
    BidirectionalYCycle,
    /// A forcing chain of X-links: a candidate implying its own negation (6.6 and up).
    ForcingXChain,
    /// A cycle mixing X- and Y-links (7.0 and up).
    BidirectionalCycle,
    /// A forcing chain mixing X- and Y-links (7.0 and up).
    ForcingChain,
    /// Aligned triplet exclusion (7.5).
    AlignedTripletExclusion,
    /// A Nishio forcing chain: a candidate whose dynamic X-chains contradict (7.5 and up).
    NishioForcingChain,
    /// Every candidate of a cell implying the same (8.0 and up).
    CellForcingChain,
    /// Every place of a digit in a region implying the same (8.0 and up).
    RegionForcingChain,
    /// A candidate on and off implying the same, dynamically (8.5 and up).
    DynamicDoubleForcingChain,
    /// A candidate implying a contradiction, dynamically (8.5 and up).
    DynamicContradictionForcingChain,
    /// Cell forcing chains, dynamic (8.5 and up).
    DynamicCellForcingChain,
    /// Region forcing chains, dynamic (8.5 and up).
    DynamicRegionForcingChain,
    /// Dynamic forcing chains also deducing with intersections, hidden and naked pairs and
    /// X-Wings: double, contradiction, cell and region ones (9.0 and up).
    DynamicForcingChainPlus,
}

impl SeTechnique {
    /// How many techniques there are.
    pub const COUNT: usize = 38;

    /// Every technique, in SE's order of preference.
    pub const ALL: [SeTechnique; SeTechnique::COUNT] = [
        SeTechnique::FullHouse,
        SeTechnique::HiddenSingleBlock,
        SeTechnique::HiddenSingleLine,
        SeTechnique::DirectPointing,
        SeTechnique::DirectClaiming,
        SeTechnique::DirectHiddenPair,
        SeTechnique::NakedSingle,
        SeTechnique::DirectHiddenTriplet,
        SeTechnique::Pointing,
        SeTechnique::Claiming,
        SeTechnique::NakedPair,
        SeTechnique::XWing,
        SeTechnique::HiddenPair,
        SeTechnique::NakedTriplet,
        SeTechnique::Swordfish,
        SeTechnique::HiddenTriplet,
        SeTechnique::XyWing,
        SeTechnique::XyzWing,
        SeTechnique::UniqueLoop,
        SeTechnique::NakedQuad,
        SeTechnique::Jellyfish,
        SeTechnique::HiddenQuad,
        SeTechnique::Bug,
        SeTechnique::AlignedPairExclusion,
        SeTechnique::BidirectionalXCycle,
        SeTechnique::BidirectionalYCycle,
        SeTechnique::ForcingXChain,
        SeTechnique::BidirectionalCycle,
        SeTechnique::ForcingChain,
        SeTechnique::AlignedTripletExclusion,
        SeTechnique::NishioForcingChain,
        SeTechnique::CellForcingChain,
        SeTechnique::RegionForcingChain,
        SeTechnique::DynamicDoubleForcingChain,
        SeTechnique::DynamicContradictionForcingChain,
        SeTechnique::DynamicCellForcingChain,
        SeTechnique::DynamicRegionForcingChain,
        SeTechnique::DynamicForcingChainPlus,
    ];

    /// The position in [`SeTechnique::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name written in outputs.
    pub fn name(self) -> &'static str {
        use SeTechnique as T;
        match self {
            T::FullHouse => "Full House",
            T::HiddenSingleBlock => "Hidden Single (block)",
            T::HiddenSingleLine => "Hidden Single (line)",
            T::DirectPointing => "Direct Pointing",
            T::DirectClaiming => "Direct Claiming",
            T::DirectHiddenPair => "Direct Hidden Pair",
            T::NakedSingle => "Naked Single",
            T::DirectHiddenTriplet => "Direct Hidden Triplet",
            T::Pointing => "Pointing",
            T::Claiming => "Claiming",
            T::NakedPair => "Naked Pair",
            T::XWing => "X-Wing",
            T::HiddenPair => "Hidden Pair",
            T::NakedTriplet => "Naked Triplet",
            T::Swordfish => "Swordfish",
            T::HiddenTriplet => "Hidden Triplet",
            T::XyWing => "XY-Wing",
            T::XyzWing => "XYZ-Wing",
            T::UniqueLoop => "Unique Rectangle/Loop",
            T::NakedQuad => "Naked Quad",
            T::Jellyfish => "Jellyfish",
            T::HiddenQuad => "Hidden Quad",
            T::Bug => "Bivalue Universal Grave",
            T::AlignedPairExclusion => "Aligned Pair Exclusion",
            T::BidirectionalXCycle => "Bidirectional X-Cycle",
            T::BidirectionalYCycle => "Bidirectional Y-Cycle",
            T::ForcingXChain => "Forcing X-Chain",
            T::BidirectionalCycle => "Bidirectional Cycle",
            T::ForcingChain => "Forcing Chain",
            T::AlignedTripletExclusion => "Aligned Triplet Exclusion",
            T::NishioForcingChain => "Nishio Forcing Chains",
            T::CellForcingChain => "Cell Forcing Chains",
            T::RegionForcingChain => "Region Forcing Chains",
            T::DynamicDoubleForcingChain => "Dynamic Double Forcing Chains",
            T::DynamicContradictionForcingChain => "Dynamic Contradiction Forcing Chains",
            T::DynamicCellForcingChain => "Dynamic Cell Forcing Chains",
            T::DynamicRegionForcingChain => "Dynamic Region Forcing Chains",
            T::DynamicForcingChainPlus => "Dynamic Forcing Chains (+)",
        }
    }

    /// The technique named `name` ([`SeTechnique::name`]).
    pub fn from_name(name: &str) -> Option<SeTechnique> {
        SeTechnique::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The difficulty of a plain step of this technique; unique loops, BUGs and chains (their
    /// length) add to it
    /// (see [`super::SeStep::difficulty`]).
    pub fn base_difficulty(self) -> f64 {
        use SeTechnique as T;
        match self {
            T::FullHouse => 1.0,
            T::HiddenSingleBlock => 1.2,
            T::HiddenSingleLine => 1.5,
            T::DirectPointing => 1.7,
            T::DirectClaiming => 1.9,
            T::DirectHiddenPair => 2.0,
            T::NakedSingle => 2.3,
            T::DirectHiddenTriplet => 2.5,
            T::Pointing => 2.6,
            T::Claiming => 2.8,
            T::NakedPair => 3.0,
            T::XWing => 3.2,
            T::HiddenPair => 3.4,
            T::NakedTriplet => 3.6,
            T::Swordfish => 3.8,
            T::HiddenTriplet => 4.0,
            T::XyWing => 4.2,
            T::XyzWing => 4.4,
            T::UniqueLoop => 4.5,
            T::NakedQuad => 5.0,
            T::Jellyfish => 5.2,
            T::HiddenQuad => 5.4,
            T::Bug => 5.6,
            T::AlignedPairExclusion => 6.2,
            T::BidirectionalXCycle | T::BidirectionalYCycle => 6.5,
            T::ForcingXChain => 6.6,
            T::BidirectionalCycle | T::ForcingChain => 7.0,
            T::AlignedTripletExclusion | T::NishioForcingChain => 7.5,
            T::CellForcingChain | T::RegionForcingChain => 8.0,
            T::DynamicDoubleForcingChain
            | T::DynamicContradictionForcingChain
            | T::DynamicCellForcingChain
            | T::DynamicRegionForcingChain => 8.5,
            T::DynamicForcingChainPlus => 9.0,
        }
    }
}

impl fmt::Display for SeTechnique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
