//! How hard a puzzle is for a person: a logic solver over candidates with a ladder of human
//! techniques, and a rating compatible with HoDoKu's.
//!
//! # The procedure
//! The board starts with every digit a candidate of every empty cell and the givens placed in
//! reading order. Then, until every cell is filled, the techniques of [`LADDER`] are tried in
//! order (HoDoKu's order, cheapest first) and the first step found is applied: its digits
//! placed, its candidates removed. After every step the ladder starts again from the top.
//! Each application adds the technique's base score ([`Technique::score`]).
//!
//! # When every technique fails
//! Forcing chains and nets find a step on every puzzle we have tried, but nothing proves they
//! always will. When they do not, the last rung, [`Technique::BruteForce`] (HoDoKu's score
//! 10000), places the middle empty cell's value from the solution (HoDoKu's own last resort):
//! so every puzzle with a solution gets a rating, and a puzzle without one ends with
//! [`RateError::NoSolution`]. On a puzzle with several solutions, the brute-force steps follow
//! the first solution of this module's own search (`brute.rs`); sound techniques never remove
//! a digit that some solution needs, so the rating still ends with a complete grid.
//!
//! # Rating
//! `score` is the sum of the base scores of the steps; `level` is HoDoKu's rule
//! ([`Level::of`]): the highest level of a technique used, raised while the score is above
//! that level's maximum. `hardest` is the technique of the highest level used, ties broken by
//! the higher base score, then by the later rung.
//!
//! # Layouts
//! Every technique is stated over houses (rows, columns, regions) and runs on jigsaw layouts,
//! except those for which [`Technique::needs_boxes`] is true (Empty Rectangle, which needs a
//! 3x3 box crossing three rows and three columns): they are skipped there. Uniqueness
//! techniques ([`Technique::needs_uniqueness`]) run only when the caller says the puzzle has
//! one solution ([`RateOptions::unique`]).
//!
//! # Safety net
//! With [`RateOptions::solution`], every placement and elimination is checked against the
//! solution, and a step that places a wrong digit or removes a true one ends the rating with
//! [`RateError::WrongStep`]. In debug builds (and so in `cargo test`) the rater finds the
//! solution itself when none is given, so every step of every test is checked; in release
//! builds, given none, it checks the grid its steps end with instead, so a puzzle without a
//! solution still ends with [`RateError::NoSolution`].
//!
//! Nothing here does I/O.

// The techniques index several per-digit arrays (candidates, implications, eliminations) by
// the same digit; a range loop says that more plainly than zipped iterators.
#![allow(clippy::needless_range_loop)]

mod als;
mod board;
mod brute;
mod chains;
mod coloring;
mod explain;
mod fish;
mod forcing;
mod houses;
mod intersections;
mod render;
pub mod se;
mod single_digit;
mod singles;
mod step;
mod subsets;
mod sue_de_coq;
mod technique;
mod uniqueness;
mod wings;

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;

pub use board::Board;
pub use explain::{CandidatesShown, explain};
pub use houses::Houses;
pub use render::candidates_grid;
pub use step::{Candidate, Step};
pub use technique::{Family, LADDER, Level, Technique};

use crate::grid::Grid;
use crate::layout::{Conflict, Layout};
use fish::Fins;
use houses::{Cells, bit};

/// What the caller knows about the puzzle and wants back.
#[derive(Debug, Clone, Default)]
pub struct RateOptions {
    /// The puzzle is known to have exactly one solution: uniqueness techniques may be used.
    pub unique: bool,
    /// The puzzle's solution, when known: every step is checked against it (the safety net),
    /// and brute-force steps take their digits from it.
    pub solution: Option<Grid>,
    /// Keep every step in [`Rating::steps`] (off: only the counts are kept).
    pub record_steps: bool,
}

/// The rating of one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rating {
    /// HoDoKu's level.
    pub level: Level,
    /// The sum of the base scores of all steps.
    pub score: u32,
    /// The hardest technique used (`None` when the puzzle had no empty cell).
    pub hardest: Option<Technique>,
    /// How many times each technique was applied, indexed by [`Technique::index`].
    pub counts: [u32; Technique::COUNT],
    /// Every step in order, when [`RateOptions::record_steps`] asked for them.
    pub steps: Vec<Step>,
    /// The completed grid.
    pub solution: Grid,
}

