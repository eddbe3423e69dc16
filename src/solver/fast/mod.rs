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
use self::isa::{Avx2, Avx512};
use super::{Observer, Search};
use crate::grid::Grid;

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
/// The engine is compiled three times from the same source: for the x86-64 baseline, with AVX2
/// and BMI, and with AVX-512 (including VPOPCNTDQ), chosen at run time. All make the same moves
/// in the same order, so outcomes and counters do not depend on the machine.
pub(crate) fn search<O: Observer>(
    grid: &Grid,
    search: &mut Search<'_, O>,
) -> Result<(), GivensConflict> {
    Instance::fastest().run(grid, search)
}

/// A compiled instance of the search, with the token of its instruction set: holding one
/// proves that this CPU can run it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Instance {
    Portable(Portable),
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
}

impl Instance {
    /// The fastest instance this CPU can run, detected once.
    fn fastest() -> Instance {
        use std::sync::OnceLock;
        static CHOSEN: OnceLock<Instance> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            if let Some(isa) = Avx512::detect() {
                return Instance::Avx512(isa);
            } else if let Some(isa) = Avx2::detect() {
                return Instance::Avx2(isa);
            }
            Instance::Portable(Portable)
        })
    }

    /// Runs this instance on `grid`: the one dispatch into the instances.
    fn run<O: Observer>(
        self,
        grid: &Grid,
        search: &mut Search<'_, O>,
    ) -> Result<(), GivensConflict> {
        match self {
            Instance::Portable(isa) => search::portable::run(isa, grid, search),
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

    /// Every instance this CPU can run besides the portable one.
    fn simd_instances() -> Vec<Instance> {
        let mut found = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            found.extend(isa::Avx2::detect().map(Instance::Avx2));
            found.extend(isa::Avx512::detect().map(Instance::Avx512));
        }
        found
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

    /// The counters of the default solve (limit 2) summed over a sample of every shipped set
    /// and 300 random-givens puzzles, with the statuses. They change only when the search does:
    /// the tree counters (recursions, depth, guesses, backtracks) only with the branching or
    /// the propagation rules, the singles also with the order of propagation (see the module
    /// page).
    #[test]
    fn the_counters_on_a_fixed_sample_are_pinned() {
        use crate::solver::{SolveOptions, Status, solve};
        let layout = crate::layout::Layout::standard();
        let mut puzzles = sample_puzzles();
        puzzles.extend((0..300).map(|k| random_givens(k, 24 + (k % 5) as usize)));
        let mut total = SearchStats::default();
        let mut statuses = [0u64; 3];
        for grid in &puzzles {
            let outcome = solve(grid, &layout, &SolveOptions::default()).unwrap();
            let s = outcome.stats;
            total.recursions += s.recursions;
            total.max_depth += s.max_depth;
            total.guesses += s.guesses;
            total.backtracks += s.backtracks;
            total.naked_singles += s.naked_singles;
            total.hidden_singles += s.hidden_singles;
            total.givens += s.givens;
            match outcome.status {
                Status::Unsolvable => statuses[0] += 1,
                Status::Solved => statuses[1] += 1,
                _ => statuses[2] += 1,
            }
        }
        // Unsolvable, solved, multiple.
        assert_eq!(statuses, [245, 1031, 161]);
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
        assert_eq!(total, pinned);
    }

    #[test]
    fn the_fastest_instance_is_the_widest_this_cpu_has() {
        let widest = simd_instances()
            .last()
            .copied()
            .unwrap_or(Instance::Portable(Portable));
        assert_eq!(Instance::fastest(), widest);
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
