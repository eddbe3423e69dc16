//! Reproducible random puzzles with a unique solution: the library side of `generate`, and the
//! layouts, grids and puzzles of the tests, the shipped jigsaw sample and the benchmarks.
//!
//! Everything is drawn from the crate's own SplitMix64 generator (see [`crate::rng`]), so a
//! seed gives the same puzzles forever. Nothing here does I/O.
//!
//! # One puzzle
//! [`Generator::puzzle`]`(i)` draws only from its own generator, seeded with output `i` of the
//! batch seed ([`SplitMix64::output_at`]): puzzle `i` is the same whichever thread makes it and
//! whatever was made before (with neighbours, the same holds for a family: see below). It
//! makes attempts, each from a new complete grid:
//!
//! 1. a complete grid: for the boxes, [`random_standard_grid`]; for a jigsaw layout, the
//!    `random` algorithm on the empty grid ([`random_solution`], 100,000 recursions), after
//!    drawing a new layout first with [`Regions::RandomJigsaw`];
//! 2. givens removed by one pass over the cells in random order, a whole orbit of the
//!    [`Symmetry`] at a time, each removal kept only while the solution stays the only one (a
//!    blanked cell whose eight other digits are given in its units needs no search; otherwise
//!    the `fast` engine counts solutions up to two):
//!    - without a range of givens, or with `minimal`: the pass visits every orbit;
//!    - with a range `A-B` and not `minimal`: a target `T` is drawn uniformly from `A..=B`, the
//!      pass stops once at most `T` givens are left and never goes below `A`;
//! 3. the attempt is kept when the number of givens is in the range and, with `minimal`, no
//!    single given can be removed (with no symmetry the full pass already ensures it; with a
//!    symmetry it is checked given by given);
//! 4. the kept puzzle is checked once more: the `fast` engine must find exactly one solution,
//!    the grid of step 1, and the independent verifier ([`crate::verify`]) must accept it.
//!
//! # To a difficulty
//! (An ER range of Sudoku Explainer's scale is checked after HoDoKu's targets, by
//! [`crate::rate::se::SeRater::rate_within`], which gives up at a step above the range; a
//! puzzle SE accepts without a HoDoKu target gets HoDoKu's full rating for its row.)
//! With a [`Difficulty`] (HoDoKu levels, a score range, techniques the path must use), a puzzle
//! that passed step 3 is rated by [`crate::rate`] (uniqueness techniques allowed, its solution
//! as the safety net) with the target's ceiling ([`crate::rate::Rater::rate_within`]: a rating
//! sure to go above the highest level or score asked for is given up, and the chains, ALS and
//! forcing searches of harder puzzles are never run for an easier target). A puzzle that meets
//! the target is kept with its rating ([`Generated::rating`]). One that is rated but misses it
//! (too easy, or without a technique needed) starts a walk of up to
//! [`GenerateOptions::walk`] steps on the same grid: one blank cell (an orbit of the symmetry)
//! given back, one other given (orbit) removed when the solution stays unique, then a removal
//! pass over the givens again; the new puzzle is rated, kept when it meets the target, and
//! walked from when its score is at least the last one. A puzzle above the ceiling ends the
//! attempt. Every step draws from the puzzle's own generator, so the output stays a function
//! of the seed and the index.
//!
//! # Neighbours
//! With [`GenerateOptions::neighbours`] `N`, puzzles come in families of `N + 1`: family `f`
//! (puzzles `f * (N + 1)` to `f * (N + 1) + N`) draws from the generator seeded with output `f`
//! of the batch seed, and its first puzzle is made as above. Each next one is made from the
//! one before it by a move: one given (orbit) blanked; while the solution is not unique (a
//! search for a solution other than the grid), a blank cell (orbit) where such a solution
//! differs is given, at most three times; then a removal pass down to as many givens as before
//! the move at most (with `minimal`, every given that can go), and the puzzle is kept when its
//! givens are as asked, it is not already in the family, and it meets the target. After 16
//! moves in a row that keep nothing, a new grid is drawn for the family's next puzzle. The
//! puzzles of a family share their grid until then; a family cut by the end of the batch is its
//! first puzzles, the same as in a longer batch. A move costs a search or two and a rating,
//! far less than a new minimal puzzle, and neighbours of a puzzle that meets a target meet it
//! far more often than new puzzles do (measured: 48% of the unique neighbours of hard puzzles
//! are hard, against 18% of minimal puzzles).
//!
//! Two levels are made more directly (unless `minimal` is asked for):
//! - HoDoKu's easy level (`easy`): the removals of step 2 keep a
//!   grid that naked and hidden singles alone fill ([`removal::Keep::Singles`]), which is what
//!   that level allows; no search is needed. The puzzle left is then rated as above (a score
//!   above easy's 800 is possible below 24 givens). Measured on 3,000 puzzles: all easy, mean
//!   24.6 givens (the unique-solution pass leaves 24.3), at 2.3 times the puzzles a second of
//!   rating minimal puzzles, of which 42% are easy.
//! - `medium` alone: the same pass, and each puzzle it refuses (singles no longer fill it) that
//!   still has a unique solution is rated; the first rated medium ends the attempt, any other is
//!   given its orbit back and the pass goes on. Puzzles one removal past singles are medium far
//!   more often than minimal ones (20%); they keep more givens (measured: 21 to 43, mean 26.9).
//!
//! Without `minimal`, a full pass with a symmetry leaves a puzzle from which no *orbit* can be
//! removed, but often a single given could go (breaking the symmetry). Strictly minimal
//! symmetric puzzles are rare: measured once over a few hundred random grids, the pass gave one
//! about 2% of the time with rot180 and mirror, 6% with diagonal, and 4 times in 5,000 with
//! rot90. So `minimal` with a symmetry takes tens of attempts per puzzle (rot90: about 1,250).
//!
//! Options that no puzzle can meet are refused before any attempt ([`GenerateOptions::check`]:
//! fewer than 17 givens on the boxes, a count that a rot90 pattern cannot have). Options that
//! are only unlikely (`--givens 17-17 --symmetry rot90`) end after
//! [`GenerateOptions::max_attempts`] attempts with [`GenerateError::AttemptsExhausted`]; never
//! an endless loop.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::grid::Grid;
use crate::layout::Layout;
use crate::rate::se::{SeRater, tenths};
use crate::rate::{RateOptions, Rater, Rating};
use crate::rng::SplitMix64;
use crate::solver::{SolveOptions, Status, solve};

