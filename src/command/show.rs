//! `show`: one puzzle solved, checked by the independent verifier and drawn, with its statistics
//! and, on request, the trace of the search.

use std::io;

use super::config::{PuzzleSource, ShowRun};
use super::{CommandError, Exit, print};
use crate::files::Input;
use crate::format;
use crate::grid::Grid;
use crate::layout::{Conflict, Layout};
use crate::pipeline::{Place, RunError, Scale};
use crate::rate::{self, CandidatesShown, RateOptions, Rater};
use crate::render::{self, Trace};
use crate::solver::{self, Algorithm, Outcome, SolveOptions, Status};
use crate::verify;

/// What a `show` report includes besides grids, status and statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShowOptions {
    /// Whether to record and print the trace of the search.
    pub trace: bool,
    /// At most this many trace lines are printed; the rest are counted.
    pub max_trace_lines: usize,
    /// Whether to rate the puzzle and explain its solution path, drawing the candidates
    /// where this says.
    pub explain: Option<CandidatesShown>,
    /// The scale of the explanation: HoDoKu's path or Sudoku Explainer's.
    pub scale: Scale,
}

impl Default for ShowOptions {
    fn default() -> Self {
        ShowOptions {
            trace: false,
            max_trace_lines: super::config::DEFAULT_TRACE_LINES,
            explain: None,
            scale: Scale::Hodoku,
        }
    }
}

/// A `show` report and the result it describes (for the exit code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// The whole report, ending with a newline.
    pub text: String,
    /// The outcome of the search, or the conflict between givens that prevented it.
    pub outcome: Result<Outcome, Conflict>,
}

/// Solves `puzzle` under `layout` with `options`, checks the solution with the independent
/// verifier, and draws the whole `show` report ([`render::report`]).
pub fn show(
    puzzle: &Grid,
    layout: &Layout,
    options: &SolveOptions,
    show_options: &ShowOptions,
) -> Shown {
    let mut trace = Trace::new(layout, show_options.max_trace_lines);
    let outcome = if show_options.trace {
        solver::solve_traced(puzzle, layout, options, &mut trace)
    } else {
        solver::solve(puzzle, layout, options)
    };
    let check = match &outcome {
        Ok(found) if found.status != Status::Stuck => found
            .solution
            .as_ref()
            .map(|solution| verify::verify(puzzle, solution, layout)),
        _ => None,
    };
    let text = render::report(&render::Report {
        puzzle,
        layout,
        options,
        outcome: &outcome,
        check: check.as_ref(),
        trace: show_options.trace.then_some(&trace),
    });
    let text = match show_options.explain {
        Some(shown) => match show_options.scale {
            Scale::Hodoku => {
                let explained = explanation(puzzle, layout, options.max_recursions, shown);
                format!(
                    "{text}\nexplanation (HoDoKu's techniques, scores and levels):\n{explained}"
                )
            }
            Scale::Se => {
                let explained = se_explanation(puzzle, layout, options.max_recursions, shown);
                format!(
                    "{text}\nexplanation (Sudoku Explainer's techniques and difficulties):\n\
                     {explained}"
                )
            }
        },
        None => text,
    };
    Shown { text, outcome }
}

/// The search that decides whether `puzzle` has one solution before it is explained (limit 2,
/// `max_recursions`); `Err` holds the text for a puzzle not rated at all (its givens conflict,
/// or it has no solution).
fn search_for_two(puzzle: &Grid, layout: &Layout, max_recursions: u64) -> Result<Outcome, String> {
    let search = SolveOptions {
        algorithm: Algorithm::default(),
        max_solutions: 2,
        max_recursions,
        seed: 0,
    };
    match solver::solve(puzzle, layout, &search) {
        Err(conflict) => Err(format!("not rated: {conflict}\n")),
        Ok(outcome) if outcome.status == Status::Unsolvable => {
            Err("not rated: the puzzle has no solution\n".to_string())
        }
        Ok(outcome) => Ok(outcome),
    }
}

/// The rating of `puzzle` and its human solution path ([`rate::explain`]), as `rate` would
/// rate it: uniqueness techniques only when a search (limit 2, `max_recursions`) found
/// exactly one solution. A puzzle with several is still explained, without them, and says
/// so; one without a solution is not.
pub fn explanation(
    puzzle: &Grid,
    layout: &Layout,
    max_recursions: u64,
    shown: CandidatesShown,
) -> String {
    let outcome = match search_for_two(puzzle, layout, max_recursions) {
        Ok(outcome) => outcome,
        Err(text) => return text,
    };
    let (unique, solution, note) = match outcome.status {
        Status::Solved => (true, outcome.solution, String::new()),
        Status::Multiple => (
            false,
            None,
            "several solutions (`rate` rates only puzzles with one, as HoDoKu does): explained \
             without uniqueness techniques, brute-force steps following one solution\n"
                .to_string(),
        ),
        Status::Unsolvable | Status::GaveUp | Status::Stuck => (
            false,
            None,
            format!(
                "uniqueness not decided within {max_recursions} recursions: explained without \
                 uniqueness techniques\n"
            ),
        ),
    };
    let options = RateOptions {
        unique,
        solution,
        record_steps: false,
    };
    match rate::explain(&mut Rater::new(layout), puzzle, &options, shown) {
        Ok((_, text)) => note + &text,
        Err(e) => format!("not rated: {e}\n"),
    }
}