impl Rating {
    /// How many steps were applied.
    pub fn step_count(&self) -> u32 {
        self.counts.iter().sum()
    }
}

/// The most a rating may reach before [`Rater::rate_within`] gives up on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ceiling {
    /// The highest level wanted.
    pub level: Level,
    /// The highest score wanted.
    pub score: u32,
}

/// Why a puzzle got no rating.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RateError {
    /// Two givens conflict.
    #[error(transparent)]
    Conflict(#[from] Conflict),
    /// The puzzle has no solution (found when the ladder needed the solution).
    #[error("the puzzle has no solution")]
    NoSolution,
    /// The safety net caught a technique placing a wrong digit or removing a true one: a bug.
    #[error("{technique} is wrong at {candidate}: {step}")]
    WrongStep {
        /// The technique at fault.
        technique: Technique,
        /// The wrong placement or the true digit removed.
        candidate: Candidate,
        /// The whole step, in words.
        step: String,
    },
    /// A step changed nothing (a bug: the loop would not end).
    #[error("{technique} made no progress: {step}")]
    NoProgress {
        /// The technique at fault.
        technique: Technique,
        /// The step, in words.
        step: String,
    },
}

/// The rater of one layout: its houses and the scratch memory of the techniques, reused from
/// puzzle to puzzle.
#[derive(Debug, Clone)]
pub struct Rater {
    layout: Layout,
    houses: Houses,
    /// The layout's rectangles a deadly pattern can lie on ([`uniqueness::rectangles`]).
    rectangles: Vec<uniqueness::Rectangle>,
    queues: singles::Queues,
    scratch: als::Scratch,
    forcing: forcing::Scratch,
    fruitless: Fruitless,
    /// Whether searches found fruitless are skipped (always, but in a test that compares).
    skips: bool,
}

/// The digits each single-digit search (fish, skyscraper, kites, colouring, ...) found nothing
/// on in the puzzle being rated, with the digit's candidate cells at the time. Such a search
/// reads only its digit's cells, so while they are unchanged it would find nothing again and
/// is skipped ([`Rater::per_digit`]); the digits are still searched in order, so the step
/// found is the one a search over every digit finds.
#[derive(Debug, Clone)]
struct Fruitless {
    /// Per technique (its index), bit `d` when the search on digit `d` found nothing.
    digits: [u16; Technique::COUNT],
    /// Per technique and digit, the digit's cells when it found nothing.
    cells: [[Cells; 9]; Technique::COUNT],
    /// The same for the subset searches, house by house: per [`SUBSETS`] entry, bit `h`
    /// when house `h` held nothing that fewer candidates could reveal, cleared when a step
    /// changes a candidate of one of its cells ([`Rater::apply`]).
    houses: [u32; SUBSETS.len()],
}

/// The searches of one house at a time that [`Fruitless`] keeps track of.
const SUBSETS: [Technique; 8] = [
    Technique::LockedPair,
    Technique::LockedTriple,
    Technique::NakedPair,
    Technique::NakedTriple,
    Technique::HiddenPair,
    Technique::HiddenTriple,
    Technique::NakedQuad,
    Technique::HiddenQuad,
];

/// Rates one puzzle (builds a [`Rater`]; keep one to rate many puzzles of a layout).
pub fn rate(grid: &Grid, layout: &Layout, options: &RateOptions) -> Result<Rating, RateError> {
    Rater::new(layout).rate(grid, options)
}

impl Rater {
    /// A rater for puzzles of `layout`.
    pub fn new(layout: &Layout) -> Rater {
        Rater {
            layout: layout.clone(),
            houses: Houses::new(layout),
            rectangles: uniqueness::rectangles(layout),
            queues: singles::Queues::default(),
            scratch: als::Scratch::default(),
            forcing: forcing::Scratch::default(),
            fruitless: Fruitless {
                digits: [0; Technique::COUNT],
                cells: [[0; 9]; Technique::COUNT],
                houses: [0; SUBSETS.len()],
            },
            skips: true,
        }
    }

