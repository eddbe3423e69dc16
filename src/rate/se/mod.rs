//! Sudoku Explainer's rating (ER, EP, ED), following SE 1.2.1.3's rules: its techniques, their
//! difficulties, and which step it takes next.
//!
//! # The procedure
//! The candidates are the digits each empty cell does not see. Then, until every cell is
//! filled, SE's producers are asked in SE's fixed order (singles, direct intersections and
//! hidden sets, naked singles, intersections, subsets, fish, wings, unique loops, BUG, aligned
//! pair exclusion, bidirectional cycles and forcing X/Y chains, aligned triplet exclusion,
//! Nishio, multiple and dynamic forcing chains, dynamic forcing chains (+)) and **the first step the first producer finds** is applied,
//! each producer searching in SE's own order: which step is taken decides the rest of the path,
//! so the orders are SE's, quirks included (the direct techniques place their digit without
//! applying their eliminations).
//!
//! - **ER** is the highest difficulty of the steps taken.
//! - **ED** is the difficulty of the first step.
//! - **EP** is the highest difficulty up to and including the first step that places a digit.
//!
//! Difficulties are SE's `double`s computed in SE's expression order (so ties sort as in SE)
//! and written as tenths rounded as SE writes them ([`tenths`]).
//!
//! The chaining producers compute all their hints and apply the first of SE's sort (by
//! difficulty, then chain complexity, then kind); their difficulty adds SE's length increment
//! to a base (`chains.rs`).
//!
//! # What is not built yet
//! SE's nested forcing chains (dynamic chains deducing with forcing chains, multiple and
//! dynamic ones themselves, 9.5 and up) come last. When no technique of this module finds a
//! step, SE would take one of those (difficulty 9.5 or more, or 20.0 when none applies): the
//! rating stops there, [`SeRating::er`] is `None` and [`SeRating::er_at_least`] says how far it got.
//! ED and EP are still exact when the first step (the first placement) came before.
//!
//! # Safety net
//! With a solution given (and always in debug builds), every placement and elimination is
//! checked against it; a wrong one ends the rating with [`SeError::WrongStep`].
//!
//! Only the standard layout is rated (SE knows 3x3 boxes only). Nothing here does I/O.

mod basic;
mod chains;
mod explain;
mod geometry;
mod technique;
mod unique;
mod wings;

#[cfg(test)]
mod tests;

pub use explain::explain;
pub use technique::SeTechnique;

use self::geometry::Geometry;
use super::board::{Board, NoEvents};
use super::step::Candidate;
use crate::grid::{Grid, cell_name};
use crate::layout::{Conflict, Layout};

/// The smallest difficulty of the techniques SE tries after those built here (its nested
/// forcing chains, from "Dynamic Forcing Chains (+ Forcing Chains)").
pub const UNBUILT_FLOOR: f64 = 9.5;

/// A difficulty as SE writes it, in tenths: `(int)((d + 0.05) * 10)`.
pub fn tenths(d: f64) -> u32 {
    ((d + 0.05) * 10.0) as u32
}

/// One step of SE's path.
#[derive(Debug, Clone, PartialEq)]
pub struct SeStep {
    /// The technique.
    pub technique: SeTechnique,
    /// SE's difficulty of this step (a loop's length, a set's size add to the base).
    pub difficulty: f64,
    /// The digit placed, if the step places one.
    pub placement: Option<Candidate>,
    /// The candidates removed (a direct technique removes none: SE applies only its
    /// placement).
    pub eliminations: Vec<Candidate>,
}

impl SeStep {
    fn placing(technique: SeTechnique, cell: usize, d: usize) -> SeStep {
        SeStep {
            technique,
            difficulty: technique.base_difficulty(),
            placement: Some(Candidate::new(cell, d as u8 + 1)),
            eliminations: Vec::new(),
        }
    }

    fn removing(technique: SeTechnique, difficulty: f64, eliminations: Vec<Candidate>) -> SeStep {
        SeStep {
            technique,
            difficulty,
            placement: None,
            eliminations,
        }
    }
}

impl std::fmt::Display for SeStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({:.1})", self.technique, self.difficulty)?;
        if let Some(p) = self.placement {
            write!(f, ": {} = {}", cell_name(p.cell as usize), p.digit)?;
        }
        if !self.eliminations.is_empty() {
            let list: Vec<String> = self
                .eliminations
                .iter()
                .map(|e| format!("{}<>{}", cell_name(e.cell as usize), e.digit))
                .collect();
            write!(f, ": {}", list.join(", "))?;
        }
        Ok(())
    }
}