/// Sudoku Explainer's path of `puzzle` ([`rate::se::explain`]), as `rate --scale se` would
/// rate it: only a puzzle with exactly one solution (found by a search with limit 2 and
/// `max_recursions`), every step checked against it.
pub fn se_explanation(
    puzzle: &Grid,
    layout: &Layout,
    max_recursions: u64,
    shown: CandidatesShown,
) -> String {
    let outcome = match search_for_two(puzzle, layout, max_recursions) {
        Ok(outcome) => outcome,
        Err(text) => return text,
    };
    let solution = match outcome.status {
        Status::Solved => outcome.solution,
        Status::Multiple => {
            return "not rated: several solutions (Sudoku Explainer rates puzzles with one)\n"
                .to_string();
        }
        Status::Unsolvable | Status::GaveUp | Status::Stuck => {
            return format!(
                "not rated: uniqueness not decided within {max_recursions} recursions\n"
            );
        }
    };
    let mut rater = rate::se::SeRater::new();
    match rate::se::explain(&mut rater, puzzle, layout, solution.as_ref(), shown) {
        Ok((_, text)) => text,
        Err(e) => format!("not rated: {e}\n"),
    }
}

/// `show`: one puzzle, solved and explained on stdout. Exit 1 when its givens conflict.
pub fn run(run: &ShowRun) -> Result<Exit, CommandError> {
    let Given {
        text,
        own_regions,
        place,
    } = match &run.puzzle {
        PuzzleSource::Text(text) => Given {
            text: text.clone(),
            own_regions: None,
            place: "puzzle".to_string(),
        },
        PuzzleSource::Stdin => first_record_of_stdin()?,
    };
    let puzzle = Grid::parse(&text).map_err(|e| {
        // A file's name where the puzzle goes: say how to show a puzzle of a file.
        let name = match &run.puzzle {
            PuzzleSource::Text(text) => std::str::from_utf8(text).ok(),
            PuzzleSource::Stdin => None,
        };
        let file = match name {
            Some(name) if std::path::Path::new(name).is_file() => {
                format!("; {name} is a file: `sudoku-bulk show - < {name}` shows its first puzzle")
            }
            _ => String::new(),
        };
        CommandError::Puzzle(format!("{place}: {e}{file}"))
    })?;
    let layout = match own_regions {
        Some(regions) => {
            Layout::parse(&regions).map_err(|e| CommandError::Puzzle(e.to_string()))?
        }
        None => run.layout.clone(),
    };
    let shown = show(
        &puzzle,
        &layout,
        &run.options,
        &ShowOptions {
            trace: run.trace,
            max_trace_lines: run.max_trace_lines,
            explain: run.explain,
            scale: run.scale,
        },
    );
    print(&shown.text)?;
    Ok(if shown.outcome.is_err() {
        Exit::Failures
    } else {
        Exit::Success
    })
}

/// The puzzle to show, as given.
struct Given {
    /// Its text.
    text: Vec<u8>,
    /// Its own region layout, if its record has one.
    own_regions: Option<Vec<u8>>,
    /// Where it is, for a message when it does not parse: the argument, or a line of standard
    /// input (`<stdin>:LINE`).
    place: String,
}

/// The first record of standard input, in whatever input format it is.
fn first_record_of_stdin() -> Result<Given, CommandError> {
    let input = Input::stdin();
    let read_error = |e: io::Error| RunError::Read {
        name: input.name.clone(),
        after: Place::Line(0),
        source: e,
    };
    let opened = input.open(Default::default()).map_err(read_error)?;
    let format = format::detect(None, &opened.head);
    let mut reader = format::reader(format, opened.reader, &format::ReadOptions::default())
        .map_err(|e| CommandError::Puzzle(format!("{}: {e}", input.name)))?;
    let record = reader
        .next_record()
        .map_err(read_error)?
        .ok_or_else(|| CommandError::Puzzle("no puzzle on standard input".to_string()))?;
    let place = format!("{}:{}", input.name, record.line);
    if let Some(defect) = record.defect {
        return Err(CommandError::Puzzle(format!("{place}: {defect}")));
    }
    Ok(Given {
        text: record.puzzle,
        own_regions: record.regions,
        place,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_data::PUZZLE;

    #[test]
    fn show_reports_status_solution_check_and_statistics() {
        let g: Grid = PUZZLE.parse().unwrap();
        let options = SolveOptions {
            algorithm: Algorithm::Logic,
            ..SolveOptions::default()
        };
        let shown = show(
            &g,
            &Layout::standard(),
            &options,
            &ShowOptions {
                trace: true,
                max_trace_lines: 1000,
                ..ShowOptions::default()
            },
        );
        assert_eq!(shown.outcome.as_ref().unwrap().status, Status::Solved);
        let text = &shown.text;
        assert!(text.contains("status: solved\n"), "{text}");
        assert!(
            text.contains("solution:\n5 3 4 | 6 7 8 | 9 1 2\n"),
            "{text}"
        );
        assert!(text.contains("check: valid\n"), "{text}");
        assert!(text.contains("  recursions      1\n"), "{text}");
        assert!(text.contains("  givens          30\n"), "{text}");
        assert!(text.contains("(naked single)"), "{text}");
        assert!(text.contains("board (81 of 81 cells filled):"), "{text}");
    }

    #[test]
    fn show_reports_a_conflict_as_invalid() {
        let mut g = Grid::EMPTY;
        g.set(0, 5);
        g.set(3, 5);
        let shown = show(
            &g,
            &Layout::standard(),
            &SolveOptions::default(),
            &ShowOptions::default(),
        );
        assert!(shown.outcome.is_err());
        assert!(
            shown
                .text
                .contains("status: invalid (digit 5 twice in row 1: r1c1 and r1c4)"),
            "{}",
            shown.text
        );
    }
}
