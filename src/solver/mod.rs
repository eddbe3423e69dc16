//! Solving one puzzle: the public API over every algorithm, and the counters they share.
//!
//! Every algorithm runs under the same contract: the givens check first ([`Layout::check_givens`];
//! a conflict is an error, not a search), then a search that reports each solution it finds to a
//! callback, counts its work in a [`SearchStats`], and stops at the solution limit or when its
//! recursion budget runs out. Nothing here reads files, spawns threads or looks at a clock.
//!
//! # Counters
//! The numbers in [`SearchStats`] are defined once, here, for every algorithm:
//!
//! - `recursions`: times the recursive search procedure is entered, the root call included. A
//!   puzzle finished by propagation alone has 1.
//! - `max_depth`: the deepest nesting of that procedure reached; the root call is depth 1.
//! - `guesses`: values placed at branch points, that is at a cell chosen with two or more
//!   candidates left, each value tried counting once.
//! - `backtracks`: guesses undone, because they led to a contradiction or because the search
//!   below them was exhausted. A guess still on the search path when the search stops (limit
//!   reached or budget spent) is not undone and not counted.
//! - `naked_singles`: cells placed because only one digit was left for them.
//! - `hidden_singles`: cells placed because a digit had only one cell left in a row, column or
//!   region (box). The `fast` engine places all the hidden singles one sweep over the units
//!   finds together when the sweep ends, so on a branch that fails it counts those the sweep
//!   found before the contradiction shows; a puzzle whose givens already leave a cell with no
//!   candidate or a digit with no place in a column fails before any placement and counts none.
//! - `givens`: filled cells in the puzzle.
//!
//! Each algorithm's page says how its procedure maps onto these words. All counters are plain
//! integers incremented by the search itself, so the same puzzle, algorithm, options and seed
//! give the same numbers on every machine and for every thread count.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;

use crate::grid::Grid;
use crate::layout::{Conflict, Layout, UnitName};

mod classic;
mod fast;

pub use fast::{InstructionSet, IsaError, choose_instruction_set};
mod general;
mod jigsaw;
mod logic;

/// The search algorithms a user can choose by name.
///
/// Every algorithm works with any [`Layout`]: where the text says "box", a jigsaw layout has a
/// region. Each engine's module page says exactly how its procedure maps onto the counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Algorithm {
    /// The default engine: bitboards per digit and band, singles and locked candidates
    /// propagated to a fixpoint, branching on a two-candidate cell with the most unsolved peers.
    /// On a jigsaw layout it hands over to a layout-generic bitboard engine: naked and hidden
    /// singles and locked candidates (region and line) to a fixpoint, branching the same way.
    #[default]
    Fast,
    /// Plain backtracking: cells in reading order; in each blank cell, try 1 to 9, checking the
    /// row, column and box by scanning them; recurse to the next cell; undo on failure.
    Naive,
    /// Backtracking over candidate lists: cells in reading order; for each blank cell, first
    /// list the digits its row, column and box leave possible, and try only those.
    Candidates,
    /// Like [`Algorithm::Candidates`], with each candidate list tried in an order shuffled by a
    /// generator seeded from [`SolveOptions::seed`]: reproducible, and on the empty grid a
    /// random complete grid.
    Random,
    /// Constraint propagation only: naked and hidden singles until nothing changes, never a
    /// guess. Ends [`Status::Stuck`], with the partial grid, when blanks remain.
    Logic,
}

impl Algorithm {
    /// Every algorithm, in the order they are documented.
    pub const ALL: &'static [Algorithm] = &[
        Algorithm::Fast,
        Algorithm::Naive,
        Algorithm::Candidates,
        Algorithm::Random,
        Algorithm::Logic,
    ];

    /// The name used on the command line and in output.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Fast => "fast",
            Algorithm::Naive => "naive",
            Algorithm::Candidates => "candidates",
            Algorithm::Random => "random",
            Algorithm::Logic => "logic",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An algorithm name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm '{0}' (expected one of: {names})", names = Algorithm::ALL.iter().map(|a| a.name()).collect::<Vec<_>>().join(", "))]
pub struct UnknownAlgorithm(pub String);

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::ALL
            .iter()
            .copied()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownAlgorithm(s.to_string()))
    }
}

