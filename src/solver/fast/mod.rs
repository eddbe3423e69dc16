//! The `fast` engine for the standard layout: per-digit band bitboards, singles and locked
//! candidates propagated to a fixpoint, a guess on a cell with fewest candidates.
//!
//! # Bit layout
//! The grid is cut into three bands of three rows. For every digit `d` (0-based) and band `b`
//! one `u32` holds the 27 cells of that band where `d` may still go:
//!
//! ```text
//!  bit:  26 ........ 18 | 17 ......... 9 | 8 .......... 0
//!        row 2 of band  | row 1 of band  | row 0 of band     (each row: column 8 .. column 0)
//!  cand[b * 9 + d]      cell index = b * 27 + bit
//! ```
//!
//! Inside one band, a digit must sit exactly once in each of the three rows and once in each of
//! the three boxes: its positions form one of the six row-to-box permutations. For each row we
//! look up in which boxes the digit can still be (3 bits a row, 9 bits a band), and one table
//! lookup turns those 9 bits into the cells that belong to at least one permutation still
//! possible. That single step performs box/row locked candidates (pointing and claiming) and
//! hidden singles in boxes; a row left with one cell is a hidden single in that row.
//!
//! # Propagation order, and how placements are counted
//! Before the root call propagates, the board the givens leave is checked for an unsolved cell
//! with no candidate and for a digit with no place left in some column: either is a
//! contradiction of the root, found with nothing placed (most random givens with no solution
//! end here, and count no singles).
//!
//! At each call of the search procedure:
//! 1. every digit-band whose candidates changed is updated as above until none changes; each
//!    row left with one unsolved cell places it (a **hidden single**, in that row). Updates
//!    run in sweeps: each sweep updates, in index order, the digit-bands that lost a cell since
//!    their last update (a mask kept as cells are removed). The hidden singles a sweep finds
//!    are counted as they are found and placed together when the sweep ends;
//! 2. when that is quiet, every unsolved cell with one candidate left is placed (a **naked
//!    single**), and propagation returns to step 1;
//! 3. when both are quiet, every digit with one cell left in a column places it (a **hidden
//!    single**, in that column), and propagation returns to step 1.
//!
//! With AVX-512, a sweep of many stale digit-bands (the root's first sweep has all 27) is done
//! in vectors, nine digit lanes a band, the table lookups computed with bit logic: the same
//! updates in the same order (a band's update changes only its digits' lanes in the other
//! bands), and the same placements and counts, checked against the loop by a test. The board
//! the givens leave is built in vectors too (nine digit lanes a band, the rows, boxes and
//! columns holding givens found by vector tests instead of looked up), checked against the
//! loop by a test of its own.
//!
//! A cell that two rules could place is counted under the rule that placed it first in this
//! order. A contradiction is a digit-band with no permutation left (which covers a row or a box
//! where a digit has no place), two digits found for one cell in a sweep, a digit that lost a
//! cell found for it, a cell with no candidate, or a column where a digit has no place.
//!
//! Propagation only removes candidates, by rules that remove at least as much from a board with
//! fewer candidates, so a board that propagation leaves quiet does not depend on the order of
//! the steps: the branch points, and so `recursions`, `max_depth`, `guesses` and `backtracks`,
//! are those of any other order. The singles counted on a path that ends in a contradiction do
//! depend on it (how much is placed before the contradiction shows).
//!
//! # Branching
//! When propagation is quiet, the search branches on a cell with the fewest candidates (two,
//! nearly always): among those, the one with the most unsolved cells in its row, column and
//! box, the first in reading order on a tie. Each candidate, in increasing order, is a guess
//! that enters the search procedure once more, on a copy of the board (copying is cheaper than
//! undoing); the last one reuses the board.
//!
//! # Memory access
//! Candidates are written one lane at a time, and a vector load of lanes still in the store
//! buffer cannot be forwarded from it: it waits until the stores reach the cache (about 40
//! cycles measured here). So the propagation loop keeps staleness as a mask instead of
//! comparing the board with a copy, and the steps that read a band's nine lanes right after
//! they were written (the candidate counts, a cell's candidates) use scalar volatile loads,
//! which the compiler cannot merge into vectors. Placing a sweep's hidden singles reads the
//! lanes plainly (they were written earlier in the sweep, and that is measured faster) and, with
//! AVX2, a band's first eight lanes as one vector, stored back unmasked: a plain store forwards
//! to the single-lane reads that follow, where a masked one measured 3% slower.