    /// The layout the rater was built for.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The houses of the rater's layout.
    pub fn houses(&self) -> &Houses {
        &self.houses
    }

    /// Rates `grid`: the ladder run to the end, see the module page.
    pub fn rate(&mut self, grid: &Grid, options: &RateOptions) -> Result<Rating, RateError> {
        self.rate_with(grid, options, |_, _| {})
    }

    /// Rates `grid` as [`Rater::rate`] does, but gives up (`Ok(None)`) as soon as the rating
    /// is sure to be above `ceiling`: a step's technique above its level, or a score that makes
    /// the level (HoDoKu's rule) or the score pass it. Past the last rung within the ceiling
    /// the puzzle is above it without any search. At a rung above the ceiling with rungs
    /// within it further on (HoDoKu's hard level: the finned and sashimi swordfish and
    /// jellyfish, and Sue de Coq, come before the colourings), the rungs within are searched
    /// first: when none has a step the puzzle is above the ceiling whatever the others find;
    /// when one has, the rungs above it before it are searched, and any step of theirs puts
    /// the puzzle above. So a generator looking for medium puzzles never runs the chains, ALS
    /// or forcing searches that a harder puzzle needs, nor one looking for hard puzzles the
    /// unfair fish of a step no hard technique makes. A rating returned is the full one.
    pub fn rate_within(
        &mut self,
        grid: &Grid,
        options: &RateOptions,
        ceiling: Ceiling,
    ) -> Result<Option<Rating>, RateError> {
        self.run(grid, options, Some(ceiling), |_, _| {})
    }

    /// Rates `grid`, calling `observe` with each step and the board it applies to (before
    /// the step, and before the safety net checks it): for `show --explain` and the
    /// candidates grid.
    pub fn rate_with(
        &mut self,
        grid: &Grid,
        options: &RateOptions,
        observe: impl FnMut(&Step, &Board),
    ) -> Result<Rating, RateError> {
        let rating = self.run(grid, options, None, observe)?;
        Ok(rating.expect("no ceiling, no giving up"))
    }

    /// The ladder run to the end, or until the rating passes `ceiling` (`Ok(None)`).
    fn run(
        &mut self,
        grid: &Grid,
        options: &RateOptions,
        ceiling: Option<Ceiling>,
        mut observe: impl FnMut(&Step, &Board),
    ) -> Result<Option<Rating>, RateError> {
        self.layout.check_givens(grid)?;
        self.queues.clear();
        self.fruitless.digits = [0; Technique::COUNT];
        self.fruitless.houses = [0; SUBSETS.len()];
        let mut board = Board::new(grid, &self.houses, &mut self.queues);
        let mut solution = options.solution;
        if solution.is_none() && cfg!(debug_assertions) {
            solution = Some(brute::solve(&board, &self.houses).ok_or(RateError::NoSolution)?);
        }
        let mut rating = Rating {
            level: Level::Easy,
            score: 0,
            hardest: None,
            counts: [0; Technique::COUNT],
            steps: Vec::new(),
            solution: Grid::EMPTY,
        };
        let mut highest = Level::Easy;
        while board.unsolved != 0 {
            let Some(step) = self.next_step(&board, options.unique, &mut solution, ceiling)? else {
                return Ok(None);
            };
            observe(&step, &board);
            if let Some(s) = &solution {
                check_step(&step, s)?;
            }
            if !self.apply(&mut board, &step) {
                return Err(RateError::NoProgress {
                    technique: step.technique,
                    step: step.to_string(),
                });
            }
            let t = step.technique;
            rating.counts[t.index()] += 1;
            rating.score += t.score();
            if rating.hardest.is_none_or(|h| {
                (t.level(), t.score(), t.index()) > (h.level(), h.score(), h.index())
            }) {
                rating.hardest = Some(t);
            }
            if options.record_steps {
                rating.steps.push(step);
            }
            highest = highest.max(t.level());
            if ceiling.is_some_and(|c| {
                rating.score > c.score || Level::of(highest, rating.score) > c.level
            }) {
                return Ok(None);
            }
        }
        let hardest_level = rating.hardest.map_or(Level::Easy, Technique::level);
        rating.level = Level::of(hardest_level, rating.score);
        rating.solution = board.grid();
        // Without a solution to check the steps against (release builds, given none), the
        // steps on a puzzle that has none can fill the board with clashing digits.
        if options.solution.is_none() && self.layout.check_givens(&rating.solution).is_err() {
            return Err(RateError::NoSolution);
        }
        Ok(Some(rating))
    }