mod difficulty;
mod grids;
mod options;
mod removal;
mod unavoidable;

pub use difficulty::{
    Accepted, Difficulty, DifficultyError, ErRange, LevelRange, ScoreRange, SeAccepted,
    parse_techniques,
};
pub use grids::{
    random_givens, random_jigsaw, random_layout, random_solution, random_standard_grid,
};
pub use options::{
    GenerateError, GenerateOptions, GivensRange, GivensRangeError, Regions, Symmetry,
    UnknownSymmetry,
};
pub use removal::remove_clues;

/// Moves in a row that give no new puzzle meeting the target before a family's walk ends
/// and a new grid is drawn.
const NEIGHBOUR_MISSES: u32 = 16;

/// Givens added at most, one orbit at a time, to make a puzzle unique again after a move.
const MOVE_GIVES: u32 = 3;

/// Recursions the `random` algorithm may spend on one jigsaw grid before the attempt is
/// abandoned.
const JIGSAW_GRID_BUDGET: u64 = 100_000;

/// A generated puzzle, its unique solution and its layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Grid,
    /// Its one solution.
    pub solution: Grid,
    /// The regions it is played with.
    pub layout: Layout,
    /// Attempts it took (1 when the first grid gave it; 0 for a neighbour, made by moves from
    /// the puzzle before it).
    pub attempts: u32,
    /// The rating it was accepted with, when a difficulty was asked for.
    pub rating: Option<Accepted>,
}

impl Generated {
    /// Filled cells of the puzzle.
    pub fn givens(&self) -> usize {
        self.puzzle.filled()
    }
}

/// Makes the puzzles of one batch: options checked once, then any puzzle by its index.
#[derive(Debug, Clone)]
pub struct Generator {
    options: GenerateOptions,
}

impl Generator {
    /// A generator for `options`, refused when no puzzle can meet them.
    pub fn new(options: GenerateOptions) -> Result<Generator, GenerateError> {
        options.check()?;
        Ok(Generator { options })
    }

    /// The options.
    pub fn options(&self) -> &GenerateOptions {
        &self.options
    }

    /// Puzzle `index` of the batch (see the module page).
    pub fn puzzle(&self, index: u64) -> Result<Generated, GenerateError> {
        self.puzzle_unless(index, &AtomicBool::new(false))
    }

