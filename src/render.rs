//! Text for people: a puzzle or solution as a 9x9 grid (with region borders on jigsaw
//! layouts), a search trace line by line, and the whole `show` report drawn from results
//! computed elsewhere, so the command line only prints what it gets. Everything returns
//! `String`s; nothing here solves, checks or does I/O.
//!
//! # Grids
//! The standard layout is drawn the usual way, `.` for a blank:
//!
//! ```text
//! 4 . . | . . . | 8 . 5
//! . 3 . | . . . | . . .
//! . . . | 7 . . | . . .
//! ------+-------+------
//! ```
//!
//! A jigsaw layout is drawn with its region borders, and each row's region labels beside it:
//!
//! ```text
//! +-----------+-----------------------+   regions
//! | 4   .   . | .   .   .   8   .   5 |   a a a b b b b b b
//! |           +-------+       +-------+
//! ```
//!
//! # Traces
//! [`Trace`] is an [`Observer`] that turns each search [`Event`] into lines, indented two
//! spaces for each guess still open:
//!
//! ```text
//! r1c3 = 7 (naked single)
//! r4c2 = 5 (hidden single in column 2)
//! guess r5c2 = 4 (depth 2)
//!   r5c3 = 1 (naked single)
//!   contradiction
//! backtrack r5c2 = 4 (depth 2)
//! ```
//!
//! followed, after each round of propagation, by the board it left.

use std::fmt::Write as _;

use crate::grid::{CELLS, Grid, cell_name};
use crate::layout::{Conflict, Layout};
use crate::solver::{Event, Observer, Outcome, Rule, SolveOptions, Status};
use crate::verify::Problem;

/// `grid` as a readable 9x9 drawing: boxes separated by `|` and lines of `-` on the standard
/// layout, region borders and labels on a jigsaw layout (see the [module page](self)). Each
/// line ends with a newline.
pub fn grid(grid: &Grid, layout: &Layout) -> String {
    if layout.is_standard() {
        standard_grid(grid)
    } else {
        jigsaw_grid(grid, layout)
    }
}

/// The character shown for cell `i`.
fn cell_char(grid: &Grid, i: usize) -> char {
    match grid.get(i) {
        0 => '.',
        d => (b'0' + d) as char,
    }
}

fn standard_grid(g: &Grid) -> String {
    let mut out = String::with_capacity(220);
    for r in 0..9 {
        if r == 3 || r == 6 {
            out.push_str("------+-------+------\n");
        }
        for c in 0..9 {
            if c > 0 {
                out.push_str(if c % 3 == 0 { " | " } else { " " });
            }
            out.push(cell_char(g, r * 9 + c));
        }
        out.push('\n');
    }
    out
}

/// The nine rows of `g`, digits separated by spaces, no borders (boards in jigsaw traces).
fn plain_grid(g: &Grid) -> String {
    let mut out = String::with_capacity(170);
    for r in 0..9 {
        for c in 0..9 {
            if c > 0 {
                out.push(' ');
            }
            out.push(cell_char(g, r * 9 + c));
        }
        out.push('\n');
    }
    out
}