/// How far a search may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SolveOptions {
    /// The algorithm to run.
    pub algorithm: Algorithm,
    /// Stop after this many solutions: 1 finds a solution, 2 checks uniqueness. At least 1.
    pub max_solutions: u64,
    /// The work budget: the search gives up instead of entering the procedure more often than
    /// this. `u64::MAX` is no budget.
    pub max_recursions: u64,
    /// Seed of the algorithms that draw random choices.
    pub seed: u64,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            algorithm: Algorithm::Fast,
            max_solutions: 2,
            max_recursions: u64::MAX,
            seed: 0,
        }
    }
}

/// Exact counts of the work one search did. See the [module documentation](self) for the
/// definition of each counter.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct SearchStats {
    /// Times the search procedure was entered, the root included.
    pub recursions: u64,
    /// Deepest nesting of the search procedure; the root is 1.
    pub max_depth: u64,
    /// Values placed at branch points.
    pub guesses: u64,
    /// Guesses undone.
    pub backtracks: u64,
    /// Cells placed because one digit was left for them.
    pub naked_singles: u64,
    /// Cells placed because a digit had one cell left in a unit.
    pub hidden_singles: u64,
    /// Filled cells in the puzzle.
    pub givens: u64,
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Exactly one solution, or the first one when the limit is 1.
    Solved,
    /// At least two solutions.
    Multiple,
    /// No solution, though the givens do not conflict.
    Unsolvable,
    /// The budget ran out before the search could finish.
    GaveUp,
    /// Propagation without guessing stopped with blank cells left (the `logic` algorithm).
    Stuck,
}

impl Status {
    /// The name used in output.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Multiple => "multiple",
            Status::Unsolvable => "unsolvable",
            Status::GaveUp => "gave_up",
            Status::Stuck => "stuck",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of solving one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// How the search ended.
    pub status: Status,
    /// Solutions found, at most the limit.
    pub solutions: u64,
    /// The first solution found; for [`Status::Stuck`], the partially filled grid.
    pub solution: Option<Grid>,
    /// The work the search did.
    pub stats: SearchStats,
}

/// Why a placement was made by propagation, as reported to an [`Observer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// The cell had one candidate left.
    NakedSingle,
    /// The digit had one cell left in this unit.
    HiddenSingle(UnitName),
}