    /// How many puzzles a family holds: [`GenerateOptions::neighbours`] and the one they are
    /// made from. Puzzles `f * size .. (f + 1) * size` are family `f`.
    pub fn family_size(&self) -> u64 {
        u64::from(self.options.neighbours) + 1
    }

    /// Puzzle `index` of the batch, or [`GenerateError::Interrupted`] once `stop` is set: it is
    /// looked at before every attempt (an attempt takes milliseconds at most). In a family the
    /// puzzles before it are made too ([`Generator::family_unless`]).
    pub fn puzzle_unless(&self, index: u64, stop: &AtomicBool) -> Result<Generated, GenerateError> {
        let size = self.family_size();
        let mut family = self.family_unless(index / size, (index % size) as usize + 1, stop)?;
        Ok(family.pop().expect("a family of at least one"))
    }

    /// The first `count` puzzles (at most [`Generator::family_size`]) of family `family`, made
    /// in order from the family's own generator (see the module page): the same puzzles
    /// whichever thread makes them, and a shorter count gives the first of the same ones.
    pub fn family_unless(
        &self,
        family: u64,
        count: usize,
        stop: &AtomicBool,
    ) -> Result<Vec<Generated>, GenerateError> {
        let first = family * self.family_size();
        let count = count.min(self.family_size() as usize);
        let mut rng = SplitMix64::new(SplitMix64::output_at(self.options.seed, family));
        let mut rater = Raters::default();
        let mut members = Vec::with_capacity(count);
        while members.len() < count {
            let index = first + members.len() as u64;
            members.push(self.fresh(index, &mut rng, &mut rater, stop)?);
            self.neighbours(first, &mut members, count, &mut rng, &mut rater, stop)?;
        }
        Ok(members)
    }

    /// Puzzle `index` made from new grids, attempt after attempt.
    fn fresh(
        &self,
        index: u64,
        rng: &mut SplitMix64,
        rater: &mut Raters,
        stop: &AtomicBool,
    ) -> Result<Generated, GenerateError> {
        let options = &self.options;
        let mut grids_found = 0;
        for attempt in 1..=options.max_attempts {
            if stop.load(Ordering::Relaxed) {
                return Err(GenerateError::Interrupted { index });
            }
            let Some((layout, solution)) = self.complete_grid(rng) else {
                continue;
            };
            grids_found += 1;
            let mut thinning = removal::Thinning::new(&solution, &layout, self.keep());
            let (floor, stop_at) = match options.givens {
                Some(range) if !options.minimal => {
                    let spread = range.max() - range.min() + 1;
                    (range.min(), range.min() + rng.below(spread))
                }
                _ => (0, 0),
            };
            let climbs = self.climbs();
            if !climbs {
                thinning.pass(rng, options.symmetry, floor, stop_at);
                if !self.meets_givens(&mut thinning) {
                    continue;
                }
            }
            let (puzzle, rating) = match options.difficulty.is_set() {
                false => (thinning.puzzle(), None),
                true => {
                    let mut candidate = Candidate {
                        index,
                        solution: &solution,
                        layout: &layout,
                        rater,
                        floor,
                        stop_at,
                    };
                    let found = match climbs {
                        true => self
                            .climb(&mut candidate, &mut thinning, rng)?
                            .map(|accepted| (thinning.puzzle(), accepted)),
                        false => self.search(&mut candidate, thinning, rng, stop)?,
                    };
                    match found {
                        Some((puzzle, accepted)) => (puzzle, Some(accepted)),
                        None => continue,
                    }
                }
            };
            check(index, &puzzle, &solution, &layout)?;
            return Ok(Generated {
                puzzle,
                solution,
                layout,
                attempts: attempt,
                rating,
            });
        }
        match &options.regions {
            Regions::Layout(layout) if grids_found == 0 => Err(GenerateError::NoGridForLayout {
                index,
                layout: layout.to_line(),
            }),
            _ => Err(GenerateError::AttemptsExhausted {
                index,
                attempts: options.max_attempts,
                range: options.givens,
                symmetry: options.symmetry,
                minimal: options.minimal,
                difficulty: options.difficulty.clone(),
            }),
        }
    }