fn jigsaw_grid(g: &Grid, layout: &Layout) -> String {
    // Region of (row, col), `None` outside the grid: the outer frame is a border like any other.
    let region = |r: isize, c: isize| -> Option<usize> {
        ((0..9).contains(&r) && (0..9).contains(&c))
            .then(|| layout.region_of(r as usize * 9 + c as usize))
    };
    // A border between two cells (or a cell and the outside) unless both are in one region.
    let border = |a: Option<usize>, b: Option<usize>| a.is_none() || b.is_none() || a != b;
    let mut out = String::with_capacity(1500);
    for r in 0..=9isize {
        // The line above row r: horizontal segments under cells of row r - 1, and junctions.
        for c in 0..=9isize {
            let up = (r > 0) && border(region(r - 1, c - 1), region(r - 1, c));
            let down = (r < 9) && border(region(r, c - 1), region(r, c));
            let left = (c > 0) && border(region(r - 1, c - 1), region(r, c - 1));
            let right = (c < 9) && border(region(r - 1, c), region(r, c));
            out.push(match (up || down, left || right) {
                (true, true) => '+',
                (false, true) => '-',
                (true, false) => '|',
                (false, false) => ' ',
            });
            if c < 9 {
                out.push_str(if right { "---" } else { "   " });
            }
        }
        if r == 0 {
            out.push_str("   regions");
        }
        out.push('\n');
        if r == 9 {
            break;
        }
        // Row r: cells, with a bar wherever the region changes.
        out.push('|');
        for c in 0..9isize {
            out.push(' ');
            out.push(cell_char(g, r as usize * 9 + c as usize));
            out.push(' ');
            out.push(if border(region(r, c), region(r, c + 1)) {
                '|'
            } else {
                ' '
            });
        }
        out.push_str("  ");
        for c in 0..9 {
            out.push(' ');
            out.push(layout.label(layout.region_of(r as usize * 9 + c)));
        }
        out.push('\n');
    }
    out
}

/// One line saying which regions are not orthogonally connected, or `None` when all are.
pub fn disconnected_note(layout: &Layout) -> Option<String> {
    let labels = layout.disconnected_regions();
    match labels.len() {
        0 => None,
        1 => Some(format!(
            "note: region {} is not orthogonally connected",
            labels[0]
        )),
        _ => {
            let names: Vec<String> = labels.iter().map(char::to_string).collect();
            Some(format!(
                "note: regions {} are not orthogonally connected",
                names.join(", ")
            ))
        }
    }
}

/// The line for one event, without indentation; boards give several lines.
pub fn event_text(event: &Event<'_>, layout: &Layout) -> String {
    match *event {
        Event::Placed { cell, digit, rule } => match rule {
            Rule::NakedSingle => format!("{} = {digit} (naked single)", cell_name(cell)),
            Rule::HiddenSingle(unit) => {
                format!("{} = {digit} (hidden single in {unit})", cell_name(cell))
            }
        },
        Event::Guess { cell, digit, depth } => {
            format!("guess {} = {digit} (depth {depth})", cell_name(cell))
        }
        Event::Backtrack { cell, digit, depth } => {
            format!("backtrack {} = {digit} (depth {depth})", cell_name(cell))
        }
        Event::Contradiction => "contradiction".to_string(),
        Event::Board(board) => {
            let drawing = if layout.is_standard() {
                standard_grid(board)
            } else {
                plain_grid(board)
            };
            format!(
                "board ({} of {CELLS} cells filled):\n{}",
                board.filled(),
                indent(&drawing, 2)
            )
        }
        Event::Solution(solution) => format!("solution {solution}"),
    }
}