/// One step of a search, for tracing. Cells are indices `0..81` in reading order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event<'a> {
    /// Propagation placed `digit` in `cell`.
    Placed {
        /// The cell.
        cell: usize,
        /// The digit.
        digit: u8,
        /// The rule that forced it.
        rule: Rule,
    },
    /// A value tried at a branch point; `depth` is the depth of the call it enters.
    Guess {
        /// The cell.
        cell: usize,
        /// The digit tried.
        digit: u8,
        /// Depth of the search call the guess leads into.
        depth: u64,
    },
    /// A guess undone.
    Backtrack {
        /// The cell.
        cell: usize,
        /// The digit that was tried.
        digit: u8,
        /// Depth of the search call the guess had led into.
        depth: u64,
    },
    /// Propagation reached a contradiction (a cell or a unit with no place left).
    Contradiction,
    /// A round of propagation ended; `board` holds every placed cell.
    Board(&'a Grid),
    /// A solution was found.
    Solution(&'a Grid),
}

/// Receives every [`Event`] of a search; used by `show --trace`.
///
/// Searches are generic over the observer, so with [`NoTrace`] every call compiles away.
pub trait Observer {
    /// Whether events are wanted at all. Searches skip building them when this is false.
    const ACTIVE: bool = true;
    /// Called for each event, in order.
    fn event(&mut self, event: &Event<'_>);
}

/// The observer that wants nothing: tracing costs nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTrace;

impl Observer for NoTrace {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn event(&mut self, _: &Event<'_>) {}
}

impl<F: FnMut(&Event<'_>)> Observer for F {
    fn event(&mut self, event: &Event<'_>) {
        self(event)
    }
}

/// Why a search stopped before exhausting its tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The solution callback asked to stop (limit reached).
    Enough,
    /// The recursion budget ran out.
    Budget,
    /// Propagation without guessing could go no further (the `logic` algorithm); the grid it
    /// had placed is kept by the sink ([`Sink::keep_partial`]), so that a stop stays one byte on
    /// every engine's hot path.
    Stuck,
}

/// Where a search's solutions go.
pub(crate) enum Sink<'a> {
    /// Count them up to `limit` and keep the first; later grids are never built.
    Count {
        limit: u64,
        found: u64,
        first: Option<Grid>,
    },
    /// Hand each one to a callback, which says whether to go on.
    Each(&'a mut dyn FnMut(&Grid) -> ControlFlow<()>),
}

/// The bookkeeping every engine shares: counters, budget and where solutions go.
///
/// Engines call [`Search::enter`] on each entry of their recursive procedure and
/// [`Search::solution`] for each complete grid; both return `Err` when the search must stop.
pub(crate) struct Search<'a, O: Observer> {
    pub stats: SearchStats,
    pub observer: &'a mut O,
    budget: u64,
    pub sink: Sink<'a>,
    pub stop: Option<Stop>,
}

impl<'a, O: Observer> Search<'a, O> {
    pub fn new(budget: u64, observer: &'a mut O, sink: Sink<'a>) -> Self {
        Search {
            stats: SearchStats::default(),
            observer,
            budget,
            sink,
            stop: None,
        }
    }

    /// Counts one entry of the search procedure at `depth` (root = 1), or refuses it when the
    /// budget is spent.
    #[inline(always)]
    pub fn enter(&mut self, depth: u64) -> Result<(), Stop> {
        if self.stats.recursions >= self.budget {
            self.stop = Some(Stop::Budget);
            return Err(Stop::Budget);
        }
        self.stats.recursions += 1;
        if depth > self.stats.max_depth {
            self.stats.max_depth = depth;
        }
        Ok(())
    }

    /// Counts a naked single: `digit`, the last candidate of `cell`, placed.
    #[inline(always)]
    pub fn naked_single(&mut self, cell: usize, digit: u8) {
        self.stats.naked_singles += 1;
        if O::ACTIVE {
            self.observer.event(&Event::Placed {
                cell,
                digit,
                rule: Rule::NakedSingle,
            });
        }
    }

    /// Counts a hidden single: `digit` placed in `cell`, its last cell in the unit `unit` names
    /// (asked only when tracing).
    #[inline(always)]
    pub fn hidden_single(&mut self, cell: usize, digit: u8, unit: impl FnOnce() -> UnitName) {
        self.stats.hidden_singles += 1;
        if O::ACTIVE {
            self.observer.event(&Event::Placed {
                cell,
                digit,
                rule: Rule::HiddenSingle(unit()),
            });
        }
    }

    /// Counts a guess: `digit` placed in `cell` at a branch point, for the call at `depth`.
    #[inline(always)]
    pub fn guess(&mut self, cell: usize, digit: u8, depth: u64) {
        self.stats.guesses += 1;
        if O::ACTIVE {
            self.observer.event(&Event::Guess { cell, digit, depth });
        }
    }

    /// Counts a backtrack: the guess of `digit` in `cell` at `depth` taken back.
    #[inline(always)]
    pub fn backtrack(&mut self, cell: usize, digit: u8, depth: u64) {
        self.stats.backtracks += 1;
        if O::ACTIVE {
            self.observer
                .event(&Event::Backtrack { cell, digit, depth });
        }
    }

    /// Reports a complete grid, built by `grid` only if somebody looks at it; `Err` when no
    /// more solutions are wanted.
    #[inline(always)]
    pub fn solution(&mut self, grid: impl FnOnce() -> Grid) -> Result<(), Stop> {
        let flow = if O::ACTIVE {
            let grid = grid();
            self.observer.event(&Event::Solution(&grid));
            self.sink.accept(|| grid)
        } else {
            self.sink.accept(grid)
        };
        flow.inspect_err(|&stop| self.stop = Some(stop))
    }
}

impl Sink<'_> {
    /// Keeps the grid a stuck search ended on, as the outcome's grid (no solution is counted).
    pub fn keep_partial(&mut self, grid: Grid) {
        if let Sink::Count { first, .. } = self {
            *first = Some(grid);
        }
    }

    #[inline(always)]
    fn accept(&mut self, grid: impl FnOnce() -> Grid) -> Result<(), Stop> {
        match self {
            Sink::Count {
                limit,
                found,
                first,
            } => {
                if *found == 0 {
                    *first = Some(grid());
                }
                *found += 1;
                if *found >= *limit {
                    Err(Stop::Enough)
                } else {
                    Ok(())
                }
            }
            Sink::Each(f) => match f(&grid()) {
                ControlFlow::Continue(()) => Ok(()),
                ControlFlow::Break(()) => Err(Stop::Enough),
            },
        }
    }
}

