//! The human solution path of one puzzle as text, for `show --explain`: the rating, every
//! step in a player's words, numbered, and the grid of candidates at the points asked for.
//!
//! ```text
//! rating: hard, score 940, hardest X-Wing, 58 steps
//!
//! candidates at the start:
//! 5   3   12  | 26 7   248 | ...
//!
//!  1. Full House: places 1 in r1c3
//!  ...
//! candidates before step 23:
//! ...
//! 23. X-Wing r2c3/r2c7/r6c3/r6c7 {5}: removes 5 from r4c3, r9c7
//!  ...
//! techniques: Full House 21, Naked Single 17, ..., X-Wing 1
//! ```

use std::fmt::Write as _;

use super::render::candidates_grid;
use super::{Board, Houses, LADDER, RateError, RateOptions, Rater, Rating, Technique};
use crate::grid::Grid;

/// Where an explanation draws the grid of candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CandidatesShown {
    /// Never.
    Never,
    /// Once, before the first step.
    Start,
    /// Before the first step and before every step that is not a single (where a player
    /// must look at the candidates).
    #[default]
    Advanced,
    /// Before every step.
    Every,
}

impl CandidatesShown {
    /// Every choice, in the order of how many grids it draws.
    pub const ALL: [CandidatesShown; 4] = [
        CandidatesShown::Never,
        CandidatesShown::Start,
        CandidatesShown::Advanced,
        CandidatesShown::Every,
    ];

    /// The choice's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            CandidatesShown::Never => "never",
            CandidatesShown::Start => "start",
            CandidatesShown::Advanced => "advanced",
            CandidatesShown::Every => "every",
        }
    }

    /// The choice named `name`, if any.
    pub fn from_name(name: &str) -> Option<CandidatesShown> {
        CandidatesShown::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Writes to `out` the grid of candidates on `board` before step `number` (from 1), when
    /// this choice draws it there: `single` says whether the step is a single.
    pub(crate) fn draw_before(
        self,
        out: &mut String,
        number: usize,
        single: bool,
        board: &Board,
        houses: &Houses,
    ) {
        let draw = match self {
            CandidatesShown::Never => false,
            CandidatesShown::Start => number == 1,
            CandidatesShown::Advanced => number == 1 || !single,
            CandidatesShown::Every => true,
        };
        if !draw {
            return;
        }
        if number == 1 {
            out.push_str("\ncandidates at the start:\n");
        } else {
            let _ = writeln!(out, "\ncandidates before step {number}:");
        }
        out.push_str(&candidates_grid(board, houses));
        out.push('\n');
    }
}