    /// The first step of the ladder that applies; `None` when it is sure to be above
    /// `ceiling` (see [`Rater::rate_within`]).
    fn next_step(
        &mut self,
        board: &Board,
        unique: bool,
        solution: &mut Option<Grid>,
        ceiling: Option<Ceiling>,
    ) -> Result<Option<Step>, RateError> {
        // The last rung at or below the ceiling's level: past it, any step is above.
        let last_within = ceiling.map_or(LADDER.len(), |c| {
            LADDER
                .iter()
                .rposition(|t| t.level() <= c.level)
                .map_or(0, |i| i + 1)
        });
        let standard = self.houses.standard;
        let usable =
            |t: Technique| (unique || !t.needs_uniqueness()) && (standard || !t.needs_boxes());
        let above = |t: Technique| ceiling.is_some_and(|c| t.level() > c.level);
        for (rung, &t) in LADDER.iter().enumerate() {
            if rung >= last_within {
                return Ok(None);
            }
            if !usable(t) {
                continue;
            }
            if t == Technique::BruteForce {
                if solution.is_none() {
                    *solution =
                        Some(brute::solve(board, &self.houses).ok_or(RateError::NoSolution)?);
                }
                let s = solution.as_ref().expect("just set");
                return brute::step(board, s).ok_or(RateError::NoSolution).map(Some);
            }
            if above(t) {
                // From here a step of a rung above the ceiling gives up, and a step of a rung
                // within it is the ladder's only when no rung above it before it has one. So
                // the rungs within are searched first: when none has a step the puzzle is
                // above whatever the others find (HoDoKu's hard level asks this of the
                // finned swordfish and jellyfish, and Sue de Coq, before the colourings).
                let mut within = None;
                for (r, &t) in LADDER.iter().enumerate().take(last_within).skip(rung) {
                    if usable(t)
                        && !above(t)
                        && let Some(step) = self.find(t, board)
                    {
                        within = Some((r, step));
                        break;
                    }
                }
                let Some((found, step)) = within else {
                    return Ok(None);
                };
                let earlier_above = (rung..found)
                    .map(|r| LADDER[r])
                    .any(|t| usable(t) && above(t) && self.find(t, board).is_some());
                return Ok((!earlier_above).then_some(step));
            }
            if let Some(step) = self.find(t, board) {
                return Ok(Some(step));
            }
        }
        unreachable!("brute force is the last rung")
    }

