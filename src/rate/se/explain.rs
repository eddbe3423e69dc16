//! Sudoku Explainer's solution path of one puzzle as text, for `show --explain --scale se`:
//! the rating (ER, EP, ED), every step SE takes with its difficulty, numbered, and the grid of
//! candidates at the points asked for.
//!
//! ```text
//! rating: ER 7.1, EP 1.2, ED 1.2, hardest Forcing Chain, 61 steps
//!
//! candidates at the start:
//! ...
//!   1. Hidden Single (1.2): r2c8 = 9
//!  ...
//! 32. Forcing Chain (7.1): r5c3<>4
//!  ...
//! techniques: Hidden Single 38, Naked Single 20, Forcing Chain 1, ...
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{SeError, SeRater, SeRating, SeTechnique, UNBUILT_FLOOR, tenths};
use crate::grid::Grid;
use crate::layout::Layout;
use crate::rate::CandidatesShown;

/// A difficulty as SE writes it: tenths, `7.1`.
fn written(difficulty: f64) -> String {
    let t = tenths(difficulty);
    format!("{}.{}", t / 10, t % 10)
}

/// Whether a technique is a single (where a player needs no candidates drawn).
fn is_single(t: SeTechnique) -> bool {
    matches!(
        t,
        SeTechnique::FullHouse
            | SeTechnique::HiddenSingleBlock
            | SeTechnique::HiddenSingleLine
            | SeTechnique::NakedSingle
    )
}

/// Rates `grid` on SE's scale and writes its path out: the rating, then every step in SE's
/// order, the candidates drawn where `shown` asks, and how often each technique was used.
/// A path that needs a technique not built yet (SE's nested forcing chains) is written up to
/// there and says so.
pub fn explain(
    rater: &mut SeRater,
    grid: &Grid,
    layout: &Layout,
    solution: Option<&Grid>,
    shown: CandidatesShown,
) -> Result<(SeRating, String), SeError> {
    let houses = rater.geo.houses.clone();
    let mut steps = String::new();
    let mut used: BTreeMap<SeTechnique, u32> = BTreeMap::new();
    let mut number = 0usize;
    let rating = rater.rate_with(grid, layout, solution, |step, board| {
        number += 1;
        *used.entry(step.technique).or_default() += 1;
        shown.draw_before(
            &mut steps,
            number,
            is_single(step.technique),
            board,
            &houses,
        );
        let _ = writeln!(steps, "{number:>3}. {step}");
    })?;
    let known = |d: Option<f64>| d.map_or_else(|| "unknown".to_string(), written);
    let mut text = String::new();
    let er = match rating.er {
        Some(er) => written(er),
        None => format!("at least {}", written(rating.er_at_least)),
    };
    let _ = writeln!(
        text,
        "rating: ER {er}, EP {}, ED {}, hardest {}, {} step{}",
        known(rating.ep),
        known(rating.ed),
        rating.hardest.map_or("(none)", SeTechnique::name),
        rating.steps,
        if rating.steps == 1 { "" } else { "s" }
    );
    text.push_str(&steps);
    if !rating.is_complete() {
        let _ = writeln!(
            text,
            "\nstopped: no technique built here applies; Sudoku Explainer would go on with its \
             nested forcing chains ({} and up), which this version does not rate",
            written(UNBUILT_FLOOR)
        );
    }
    if !used.is_empty() {
        let list: Vec<String> = used.iter().map(|(t, n)| format!("{t} {n}")).collect();
        let _ = writeln!(text, "\ntechniques: {}", list.join(", "));
    }
    Ok((rating, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_explained_path_is_the_rated_path_step_by_step() {
        // The shipped example puzzle.
        let grid: Grid = crate::test_data::PUZZLE.parse().unwrap();
        let layout = Layout::standard();
        let mut rater = SeRater::new();
        let rated = rater.rate(&grid, &layout, None, true).unwrap();
        let (rating, text) =
            explain(&mut rater, &grid, &layout, None, CandidatesShown::Never).unwrap();
        assert_eq!(rating.er, rated.er);
        let numbered: Vec<&str> = text
            .lines()
            .filter(|l| {
                l.trim_start()
                    .split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
            })
            .collect();
        assert_eq!(numbered.len(), rated.steps as usize);
        for (line, step) in numbered.iter().zip(&rated.path) {
            assert!(line.ends_with(&step.to_string()), "{line} / {step}");
        }
        assert!(text.starts_with(&format!(
            "rating: ER {}, EP {}, ED {}",
            written(rated.er.unwrap()),
            written(rated.ep.unwrap()),
            written(rated.ed.unwrap())
        )));
        let (_, drawn) = explain(&mut rater, &grid, &layout, None, CandidatesShown::Start).unwrap();
        assert_eq!(drawn.matches("candidates at the start:").count(), 1);
        assert!(!drawn.contains("candidates before step"));
    }

    #[test]
    fn a_path_needing_nested_chains_is_written_up_to_there_and_says_so() {
        // The first puzzle of the forum's hardest 1905 list: its first step already needs
        // SE's nested forcing chains.
        let grid: Grid =
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6"
                .parse()
                .unwrap();
        let layout = Layout::standard();
        let (rating, text) = explain(
            &mut SeRater::new(),
            &grid,
            &layout,
            None,
            CandidatesShown::Never,
        )
        .unwrap();
        assert!(!rating.is_complete());
        assert!(
            text.starts_with("rating: ER at least 9.5, EP unknown, ED unknown"),
            "{text}"
        );
        assert!(text.contains("stopped: no technique built here applies"));
    }
}