/// The rating of `grid` and its explanation as text, ending with a newline.
///
/// Rates with `rater` and `options` (as [`Rater::rate`]), drawing the candidates where `shown`
/// says; the text is what the rating did, step by step, so it exists only when the rating
/// does.
pub fn explain(
    rater: &mut Rater,
    grid: &Grid,
    options: &RateOptions,
    shown: CandidatesShown,
) -> Result<(Rating, String), RateError> {
    let houses: Houses = rater.houses().clone();
    let mut steps = String::new();
    let mut number = 0usize;
    let rating = rater.rate_with(grid, options, |step, board| {
        number += 1;
        let single = step.technique.family() == super::Family::Singles;
        shown.draw_before(&mut steps, number, single, board, &houses);
        let _ = writeln!(steps, "{number:>3}. {step}");
    })?;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "rating: {}, score {}, hardest {}, {} step{}",
        rating.level.name(),
        rating.score,
        rating.hardest.map_or("(none)", Technique::name),
        rating.step_count(),
        if rating.step_count() == 1 { "" } else { "s" }
    );
    text.push_str(&steps);
    let used: Vec<String> = LADDER
        .iter()
        .filter(|t| rating.counts[t.index()] > 0)
        .map(|t| format!("{} {}", t.name(), rating.counts[t.index()]))
        .collect();
    if !used.is_empty() {
        let _ = writeln!(text, "\ntechniques: {}", used.join(", "));
    }
    Ok((rating, text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;

    /// The shipped example puzzle, rated easy: singles only.
    fn rated(shown: CandidatesShown) -> (Rating, String) {
        let grid: Grid = crate::test_data::PUZZLE.parse().unwrap();
        let mut rater = Rater::new(&Layout::standard());
        explain(&mut rater, &grid, &RateOptions::default(), shown).unwrap()
    }

    #[test]
    fn every_step_is_numbered_in_order_and_the_rating_matches() {
        let (rating, text) = rated(CandidatesShown::Start);
        let grid: Grid = crate::test_data::PUZZLE.parse().unwrap();
        let plain = Rater::new(&Layout::standard())
            .rate(&grid, &RateOptions::default())
            .unwrap();
        assert_eq!(rating, plain);
        let numbered: Vec<&str> = text
            .lines()
            .filter(|l| {
                l.trim_start()
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
            })
            .filter(|l| l.contains(". "))
            .collect();
        assert_eq!(numbered.len(), rating.step_count() as usize, "{text}");
        for (i, line) in numbered.iter().enumerate() {
            assert!(
                line.trim_start().starts_with(&format!("{}. ", i + 1)),
                "{line}"
            );
        }
        assert!(text.starts_with("rating: easy, score "), "{text}");
        assert_eq!(text.matches("candidates").count(), 1, "{text}");
        assert!(text.contains("\ncandidates at the start:\n5 "), "{text}");
        // Singles alone solve it: full houses and naked singles.
        let (full, naked) = (
            rating.counts[Technique::FullHouse.index()],
            rating.counts[Technique::NakedSingle.index()],
        );
        assert_eq!(full + naked, rating.step_count());
        let last = format!("\ntechniques: Full House {full}, Naked Single {naked}\n");
        assert!(text.ends_with(&last), "{text}");
    }

    #[test]
    fn candidates_are_drawn_where_asked() {
        let (rating, every) = rated(CandidatesShown::Every);
        assert_eq!(
            every.matches("\ncandidates ").count(),
            rating.step_count() as usize
        );
        let (_, never) = rated(CandidatesShown::Never);
        assert!(!never.contains("candidates"), "{never}");
        // Singles only: the advanced points are the start alone.
        let (_, advanced) = rated(CandidatesShown::Advanced);
        assert_eq!(advanced.matches("\ncandidates ").count(), 1);
    }

    #[test]
    fn an_advanced_step_gets_the_grid_it_was_found_on() {
        // QQWing "expert" puzzle rated hard by HoDoKu (a unique rectangle after singles,
        // locked candidates and pairs).
        let grid: Grid =
            "..2......5....9..1.1..........268.7.7...1...52.6..5...65...24.89...8.1....8..49.."
                .parse()
                .unwrap();
        let mut rater = Rater::new(&Layout::standard());
        let options = RateOptions {
            unique: true,
            ..RateOptions::default()
        };
        let (rating, text) =
            explain(&mut rater, &grid, &options, CandidatesShown::Advanced).unwrap();
        assert_eq!(rating.hardest, Some(Technique::UniqueRectangle1));
        let advanced = rating
            .counts
            .iter()
            .zip(LADDER)
            .filter(|(_, t)| t.family() != super::super::Family::Singles)
            .map(|(&n, _)| n as usize)
            .sum::<usize>();
        assert_eq!(text.matches("\ncandidates before step ").count(), advanced);
        let (_, after) = text.split_once("\ncandidates before step ").unwrap();
        let (number, rest) = after.split_once(":\n").unwrap();
        // Eleven lines of grid, a blank line, then that very step.
        let line = rest.lines().nth(12).unwrap();
        assert!(
            line.trim_start().starts_with(&format!("{number}. ")),
            "{line}"
        );
        assert!(!line.contains("Single"), "{line}");
    }
}