/// The SE rating of one puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct SeRating {
    /// ER: the highest difficulty of the path; `None` when the path needs a technique not
    /// built yet.
    pub er: Option<f64>,
    /// EP: the highest difficulty up to the first placement (`None` when unknown).
    pub ep: Option<f64>,
    /// ED: the first step's difficulty (`None` when unknown).
    pub ed: Option<f64>,
    /// A lower bound of ER: the highest difficulty so far, and at least [`UNBUILT_FLOOR`] when
    /// the rating stopped.
    pub er_at_least: f64,
    /// The technique of the first step of the highest difficulty taken.
    pub hardest: Option<SeTechnique>,
    /// How many steps were taken.
    pub steps: u32,
    /// Every step, when asked for.
    pub path: Vec<SeStep>,
}

impl SeRating {
    /// Whether the whole path was found (ER, EP and ED are all known).
    pub fn is_complete(&self) -> bool {
        self.er.is_some()
    }
}

/// Why a puzzle got no SE rating.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeError {
    /// SE rates the standard layout only.
    #[error("Sudoku Explainer rates standard 3x3-box puzzles only")]
    NotStandard,
    /// Two givens conflict.
    #[error(transparent)]
    Conflict(#[from] Conflict),
    /// The puzzle has no solution.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// The safety net caught a step placing a wrong digit or removing a true one: a bug.
    #[error("{technique} is wrong at {candidate}: {step}")]
    WrongStep {
        /// The technique at fault.
        technique: SeTechnique,
        /// The wrong placement or the true digit removed.
        candidate: Candidate,
        /// The whole step, in words.
        step: String,
    },
    /// A step changed nothing (a bug: the loop would not end).
    #[error("{technique} made no progress: {step}")]
    NoProgress {
        /// The technique at fault.
        technique: SeTechnique,
        /// The step, in words.
        step: String,
    },
}

/// The SE rater: the geometry and the subset tables, reused from puzzle to puzzle.
#[derive(Debug, Clone)]
pub struct SeRater {
    geo: Geometry,
    /// The chaining searches' reusable memory.
    chains: chains::Scratch,
}

impl Default for SeRater {
    fn default() -> Self {
        SeRater::new()
    }
}

impl SeRater {
    /// A rater of standard puzzles.
    pub fn new() -> SeRater {
        SeRater {
            geo: Geometry::new(),
            chains: chains::Scratch::default(),
        }
    }

    /// Rates `grid` (`solution`, when known, checks every step; `record` keeps the path).
    pub fn rate(
        &mut self,
        grid: &Grid,
        layout: &Layout,
        solution: Option<&Grid>,
        record: bool,
    ) -> Result<SeRating, SeError> {
        let mut path = Vec::new();
        let mut rating = self.rate_with(grid, layout, solution, |step, _| {
            if record {
                path.push(step.clone());
            }
        })?;
        rating.path = path;
        Ok(rating)
    }

    /// Rates `grid` as [`SeRater::rate`] does, giving `on_step` every step with the board it
    /// is taken on (before it is applied); the rating's path is left empty.
    pub fn rate_with(
        &mut self,
        grid: &Grid,
        layout: &Layout,
        solution: Option<&Grid>,
        on_step: impl FnMut(&SeStep, &Board),
    ) -> Result<SeRating, SeError> {
        let rating = self.run(grid, layout, solution, None, on_step)?;
        Ok(rating.expect("no ceiling, no giving up"))
    }

    /// Rates `grid` as [`SeRater::rate`] does (no path kept), but gives up (`Ok(None)`) as
    /// soon as a step's difficulty, in tenths as SE writes it, is above `max_er`, or the path
    /// stops before a technique of [`UNBUILT_FLOOR`] above it. A rating returned is the full
    /// one.
    pub fn rate_within(
        &mut self,
        grid: &Grid,
        layout: &Layout,
        solution: Option<&Grid>,
        max_er: u32,
    ) -> Result<Option<SeRating>, SeError> {
        self.run(grid, layout, solution, Some(max_er), |_, _| {})
    }