/// Prefixes every line of `text` with `n` spaces (a trailing newline is dropped).
fn indent(text: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    text.lines()
        .map(|l| format!("{pad}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// An [`Observer`] that keeps the trace of a search as text lines, at most a chosen number;
/// events past that are counted, not kept.
#[derive(Debug, Clone)]
pub struct Trace<'a> {
    layout: &'a Layout,
    lines: Vec<String>,
    max_lines: usize,
    /// Lines of `lines`, counting each line of a board drawn.
    line_count: usize,
    omitted: u64,
    /// Guesses made and not yet taken back: the indentation level of the next line.
    open: usize,
}

impl<'a> Trace<'a> {
    /// An empty trace for a search under `layout`, keeping at most `max_lines` lines (a board
    /// drawn is as many lines as it takes; the first event that does not fit ends the trace).
    pub fn new(layout: &'a Layout, max_lines: usize) -> Trace<'a> {
        Trace {
            layout,
            lines: Vec::new(),
            max_lines,
            line_count: 0,
            omitted: 0,
            open: 0,
        }
    }

    /// The lines kept, in order, each indented two spaces per guess still open when it
    /// happened (for `fast` and `naive`, every level of search depth is one guess).
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// Events that came after the line limit was reached.
    pub fn omitted(&self) -> u64 {
        self.omitted
    }
}

impl Observer for Trace<'_> {
    fn event(&mut self, event: &Event<'_>) {
        // A guess is written at the level it is made, and opens one level below it; its
        // backtrack closes that level and is written at the guess's level.
        let level = match event {
            Event::Guess { .. } => {
                self.open += 1;
                self.open - 1
            }
            Event::Backtrack { .. } => {
                self.open = self.open.saturating_sub(1);
                self.open
            }
            _ => self.open,
        };
        if self.omitted > 0 {
            self.omitted += 1;
            return;
        }
        let text = indent(&event_text(event, self.layout), 2 * level);
        let lines = text.lines().count().max(1);
        if self.line_count + lines > self.max_lines {
            self.omitted += 1;
            return;
        }
        self.line_count += lines;
        self.lines.push(text);
    }
}

/// What the `show` report draws: a puzzle, how it was searched and what came of it.
#[derive(Debug, Clone, Copy)]
pub struct Report<'a> {
    /// The puzzle.
    pub puzzle: &'a Grid,
    /// Its regions.
    pub layout: &'a Layout,
    /// The search's options.
    pub options: &'a SolveOptions,
    /// The outcome of the search, or the conflict between givens that prevented it.
    pub outcome: &'a Result<Outcome, Conflict>,
    /// The independent checker's verdict on the solution shown (none for a partial grid).
    pub check: Option<&'a Result<(), Problem>>,
    /// The trace of the search, when asked for.
    pub trace: Option<&'a Trace<'a>>,
}

/// The whole `show` report: the puzzle, the layout note, algorithm and limits, status, the
/// solution (or partial grid) and the checker's verdict, every statistic, and the trace when
/// given.
pub fn report(report: &Report<'_>) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_report(&mut out, report);
    out
}

fn write_report(out: &mut String, report: &Report<'_>) -> std::fmt::Result {
    let Report {
        puzzle,
        layout,
        options,
        outcome,
        check,
        trace,
    } = *report;
    writeln!(out, "puzzle ({} givens):", puzzle.filled())?;
    out.push_str(&grid(puzzle, layout));
    if !layout.is_standard() {
        writeln!(out, "layout: jigsaw {}", layout.to_line())?;
    }
    if let Some(note) = disconnected_note(layout) {
        writeln!(out, "{note}")?;
    }
    writeln!(out)?;
    write!(
        out,
        "algorithm: {} (solution limit {}, ",
        options.algorithm, options.max_solutions
    )?;
    if options.max_recursions == u64::MAX {
        write!(out, "no recursion budget")?;
    } else {
        write!(out, "recursion budget {}", options.max_recursions)?;
    }
    writeln!(out, ", seed {})", options.seed)?;
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(conflict) => {
            writeln!(out, "status: invalid ({conflict})")?;
            return Ok(());
        }
    };
    writeln!(out, "status: {}", outcome.status)?;
    writeln!(out, "solutions found: {}", outcome.solutions)?;
    if let Some(solution) = &outcome.solution {
        let heading = match outcome.status {
            Status::Stuck => format!(
                "partial grid ({} of {CELLS} cells filled)",
                solution.filled()
            ),
            Status::Solved => "solution".to_string(),
            _ => "first solution".to_string(),
        };
        writeln!(out, "{heading}:")?;
        out.push_str(&grid(solution, layout));
        match check {
            Some(Ok(())) => writeln!(out, "check: valid")?,
            Some(Err(problem)) => writeln!(out, "check: INVALID ({problem})")?,
            None => {}
        }
    }
    let s = &outcome.stats;
    writeln!(out)?;
    writeln!(out, "statistics:")?;
    for (name, value) in [
        ("recursions", s.recursions),
        ("max depth", s.max_depth),
        ("guesses", s.guesses),
        ("backtracks", s.backtracks),
        ("naked singles", s.naked_singles),
        ("hidden singles", s.hidden_singles),
        ("givens", s.givens),
    ] {
        writeln!(out, "  {name:<15} {value}")?;
    }
    if let Some(trace) = trace {
        writeln!(out)?;
        writeln!(out, "trace:")?;
        for line in trace.lines() {
            writeln!(out, "  {line}")?;
        }
        if trace.omitted() > 0 {
            writeln!(
                out,
                "  ... {} more events not shown (limit {} lines)",
                trace.omitted(),
                trace.max_lines
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_data::PUZZLE;

    #[test]
    fn standard_grid_has_box_bars_and_band_lines() {
        let g: Grid = PUZZLE.parse().unwrap();
        let text = grid(&g, &Layout::standard());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "5 3 . | . 7 . | . . .");
        assert_eq!(lines[3], "------+-------+------");
        assert_eq!(lines[10], ". . . | . 8 . | . 7 9");
    }

    #[test]
    fn jigsaw_grid_draws_the_borders_of_its_regions() {
        // Box layout with r1c3 (box 1) and r1c4 (box 2) swapped between regions.
        let mut labels =
            *b"111222333111222333111222333444555666444555666444555666777888999777888999777888999";
        labels.swap(2, 3);
        let layout = Layout::parse(&labels).unwrap();
        let text = grid(&Grid::EMPTY, &layout);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 19);
        // r1c3 (now region 2) and r1c4 (now region 1) are each walled in on three sides.
        assert_eq!(lines[0], "+-------+---+---+-------+-----------+   regions");
        assert_eq!(
            lines[1],
            "| .   . | . | . | .   . | .   .   . |   1 1 2 1 2 2 3 3 3"
        );
        assert_eq!(lines[2], "|       +---+---+       |           |");
        assert_eq!(
            lines[3],
            "| .   .   . | .   .   . | .   .   . |   1 1 1 2 2 2 3 3 3"
        );
        assert_eq!(lines[6], "+-----------+-----------+-----------+");
        assert_eq!(lines[18], "+-----------+-----------+-----------+");
        assert_eq!(
            disconnected_note(&layout).as_deref(),
            Some("note: regions 1, 2 are not orthogonally connected")
        );
    }

    #[test]
    fn trace_lines_name_rules_units_and_depths() {
        let layout = Layout::standard();
        let mut trace = Trace::new(&layout, 100);
        trace.event(&Event::Placed {
            cell: 2,
            digit: 7,
            rule: Rule::NakedSingle,
        });
        trace.event(&Event::Placed {
            cell: 28,
            digit: 5,
            rule: Rule::HiddenSingle(crate::layout::UnitName::Column(2)),
        });
        trace.event(&Event::Guess {
            cell: 37,
            digit: 4,
            depth: 2,
        });
        trace.event(&Event::Contradiction);
        trace.event(&Event::Backtrack {
            cell: 37,
            digit: 4,
            depth: 2,
        });
        assert_eq!(
            trace.lines(),
            [
                "r1c3 = 7 (naked single)",
                "r4c2 = 5 (hidden single in column 2)",
                "guess r5c2 = 4 (depth 2)",
                "  contradiction",
                "backtrack r5c2 = 4 (depth 2)",
            ]
        );
    }

    #[test]
    fn trace_keeps_at_most_its_limit_and_counts_the_rest() {
        let layout = Layout::standard();
        let mut trace = Trace::new(&layout, 2);
        for _ in 0..5 {
            trace.event(&Event::Contradiction);
        }
        assert_eq!(trace.lines().len(), 2);
        assert_eq!(trace.omitted(), 3);
        // A board of 12 lines does not fit in 10: it and all after it are left out.
        let mut trace = Trace::new(&layout, 10);
        trace.event(&Event::Contradiction);
        trace.event(&Event::Board(&Grid::EMPTY));
        trace.event(&Event::Contradiction);
        assert_eq!(trace.lines().len(), 1);
        assert_eq!(trace.omitted(), 2);
        let mut trace = Trace::new(&layout, 13);
        trace.event(&Event::Contradiction);
        trace.event(&Event::Board(&Grid::EMPTY));
        assert_eq!(
            trace
                .lines()
                .iter()
                .map(|l| l.lines().count())
                .sum::<usize>(),
            13
        );
    }
}