//!
//! # Files
//! - [`tables`]: the constant tables and bit helpers;
//! - [`isa`]: the instruction-set instances of a few primitive steps, as token types that only
//!   CPU-feature detection can make, with the engine's only unsafe code besides the dispatch;
//! - [`board`]: the board, placing digits, propagation and the choice of the branch cell;
//! - [`search`](mod@search): the recursive search procedure, compiled once per instruction set;
//! - here: the engine's entry, and the one dispatch that enters an instance with its token.

use self::isa::Portable;
#[cfg(target_arch = "x86_64")]
use self::isa::{Avx2, Avx512, PortableV2};
use super::{Observer, Search};
use crate::grid::Grid;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

mod board;
mod isa;
mod search;
mod tables;

/// Two givens of one digit share a row, column or box. The engine does not search; the caller
/// names the conflict with [`crate::layout::Layout::check_givens`].
#[derive(Debug)]
pub(crate) struct GivensConflict;

/// Runs the `fast` engine on `grid`; `Err` when two of its givens conflict (nothing is then
/// searched).
///
/// The engine is compiled three times from the same source: for the target's baseline, with
/// AVX2 and BMI, and with AVX-512 (including VPOPCNTDQ), the instance chosen once per process
/// ([`choose_instruction_set`], or the widest this CPU can run). All make the same moves in the
/// same order, so outcomes and counters do not depend on the machine or the level.
pub(crate) fn search<O: Observer>(
    grid: &Grid,
    search: &mut Search<'_, O>,
) -> Result<(), GivensConflict> {
    Instance::chosen().run(grid, search)
}

/// An instruction-set level of the `fast` engine: which of its compiled instances runs.
///
/// Every level makes the same moves in the same order, so outcomes and every counter are the
/// same at every level; only the speed differs. The binary takes the level from the
/// `SUDOKU_BULK_ISA` environment variable; without it, the widest level the CPU has runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InstructionSet {
    /// Plain Rust for any target (the only level outside x86-64, e.g. on ARM); on an x86-64
    /// CPU with SSE4.2 and POPCNT (x86-64-v2) compiled for them.
    Portable,
    /// x86-64 with AVX2, BMI1, BMI2, LZCNT and POPCNT.
    Avx2,
    /// x86-64 with AVX-512 F, VL, BW, DQ and VPOPCNTDQ, besides the AVX2 level's features.
    Avx512,
}

impl InstructionSet {
    /// Every level, narrowest first.
    pub const ALL: &'static [InstructionSet] = &[
        InstructionSet::Portable,
        InstructionSet::Avx2,
        InstructionSet::Avx512,
    ];

    /// The name used in `SUDOKU_BULK_ISA` and in messages.
    pub fn name(self) -> &'static str {
        match self {
            InstructionSet::Portable => "portable",
            InstructionSet::Avx2 => "avx2",
            InstructionSet::Avx512 => "avx512",
        }
    }

    /// The CPU features the level needs, for messages.
    pub fn features(self) -> &'static str {
        match self {
            InstructionSet::Portable => "none",
            InstructionSet::Avx2 => "x86-64 with AVX2, BMI1, BMI2, LZCNT and POPCNT",
            InstructionSet::Avx512 => {
                "x86-64 with AVX-512 F, VL, BW, DQ and VPOPCNTDQ, AVX2, BMI1, BMI2, LZCNT and POPCNT"
            }
        }
    }

    /// Whether this CPU can run the level.
    pub fn available(self) -> bool {
        Instance::detect(self).is_some()
    }

    /// The levels this CPU can run, narrowest first.
    pub fn available_levels() -> Vec<InstructionSet> {
        InstructionSet::ALL
            .iter()
            .copied()
            .filter(|level| level.available())
            .collect()
    }

    /// The level the engine runs at in this process: the one chosen, or else (and from then
    /// on) the widest this CPU has.
    pub fn in_use() -> InstructionSet {
        Instance::chosen().level()
    }
}