/// Solves `grid` under `layout` with `options`, tracing every step to `observer`.
///
/// Returns the conflict when two givens clash; otherwise the outcome of the search.
pub fn solve_traced<O: Observer>(
    grid: &Grid,
    layout: &Layout,
    options: &SolveOptions,
    observer: &mut O,
) -> Result<Outcome, Conflict> {
    let sink = Sink::Count {
        limit: options.max_solutions.max(1),
        found: 0,
        first: None,
    };
    let (stats, stop, sink) = run(grid, layout, options, observer, sink)?;
    let Sink::Count { found, first, .. } = sink else {
        unreachable!("run returns the sink it was given")
    };
    let (status, solution) = match (stop, found) {
        (Some(Stop::Budget), _) => (Status::GaveUp, first),
        (Some(Stop::Stuck), _) => (Status::Stuck, first),
        (_, 0) => (Status::Unsolvable, first),
        (_, 1) => (Status::Solved, first),
        _ => (Status::Multiple, first),
    };
    Ok(Outcome {
        status,
        solutions: found,
        solution,
        stats,
    })
}

/// Solves `grid` under `layout` with `options`.
///
/// Returns the conflict when two givens clash; otherwise the outcome of the search.
///
/// ```
/// use sudoku_bulk::{Grid, Layout, solver::{solve, SolveOptions, Status}};
/// let puzzle: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
///     .parse().unwrap();
/// let outcome = solve(&puzzle, &Layout::standard(), &SolveOptions::default()).unwrap();
/// assert_eq!(outcome.status, Status::Solved);
/// assert_eq!(outcome.solutions, 1);
/// ```
pub fn solve(grid: &Grid, layout: &Layout, options: &SolveOptions) -> Result<Outcome, Conflict> {
    solve_traced(grid, layout, options, &mut NoTrace)
}

/// Calls `f` with every solution of `grid`, in the algorithm's search order, until `f` breaks or
/// the budget in `options` runs out. `options.max_solutions` is ignored.
///
/// Returns the statistics of the search and whether it gave up.
pub fn for_each_solution(
    grid: &Grid,
    layout: &Layout,
    options: &SolveOptions,
    mut f: impl FnMut(&Grid) -> ControlFlow<()>,
) -> Result<(SearchStats, bool), Conflict> {
    let (stats, stop, _) = run(grid, layout, options, &mut NoTrace, Sink::Each(&mut f))?;
    Ok((stats, stop == Some(Stop::Budget)))
}

/// The givens check, then the chosen engine.
fn run<'a, O: Observer>(
    grid: &Grid,
    layout: &Layout,
    options: &SolveOptions,
    observer: &'a mut O,
    sink: Sink<'a>,
) -> Result<(SearchStats, Option<Stop>, Sink<'a>), Conflict> {
    let mut search = Search::new(options.max_recursions, observer, sink);
    match options.algorithm {
        // The band engine finds conflicting givens while it sets up, and counts the givens on
        // its board; the layout names a conflict.
        Algorithm::Fast if layout.is_standard() => {
            if fast::search(grid, &mut search).is_err() {
                layout.check_givens(grid)?;
                unreachable!("the fast engine and the layout disagree on conflicting givens");
            }
        }
        algorithm => {
            layout.check_givens(grid)?;
            search.stats.givens = grid.filled() as u64;
            match algorithm {
                Algorithm::Fast => jigsaw::search(grid, layout, &mut search),
                Algorithm::Naive => classic::naive(grid, layout, &mut search),
                Algorithm::Candidates => classic::candidates(grid, layout, None, &mut search),
                Algorithm::Random => {
                    let mut rng = crate::rng::SplitMix64::new(options.seed);
                    classic::candidates(grid, layout, Some(&mut rng), &mut search)
                }
                Algorithm::Logic => logic::search(grid, layout, &mut search),
            }
        }
    }
    Ok((search.stats, search.stop, search.sink))
}