    /// Neighbours of the last of `members` added until there are `count` (see the module
    /// page): each one a given moved from the last one made, thinned again, and rated; the
    /// walk ends after [`NEIGHBOUR_MISSES`] moves in a row give nothing new.
    fn neighbours(
        &self,
        first: u64,
        members: &mut Vec<Generated>,
        count: usize,
        rng: &mut SplitMix64,
        rater: &mut Raters,
        stop: &AtomicBool,
    ) -> Result<(), GenerateError> {
        let options = &self.options;
        let base = members.last().expect("a puzzle to move givens of");
        let (layout, solution) = (base.layout.clone(), base.solution);
        let mut thinning =
            removal::Thinning::new(&solution, &layout, self.keep()).with_puzzle(&base.puzzle);
        let floor = options.givens.map_or(0, |r| r.min());
        let mut misses = 0;
        while members.len() < count && misses < NEIGHBOUR_MISSES {
            let index = first + members.len() as u64;
            if stop.load(Ordering::Relaxed) {
                return Err(GenerateError::Interrupted { index });
            }
            misses += 1;
            let Some(mut next) = self.moved(&thinning, rng) else {
                continue;
            };
            // Back to as many givens as before the move at most (all that can go when the
            // puzzles must be minimal), never below the range.
            let stop_at = match options.minimal {
                false => thinning.givens(),
                true => 0,
            };
            next.pass(rng, options.symmetry, floor, stop_at);
            let puzzle = next.puzzle();
            if !self.meets_givens(&mut next) || members.iter().any(|m| m.puzzle == puzzle) {
                continue;
            }
            let rating = match options.difficulty.is_set() {
                false => None,
                true => {
                    let mut candidate = Candidate {
                        index,
                        solution: &solution,
                        layout: &layout,
                        rater,
                        floor,
                        stop_at,
                    };
                    match self.rate(&mut candidate, &puzzle)? {
                        Rated::Accepted(accepted) => Some(accepted),
                        Rated::Below(_) | Rated::Above => continue,
                    }
                }
            };
            check(index, &puzzle, &solution, &layout)?;
            members.push(Generated {
                puzzle,
                solution,
                layout: layout.clone(),
                attempts: 0,
                rating,
            });
            thinning = next;
            misses = 0;
        }
        Ok(())
    }