    /// The path walked to the end, or until a step is above `ceiling` (`Ok(None)`).
    fn run(
        &mut self,
        grid: &Grid,
        layout: &Layout,
        solution: Option<&Grid>,
        ceiling: Option<u32>,
        mut on_step: impl FnMut(&SeStep, &Board),
    ) -> Result<Option<SeRating>, SeError> {
        if !layout.is_standard() {
            return Err(SeError::NotStandard);
        }
        layout.check_givens(grid)?;
        let houses = &self.geo.houses;
        let mut board = Board::new(grid, houses, &mut NoEvents);
        let mut solution = solution.copied();
        if solution.is_none() && cfg!(debug_assertions) {
            solution = Some(super::brute::solve(&board, houses).ok_or(SeError::NoSolution)?);
        }
        let mut rating = SeRating {
            er: None,
            ep: None,
            ed: None,
            er_at_least: 0.0,
            hardest: None,
            steps: 0,
            path: Vec::new(),
        };
        let mut max = f64::NEG_INFINITY;
        while board.unsolved != 0 {
            let Some(step) = next_step(&self.geo, &mut self.chains, solution.as_ref(), &board)
            else {
                rating.er_at_least = max.max(UNBUILT_FLOOR);
                if ceiling.is_some_and(|c| tenths(rating.er_at_least) > c) {
                    return Ok(None);
                }
                return Ok(Some(rating));
            };
            if ceiling.is_some_and(|c| tenths(step.difficulty) > c) {
                return Ok(None);
            }
            if let Some(s) = &solution {
                check_step(&step, s)?;
            }
            on_step(&step, &board);
            if !apply(&mut board, houses, &step) {
                return Err(SeError::NoProgress {
                    technique: step.technique,
                    step: step.to_string(),
                });
            }
            if step.difficulty > max {
                max = step.difficulty;
                rating.hardest = Some(step.technique);
            }
            if rating.ep.is_none() {
                if rating.ed.is_none() {
                    rating.ed = Some(max);
                }
                if step.placement.is_some() {
                    rating.ep = Some(max);
                }
            }
            rating.steps += 1;
        }
        if rating.steps == 0 {
            // A full grid: SE's loop never runs (it would print its starting values).
            max = 0.0;
            rating.ed = Some(0.0);
            rating.ep = Some(0.0);
        }
        rating.er = Some(max);
        rating.er_at_least = max;
        if solution.is_none() && layout.check_givens(&board.grid()).is_err() {
            return Err(SeError::NoSolution);
        }
        Ok(Some(rating))
    }
}

/// The first step of the first of SE's producers (those built here) that finds one.
fn next_step(
    g: &Geometry,
    scratch: &mut chains::Scratch,
    solution: Option<&Grid>,
    board: &Board,
) -> Option<SeStep> {
    basic::hidden_single(board, g)
        .or_else(|| basic::locking(board, g, true))
        .or_else(|| basic::hidden_set(board, g, 2, true))
        .or_else(|| basic::naked_single(board))
        .or_else(|| basic::hidden_set(board, g, 3, true))
        .or_else(|| basic::locking(board, g, false))
        .or_else(|| basic::naked_set(board, g, 2))
        .or_else(|| basic::fish(board, g, 2))
        .or_else(|| basic::hidden_set(board, g, 2, false))
        .or_else(|| basic::naked_set(board, g, 3))
        .or_else(|| basic::fish(board, g, 3))
        .or_else(|| basic::hidden_set(board, g, 3, false))
        .or_else(|| wings::xy_wing(board, g, false))
        .or_else(|| wings::xy_wing(board, g, true))
        .or_else(|| unique::unique_loops(board, g))
        .or_else(|| basic::naked_set(board, g, 4))
        .or_else(|| basic::fish(board, g, 4))
        .or_else(|| basic::hidden_set(board, g, 4, false))
        .or_else(|| unique::bug(board, g))
        .or_else(|| wings::aligned_pair_exclusion(board, g))
        .or_else(|| chains::cycles_and_forcing_chains(board, g, solution, scratch))
        .or_else(|| wings::aligned_triplet_exclusion(board, g))
        .or_else(|| chains::forcing_chains(board, g, chains::Mode::Nishio, solution, scratch))
        .or_else(|| chains::forcing_chains(board, g, chains::Mode::Multiple, solution, scratch))
        .or_else(|| chains::forcing_chains(board, g, chains::Mode::Dynamic, solution, scratch))
        .or_else(|| chains::forcing_chains(board, g, chains::Mode::DynamicPlus, solution, scratch))
}

/// Applies a step: its eliminations, then its placement; whether the board changed.
fn apply(board: &mut Board, houses: &super::Houses, step: &SeStep) -> bool {
    let mut changed = false;
    for e in &step.eliminations {
        let (cell, d) = (e.cell as usize, e.digit as usize - 1);
        if board.has(cell, d) {
            board.remove(houses, cell, d, &mut NoEvents);
            changed = true;
        }
    }
    if let Some(p) = step.placement {
        let (cell, d) = (p.cell as usize, p.digit as usize - 1);
        if board.value[cell] == 0 {
            board.place(houses, cell, d, &mut NoEvents);
            changed = true;
        }
    }
    changed
}

/// The safety net: a placement must be the solution's digit, an elimination must not be.
fn check_step(step: &SeStep, solution: &Grid) -> Result<(), SeError> {
    let wrong = step
        .placement
        .filter(|p| solution.get(p.cell as usize) != p.digit)
        .or_else(|| {
            step.eliminations
                .iter()
                .find(|e| solution.get(e.cell as usize) == e.digit)
                .copied()
        });
    match wrong {
        Some(candidate) => Err(SeError::WrongStep {
            technique: step.technique,
            candidate,
            step: step.to_string(),
        }),
        None => Ok(()),
    }
}