    /// The first step of technique `t` on `board`, if any.
    fn find(&mut self, t: Technique, board: &Board) -> Option<Step> {
        use Technique as T;
        let h = &self.houses;
        match t {
            T::FullHouse => singles::full_house(board, h, &self.queues),
            T::NakedSingle => singles::naked_single(board, &mut self.queues),
            T::HiddenSingle => singles::hidden_single(board, h, &mut self.queues),
            T::LockedPair | T::LockedTriple => self.subset(t, board),
            T::LockedCandidatesPointing => intersections::pointing(board, h),
            T::LockedCandidatesClaiming => intersections::claiming(board, h),
            T::NakedPair
            | T::NakedTriple
            | T::HiddenPair
            | T::HiddenTriple
            | T::NakedQuad
            | T::HiddenQuad => self.subset(t, board),
            T::XWing => self.per_digit(t, board, |b, h, d| fish::find(b, h, 2, Fins::None, d)),
            T::Swordfish => self.per_digit(t, board, |b, h, d| fish::find(b, h, 3, Fins::None, d)),
            T::Jellyfish => self.per_digit(t, board, |b, h, d| fish::find(b, h, 4, Fins::None, d)),
            T::RemotePair => wings::remote_pair(board, h),
            T::BugPlusOne => uniqueness::bug_plus_one(board, h),
            T::Skyscraper => self.per_digit(t, board, single_digit::skyscraper),
            T::TwoStringKite => self.per_digit(t, board, single_digit::two_string_kite),
            T::TurbotFish => self.per_digit(t, board, single_digit::turbot_fish),
            T::EmptyRectangle => self.per_digit(t, board, single_digit::empty_rectangle),
            T::WWing => wings::w_wing(board, h),
            T::XyWing => wings::xy_wing(board, h),
            T::XyzWing => wings::xyz_wing(board, h),
            T::UniqueRectangle1
            | T::UniqueRectangle2
            | T::UniqueRectangle3
            | T::UniqueRectangle4
            | T::HiddenRectangle => uniqueness::rectangle(board, h, &self.rectangles, t),
            T::FinnedXWing => self.per_digit_twin(t, T::SashimiXWing, board, |b, h, d, twin| {
                fish::find_telling(b, h, 2, Fins::Finned, d, twin)
            }),
            T::SashimiXWing => {
                self.per_digit(t, board, |b, h, d| fish::find(b, h, 2, Fins::Sashimi, d))
            }
            T::FinnedSwordfish => {
                self.per_digit_twin(t, T::SashimiSwordfish, board, |b, h, d, twin| {
                    fish::find_telling(b, h, 3, Fins::Finned, d, twin)
                })
            }
            T::SashimiSwordfish => {
                self.per_digit(t, board, |b, h, d| fish::find(b, h, 3, Fins::Sashimi, d))
            }
            T::FinnedJellyfish => {
                self.per_digit_twin(t, T::SashimiJellyfish, board, |b, h, d, twin| {
                    fish::find_telling(b, h, 4, Fins::Finned, d, twin)
                })
            }
            T::SashimiJellyfish => {
                self.per_digit(t, board, |b, h, d| fish::find(b, h, 4, Fins::Sashimi, d))
            }
            T::SueDeCoq => sue_de_coq::find(board, h),
            T::SimpleColors => self.per_digit(t, board, coloring::simple),
            T::MultiColors => self.per_digit(t, board, coloring::multi),
            T::XChain => chains::find(board, h, chains::Kind::X),
            T::XyChain => chains::find(board, h, chains::Kind::Xy),
            T::NiceLoop => chains::find(board, h, chains::Kind::Aic),
            T::AlsXz => als::xz(board, h, &mut self.scratch),
            T::AlsXyWing => als::xy_wing(board, h, &mut self.scratch),
            T::ForcingChain => forcing::chain(board, h, &mut self.forcing),
            T::ForcingNet => forcing::net(board, h, &mut self.forcing),
            T::BruteForce => None,
        }
    }

    /// The first step of a single-digit search over the digits in order, skipping those it
    /// found nothing on with the same cells ([`Fruitless`]).
    fn per_digit(
        &mut self,
        t: Technique,
        board: &Board,
        search: impl Fn(&Board, &Houses, usize) -> Option<Step>,
    ) -> Option<Step> {
        self.per_digit_twin(t, t, board, |b, h, d, _| search(b, h, d))
    }

    /// [`Rater::per_digit`] for a search that can tell, when it finds nothing on a digit, that
    /// the search for `twin` would find nothing there either (its last argument set).
    fn per_digit_twin(
        &mut self,
        t: Technique,
        twin: Technique,
        board: &Board,
        search: impl Fn(&Board, &Houses, usize, &mut bool) -> Option<Step>,
    ) -> Option<Step> {
        let i = t.index();
        let fruitless = &mut self.fruitless;
        for d in 0..9 {
            let cells = board.digit[d];
            if self.skips && fruitless.digits[i] & (1 << d) != 0 && fruitless.cells[i][d] == cells {
                continue;
            }
            let mut twin_too = false;
            if let Some(step) = search(board, &self.houses, d, &mut twin_too) {
                return Some(step);
            }
            fruitless.digits[i] |= 1 << d;
            fruitless.cells[i][d] = cells;
            if twin_too {
                fruitless.digits[twin.index()] |= 1 << d;
                fruitless.cells[twin.index()][d] = cells;
            }
        }
        None
    }