impl fmt::Display for InstructionSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for InstructionSet {
    type Err = IsaError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        InstructionSet::ALL
            .iter()
            .copied()
            .find(|level| level.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| IsaError::Unknown(s.to_string()))
    }
}

/// Why an instruction-set level cannot be chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IsaError {
    /// Not the name of a level.
    #[error("unknown instruction-set level '{0}' (expected one of: portable, avx2, avx512)")]
    Unknown(String),
    /// The CPU lacks a feature the level needs.
    #[error(
        "this CPU cannot run the {} level (it needs {}); the levels it can run: {}",
        .level, .level.features(), names(&InstructionSet::available_levels())
    )]
    Unavailable {
        /// The level asked for.
        level: InstructionSet,
    },
    /// The engine already runs at another level in this process.
    #[error("the engine already runs at the {chosen} level in this process, not {level}")]
    AlreadyChosen {
        /// The level asked for.
        level: InstructionSet,
        /// The level in use.
        chosen: InstructionSet,
    },
}

/// `levels` named, comma-separated.
fn names(levels: &[InstructionSet]) -> String {
    levels
        .iter()
        .map(|level| level.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Makes the `fast` engine run at `level` for the rest of the process, once, before it first
/// runs (a later call may only repeat the level in use). Refused when this CPU lacks a feature
/// the level needs: the instance is entered only with the proof that it has them.
pub fn choose_instruction_set(level: InstructionSet) -> Result<(), IsaError> {
    let instance = Instance::detect(level).ok_or(IsaError::Unavailable { level })?;
    let chosen = *CHOSEN.get_or_init(|| instance);
    if chosen == instance {
        Ok(())
    } else {
        Err(IsaError::AlreadyChosen {
            level,
            chosen: chosen.level(),
        })
    }
}

/// The instance this process runs, set once: by [`choose_instruction_set`], or by the first
/// search to the widest this CPU has.
static CHOSEN: OnceLock<Instance> = OnceLock::new();

/// A compiled instance of the search, with the token of its instruction set: holding one
/// proves that this CPU can run it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Instance {
    Portable(Portable),
    #[cfg(target_arch = "x86_64")]
    PortableV2(PortableV2),
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
}

impl Instance {
    /// The instance of `level`, when this CPU can run it: the only place the tokens are made.
    fn detect(level: InstructionSet) -> Option<Instance> {
        match level {
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Portable => Some(
                PortableV2::detect().map_or(Instance::Portable(Portable), Instance::PortableV2),
            ),
            #[cfg(not(target_arch = "x86_64"))]
            InstructionSet::Portable => Some(Instance::Portable(Portable)),
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx2 => Avx2::detect().map(Instance::Avx2),
            #[cfg(target_arch = "x86_64")]
            InstructionSet::Avx512 => Avx512::detect().map(Instance::Avx512),
            #[cfg(not(target_arch = "x86_64"))]
            InstructionSet::Avx2 | InstructionSet::Avx512 => None,
        }
    }

    /// The widest instance this CPU can run.
    fn widest() -> Instance {
        InstructionSet::ALL
            .iter()
            .rev()
            .find_map(|&level| Instance::detect(level))
            .unwrap_or(Instance::Portable(Portable))
    }

    /// The instance of this process (see [`CHOSEN`]).
    fn chosen() -> Instance {
        *CHOSEN.get_or_init(Instance::widest)
    }

    /// The level of this instance.
    fn level(self) -> InstructionSet {
        match self {
            Instance::Portable(_) => InstructionSet::Portable,
            #[cfg(target_arch = "x86_64")]
            Instance::PortableV2(_) => InstructionSet::Portable,
            #[cfg(target_arch = "x86_64")]
            Instance::Avx2(_) => InstructionSet::Avx2,
            #[cfg(target_arch = "x86_64")]
            Instance::Avx512(_) => InstructionSet::Avx512,
        }
    }

    /// Runs this instance on `grid`: the one dispatch into the instances.
    fn run<O: Observer>(
        self,
        grid: &Grid,
        search: &mut Search<'_, O>,
    ) -> Result<(), GivensConflict> {
        match self {
            Instance::Portable(isa) => search::portable::run(isa, grid, search),
            // SAFETY: the instance is compiled with the features `PortableV2::detect` checked,
            // and `isa` exists only because it found them on this CPU.
            #[cfg(target_arch = "x86_64")]
            Instance::PortableV2(isa) => unsafe { search::portable_v2::run(isa, grid, search) },
            // SAFETY: the instance is compiled with the features `Avx2::detect` checked, and
            // `isa` exists only because it found them on this CPU.
            #[cfg(target_arch = "x86_64")]
            Instance::Avx2(isa) => unsafe { search::avx2::run(isa, grid, search) },
            // SAFETY: as above, with `Avx512::detect`.
            #[cfg(target_arch = "x86_64")]
            Instance::Avx512(isa) => unsafe { search::avx512::run(isa, grid, search) },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{NoTrace, SearchStats, Sink};
    use std::ops::ControlFlow;

    /// Runs one instance and returns its solutions (up to 3) and counters.
    fn run_with(grid: &Grid, instance: Instance) -> (Vec<Grid>, SearchStats) {
        let mut found = Vec::new();
        let mut on_solution = |g: &Grid| {
            found.push(*g);
            if found.len() == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let mut observer = NoTrace;
        let mut search = Search::new(u64::MAX, &mut observer, Sink::Each(&mut on_solution));
        instance.run(grid, &mut search).unwrap();
        let stats = search.stats;
        (found, stats)
    }

    /// Puzzles for the instance comparison: a few by hand, and a sample of every shipped set.
    fn sample_puzzles() -> Vec<Grid> {
        let mut puzzles: Vec<Grid> = [
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            ".................................................................................",
            "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
        ]
        .iter()
        .map(|p| p.parse().unwrap())
        .collect();
        puzzles.extend(crate::test_data::shipped_puzzles(97));
        puzzles
    }

    /// Every instance this CPU can run besides the baseline portable one (the portable code
    /// compiled for x86-64-v2 among them).
    fn simd_instances() -> Vec<Instance> {
        #[cfg(target_arch = "x86_64")]
        {
            let mut found = Vec::new();
            found.extend(isa::PortableV2::detect().map(Instance::PortableV2));
            found.extend(isa::Avx2::detect().map(Instance::Avx2));
            found.extend(isa::Avx512::detect().map(Instance::Avx512));
            found
        }
        #[cfg(not(target_arch = "x86_64"))]
        Vec::new()
    }

    #[test]
    fn every_instance_makes_the_same_moves() {
        let others = simd_instances();
        if others.is_empty() {
            eprintln!("only the portable instance can run on this CPU: nothing to compare");
        }
        for grid in sample_puzzles() {
            let portable = run_with(&grid, Instance::Portable(Portable));
            assert!(!portable.0.is_empty());
            for &instance in &others {
                assert_eq!(
                    portable,
                    run_with(&grid, instance),
                    "{instance:?} on {grid}"
                );
            }
        }
    }

    /// Random givens that never conflict, `count` of them: most have no solution, some
    /// several, so the search meets contradictions, unsolvable puzzles and several solutions.
    fn random_givens(seed: u64, count: usize) -> Grid {
        let layout = crate::layout::Layout::standard();
        let mut rng = crate::rng::SplitMix64::new(seed);
        crate::generate::random_givens(&layout, &mut rng, count)
    }

    /// Every instance this CPU can run, the portable one first.
    fn every_instance() -> Vec<Instance> {
        let mut all = vec![Instance::Portable(Portable)];
        all.extend(simd_instances());
        all
    }

    /// The counters of the default solve (limit 2) summed over a sample of every shipped set
    /// and 300 random-givens puzzles, with the statuses, for every instance this CPU can run.
    /// They change only when the search does: the tree counters (recursions, depth, guesses,
    /// backtracks) only with the branching or the propagation rules, the singles also with the
    /// order of propagation (see the module page).
    #[test]
    fn the_counters_on_a_fixed_sample_are_pinned() {
        let mut puzzles = sample_puzzles();
        puzzles.extend((0..300).map(|k| random_givens(k, 24 + (k % 5) as usize)));
        for instance in every_instance() {
            let mut total = SearchStats::default();
            // Unsolvable, solved, multiple.
            let mut statuses = [0u64; 3];
            for grid in &puzzles {
                let mut observer = NoTrace;
                let sink = Sink::Count {
                    limit: 2,
                    found: 0,
                    first: None,
                };
                let mut search = Search::new(u64::MAX, &mut observer, sink);
                instance.run(grid, &mut search).unwrap();
                let Sink::Count { found, .. } = search.sink else {
                    unreachable!("the sink given")
                };
                statuses[found as usize] += 1;
                let s = search.stats;
                total.recursions += s.recursions;
                total.max_depth += s.max_depth;
                total.guesses += s.guesses;
                total.backtracks += s.backtracks;
                total.naked_singles += s.naked_singles;
                total.hidden_singles += s.hidden_singles;
                total.givens += s.givens;
            }
            assert_eq!(statuses, [245, 1031, 161], "{instance:?}");
            let pinned = SearchStats {
                recursions: 90_827,
                max_depth: 8_265,
                guesses: 89_390,
                backtracks: 88_336,
                naked_singles: 36_007,
                // 773_013 before the hidden singles of a sweep were placed at its end; 798_455
                // before the root checked the givens' board for a dead cell or column.
                hidden_singles: 797_962,
                givens: 32_379,
            };
            assert_eq!(total, pinned, "{instance:?}");
        }
    }

    #[test]
    fn the_default_instance_is_the_widest_this_cpu_has() {
        let widest = every_instance().last().copied().unwrap();
        assert_eq!(Instance::widest(), widest);
    }

    #[test]
    fn each_level_detects_its_own_instance() {
        for &level in InstructionSet::ALL {
            let instance = Instance::detect(level);
            assert_eq!(
                instance.map(Instance::level),
                level.available().then_some(level)
            );
        }
        assert!(InstructionSet::Portable.available());
    }

    #[test]
    fn levels_are_named_as_the_variable_names_them() {
        for &level in InstructionSet::ALL {
            assert_eq!(level.name().parse::<InstructionSet>(), Ok(level));
            assert_eq!(
                level.name().to_uppercase().parse::<InstructionSet>(),
                Ok(level)
            );
        }
        assert_eq!(
            "sse4".parse::<InstructionSet>(),
            Err(IsaError::Unknown("sse4".to_string()))
        );
    }
}

#[cfg(test)]
mod conflict_tests {
    use super::*;
    use crate::layout::Layout;
    use proptest::prelude::*;

    proptest! {
        /// The engine's own conflict finding agrees with the layout's givens check.
        #[test]
        fn engine_finds_exactly_the_conflicts_the_layout_finds(
            cells in proptest::collection::vec((0usize..81, 1u8..=9), 0..30)
        ) {
            let mut grid = Grid::EMPTY;
            for (i, v) in cells {
                grid.set(i, v);
            }
            let layout_says = Layout::standard().check_givens(&grid).is_err();
            prop_assert_eq!(board::initial_board(Portable, &grid).is_err(), layout_says, "{}", grid);
        }
    }
}