    /// `thinning`'s puzzle with one given (orbit) blanked and, while the solution is not
    /// unique, a blank cell (orbit) given where another solution differs; `None` when a few
    /// such givens leave it not unique.
    fn moved<'a>(
        &self,
        thinning: &removal::Thinning<'a>,
        rng: &mut SplitMix64,
    ) -> Option<removal::Thinning<'a>> {
        let symmetry = self.options.symmetry;
        let puzzle = thinning.puzzle();
        let given = loop {
            let cell = rng.below(crate::grid::CELLS);
            if puzzle.get(cell) != 0 {
                break cell;
            }
        };
        let (removed, n) = symmetry.orbit(given);
        let removed = &removed[..n];
        let mut next = thinning.clone();
        next.blank(removed);
        for _ in 0..MOVE_GIVES {
            let Some(other) = next.other_solution() else {
                return Some(next);
            };
            let now = next.puzzle();
            let mut differ = [0usize; crate::grid::CELLS];
            let mut k = 0;
            let solution = next.solution();
            for cell in 0..crate::grid::CELLS {
                if now.get(cell) == 0
                    && !removed.contains(&cell)
                    && other.get(cell) != solution.get(cell)
                {
                    differ[k] = cell;
                    k += 1;
                }
            }
            if k == 0 {
                return None;
            }
            let (added, m) = symmetry.orbit(differ[rng.below(k)]);
            next.give(&added[..m]);
        }
        next.other_solution().is_none().then_some(next)
    }

    /// A puzzle of `thinning`'s grid that meets the difficulty, with its rating: the thinned
    /// puzzle itself, or one found by the walk (see the module page); `None` when neither
    /// met it.
    fn search(
        &self,
        at: &mut Candidate<'_>,
        mut thinning: removal::Thinning<'_>,
        rng: &mut SplitMix64,
        stop: &AtomicBool,
    ) -> Result<Option<(Grid, Accepted)>, GenerateError> {
        let options = &self.options;
        let mut score = match self.rate(at, &thinning.puzzle())? {
            Rated::Accepted(accepted) => return Ok(Some((thinning.puzzle(), accepted))),
            Rated::Below(score) => score,
            Rated::Above => return Ok(None),
        };
        for _ in 0..options.walk {
            if stop.load(Ordering::Relaxed) {
                return Err(GenerateError::Interrupted { index: at.index });
            }
            // One given more (an orbit of the symmetry), one other given less, then every
            // given that can go removed again.
            let mut next = thinning.clone();
            let puzzle = next.puzzle();
            if puzzle.filled() == crate::grid::CELLS {
                break;
            }
            let blank = loop {
                let cell = rng.below(crate::grid::CELLS);
                if puzzle.get(cell) == 0 {
                    break cell;
                }
            };
            let (added, n) = options.symmetry.orbit(blank);
            next.give(&added[..n]);
            let given = loop {
                let cell = rng.below(crate::grid::CELLS);
                if puzzle.get(cell) != 0 {
                    break cell;
                }
            };
            let (removed, m) = options.symmetry.orbit(given);
            if !next.try_remove(&removed[..m]) {
                continue;
            }
            next.pass(rng, options.symmetry, at.floor, at.stop_at);
            if !self.meets_givens(&mut next) {
                continue;
            }
            match self.rate(at, &next.puzzle())? {
                Rated::Accepted(accepted) => return Ok(Some((next.puzzle(), accepted))),
                // Uphill or level: the walk moves on.
                Rated::Below(s) if s >= score => {
                    score = s;
                    thinning = next;
                }
                Rated::Below(_) | Rated::Above => {}
            }
        }
        Ok(None)
    }

    /// What the removals keep: singles alone filling the grid when only HoDoKu's easy level
    /// can be accepted or the search climbs from it, a unique solution otherwise.
    fn keep(&self) -> removal::Keep {
        let options = &self.options;
        match (options.difficulty.only_singles() && !options.minimal) || self.climbs() {
            true => removal::Keep::Singles,
            false => removal::Keep::Unique,
        }
    }

    /// Whether the search for a difficulty climbs from an easy puzzle (see the module page):
    /// when HoDoKu's medium level alone is asked for, and minimality is not.
    fn climbs(&self) -> bool {
        self.options.difficulty.only_medium() && !self.options.minimal
    }

    /// A thinning pass that keeps singles solving the grid and rates each puzzle on the way
    /// that singles do not solve but has a unique solution (see the module page): the first
    /// that meets the difficulty, with its rating.
    fn climb(
        &self,
        at: &mut Candidate<'_>,
        thinning: &mut removal::Thinning<'_>,
        rng: &mut SplitMix64,
    ) -> Result<Option<Accepted>, GenerateError> {
        let givens = self.options.givens;
        let mut accepted = None;
        let (floor, stop_at) = (at.floor, at.stop_at);
        thinning.judged_pass(rng, self.options.symmetry, floor, stop_at, |puzzle| {
            Ok(match self.rate(at, puzzle)? {
                Rated::Accepted(rating) if givens.is_none_or(|r| r.contains(puzzle.filled())) => {
                    accepted = Some(rating);
                    removal::Judged::Done
                }
                _ => removal::Judged::Back,
            })
        })?;
        Ok(accepted)
    }

    /// Whether a thinned puzzle has the givens asked for: in the range, and minimal when
    /// asked (with no symmetry a full pass already made it so).
    fn meets_givens(&self, thinning: &mut removal::Thinning<'_>) -> bool {
        let options = &self.options;
        let in_range = options.givens.is_none_or(|r| r.contains(thinning.givens()));
        // Minimality is checked (a costly pass) only for a puzzle in the range.
        in_range
            && (!options.minimal || options.symmetry == Symmetry::None || thinning.is_minimal())
    }

    /// Rates `puzzle` against the difficulty asked for: HoDoKu's rating giving up once it
    /// passes its ceiling, then Sudoku Explainer's giving up above the highest ER asked for
    /// (a puzzle whose SE path stops before an unbuilt technique is above, as its ER is not
    /// known). A puzzle SE accepts without a HoDoKu target gets HoDoKu's full rating for its
    /// row. The raters are kept from attempt to attempt, and made again for another layout.
    fn rate(&self, at: &mut Candidate<'_>, puzzle: &Grid) -> Result<Rated, GenerateError> {
        let (index, solution, layout) = (at.index, at.solution, at.layout);
        let difficulty = &self.options.difficulty;
        let failed = |e: String| GenerateError::CheckFailed {
            index,
            puzzle: puzzle.to_line(),
            reason: format!("the rater failed: {e}"),
        };
        let raters = &mut *at.rater;
        if raters.hodoku.as_ref().is_none_or(|r| r.layout() != layout) {
            raters.hodoku = Some(Rater::new(layout));
        }
        let rater = raters.hodoku.as_mut().expect("just made");
        let options = RateOptions {
            unique: true,
            solution: Some(*solution),
            record_steps: false,
        };
        // Without a HoDoKu target the ceiling is none: the full rating.
        let ceiling = difficulty.ceiling();
        let accepted = |r: Rating| Accepted {
            level: r.level,
            score: r.score,
            hardest: r.hardest,
            se: None,
        };
        let hodoku = |rater: &mut Rater| {
            rater
                .rate_within(puzzle, &options, ceiling)
                .map_err(|e| failed(e.to_string()))
        };
        let mut found = None;
        if difficulty.on_hodoku() {
            found = match hodoku(rater)? {
                None => return Ok(Rated::Above),
                Some(r) if difficulty.accepts(&r) => Some(accepted(r)),
                Some(r) => return Ok(Rated::Below(r.score)),
            };
        }
        let Some(range) = difficulty.se else {
            return Ok(Rated::Accepted(found.expect("a HoDoKu target")));
        };
        let se = raters
            .se
            .get_or_insert_with(SeRater::new)
            .rate_within(puzzle, layout, Some(solution), range.max)
            .map_err(|e| failed(e.to_string()))?;
        let Some((Some(er), Some(ep), Some(ed))) = se.map(|r| (r.er, r.ep, r.ed)) else {
            return Ok(Rated::Above);
        };
        let er = tenths(er);
        if er < range.min {
            // The walk climbs HoDoKu's score when it has a target, else the ER.
            return Ok(Rated::Below(found.map_or(er, |a| a.score)));
        }
        let found = match found {
            Some(found) => found,
            None => accepted(hodoku(rater)?.expect("no ceiling")),
        };
        Ok(Rated::Accepted(Accepted {
            se: Some(SeAccepted {
                er,
                ep: tenths(ep),
                ed: tenths(ed),
            }),
            ..found
        }))
    }

    /// The layout and complete grid of one attempt; `None` when the jigsaw search ran out of
    /// budget.
    fn complete_grid(&self, rng: &mut SplitMix64) -> Option<(Layout, Grid)> {
        let layout = match &self.options.regions {
            Regions::Standard => Layout::standard(),
            Regions::Layout(layout) => layout.clone(),
            Regions::RandomJigsaw { swaps } => random_layout(rng.next_u64(), *swaps),
        };
        if layout.is_standard() {
            let grid = random_standard_grid(rng);
            return Some((layout, grid));
        }
        let grid = random_solution(&layout, rng.next_u64(), JIGSAW_GRID_BUDGET, 1)?;
        Some((layout, grid))
    }
}