    /// The first subset of technique `t` (locked, naked or hidden), house by house in
    /// HoDoKu's order (locked ones in regions only), through [`Rater::per_house`].
    fn subset(&mut self, t: Technique, board: &Board) -> Option<Step> {
        use Technique as T;
        use subsets::Kind::{Locked, Plain};
        let (n, kind) = match t {
            T::LockedPair => (2, Some(Locked)),
            T::LockedTriple => (3, Some(Locked)),
            T::NakedPair => (2, Some(Plain)),
            T::NakedTriple => (3, Some(Plain)),
            T::NakedQuad => (4, Some(Plain)),
            T::HiddenPair => (2, None),
            T::HiddenTriple => (3, None),
            T::HiddenQuad => (4, None),
            _ => unreachable!("{t:?} is not a subset technique"),
        };
        let order = match kind {
            Some(Locked) => &subsets::HOUSE_ORDER[..9],
            _ => &subsets::HOUSE_ORDER[..],
        };
        self.per_house(t, board, order, |b, h, i, settled| match kind {
            Some(kind) => subsets::naked_in(b, h, i, n, kind, settled),
            None => subsets::hidden_in(b, h, i, n),
        })
    }

    /// The first step of a one-house search over `order`, skipping the houses it found
    /// nothing in with the same candidates in their cells and said so would hold
    /// ([`Fruitless`]; the search clears its last argument when not).
    fn per_house(
        &mut self,
        t: Technique,
        board: &Board,
        order: &[usize],
        search: impl Fn(&Board, &Houses, usize, &mut bool) -> Option<Step>,
    ) -> Option<Step> {
        let slot = SUBSETS
            .iter()
            .position(|&s| s == t)
            .expect("a subset technique");
        let fruitless = &mut self.fruitless;
        for &h in order {
            if self.skips && fruitless.houses[slot] & (1 << h) != 0 {
                continue;
            }
            let mut settled = true;
            if let Some(step) = search(board, &self.houses, h, &mut settled) {
                return Some(step);
            }
            if settled {
                fruitless.houses[slot] |= 1 << h;
            } else {
                fruitless.houses[slot] &= !(1 << h);
            }
        }
        None
    }

    /// Applies a step; whether it changed the board. The houses a subset search found
    /// nothing in and whose cells the step leaves as they were stay known as fruitless
    /// ([`Fruitless::houses`]).
    fn apply(&mut self, board: &mut Board, step: &Step) -> bool {
        let houses = &self.houses;
        // The cells whose candidates change: a placement's cell and its peers holding the
        // digit, an elimination's cell.
        let mut touched: Cells = 0;
        for p in &step.placements {
            let (cell, d) = (p.cell as usize, p.digit as usize - 1);
            if board.value[cell] == 0 {
                touched |= bit(cell) | (houses.peers[cell] & board.cells_with(d));
                board.place(houses, cell, d, &mut self.queues);
            }
        }
        for e in &step.eliminations {
            let (cell, d) = (e.cell as usize, e.digit as usize - 1);
            if board.has(cell, d) {
                touched |= bit(cell);
                board.remove(houses, cell, d, &mut self.queues);
            }
        }
        if touched == 0 {
            return false;
        }
        if self.fruitless.houses.iter().all(|&known| known == 0) {
            return true;
        }
        let changed = (0..houses.house.len())
            .filter(|&h| houses.house[h] & touched != 0)
            .fold(0u32, |m, h| m | 1 << h);
        for known in &mut self.fruitless.houses {
            *known &= !changed;
        }
        true
    }
}

/// The safety net: a placement must be the solution's digit, an elimination must not be.
fn check_step(step: &Step, solution: &Grid) -> Result<(), RateError> {
    let wrong = step
        .placements
        .iter()
        .find(|p| solution.get(p.cell as usize) != p.digit)
        .or_else(|| {
            step.eliminations
                .iter()
                .find(|e| solution.get(e.cell as usize) == e.digit)
        });
    match wrong {
        Some(&candidate) => Err(RateError::WrongStep {
            technique: step.technique,
            candidate,
            step: step.to_string(),
        }),
        None => Ok(()),
    }
}