/// The raters of a family's puzzles, made when first needed.
#[derive(Default)]
struct Raters {
    hodoku: Option<Rater>,
    se: Option<SeRater>,
}

/// What one attempt's search for a difficulty works with.
struct Candidate<'a> {
    index: u64,
    solution: &'a Grid,
    layout: &'a Layout,
    rater: &'a mut Raters,
    /// The removal pass's bounds (see [`removal::Thinning::pass`]).
    floor: usize,
    stop_at: usize,
}

/// How a puzzle's rating compares with the difficulty asked for.
enum Rated {
    /// It meets it.
    Accepted(Accepted),
    /// Within the ceiling but not accepted (too easy, or without a technique needed): its
    /// score, which the walk climbs.
    Below(u32),
    /// Above the ceiling.
    Above,
}

/// Puzzle `index` for `options`: [`Generator::new`] then [`Generator::puzzle`].
pub fn generate_one(options: &GenerateOptions, index: u64) -> Result<Generated, GenerateError> {
    Generator::new(options.clone())?.puzzle(index)
}

/// The last check of a generated puzzle: one solution, `solution`, by the solver, accepted by
/// the independent verifier.
fn check(index: u64, puzzle: &Grid, solution: &Grid, layout: &Layout) -> Result<(), GenerateError> {
    let failed = |reason: String| GenerateError::CheckFailed {
        index,
        puzzle: puzzle.to_line(),
        reason,
    };
    let outcome = solve(puzzle, layout, &SolveOptions::default())
        .map_err(|conflict| failed(conflict.to_string()))?;
    if outcome.status != Status::Solved || outcome.solution != Some(*solution) {
        return Err(failed(format!(
            "the solver found {} ({} solutions)",
            outcome.status, outcome.solutions
        )));
    }
    crate::verify::verify(puzzle, solution, layout)
        .map_err(|problem| failed(format!("the verifier refused the solution: {problem}")))
}

#[cfg(test)]
mod tests;
