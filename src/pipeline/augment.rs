//! The augment job: for each record, `K` random puzzles equivalent to it under the Sudoku
//! symmetry group ([`crate::canon::Transform`]: transposition, bands, rows within bands,
//! stacks, columns within stacks, digit relabelling), each with its solution transformed alike
//! when the record has one, and the transformation that made it.
//!
//! # Reproducible
//! The copies of a record are drawn from its own generator, seeded with the run's seed, the
//! record's input (its index among the inputs) and its line
//! ([`crate::rng::SplitMix64::output_at`] twice): the same bytes for any thread count, any
//! chunking, and after `--resume`.
//!
//! # Checked sources
//! A record whose givens conflict is `invalid`, and with `solutions` one whose solution is
//! missing or does not solve its puzzle ([`crate::verify::verify`]): a copy is only as good as
//! its source.
//!
//! # Distinct copies
//! With `distinct`, a copy equal (as a puzzle) to an earlier copy of the same record is drawn
//! again, up to [`DISTINCT_DRAWS`] draws a copy; a puzzle whose symmetries leave fewer than `K`
//! different copies (an empty grid has one) gets fewer rows, never an endless loop.

use super::pool::record_layout;
use crate::canon::Transform;
use crate::format::columns::ColumnKind;
use crate::format::{Cell, Record};
use crate::grid::{CELLS, Grid};
use crate::layout::Layout;
use crate::rng::SplitMix64;
use crate::row::{RowStatus, Status as _};
use crate::verify;

/// The columns of an augment row (after `file`, before the kept columns).
pub(crate) const COLUMNS: &[&str] = &[
    "line",
    "copy",
    "puzzle",
    "solution",
    "transform",
    "status",
    "error",
];

/// The type of each of [`COLUMNS`].
pub(crate) const KINDS: &[ColumnKind] = &[
    ColumnKind::Count,
    ColumnKind::Count,
    ColumnKind::Text,
    ColumnKind::Text,
    ColumnKind::Text,
    ColumnKind::Text,
    ColumnKind::Text,
];

/// Draws a copy may take with `distinct` before the record is left with fewer copies.
pub const DISTINCT_DRAWS: u32 = 64;

/// The most copies a record may be asked for: a record's copies are made and held together, as
/// one row each (about 250 bytes of CSV), so a record of `K` copies takes about `K` rows of
/// memory while it is handled.
pub const MAX_COPIES: u32 = 1000;

/// How `augment` handles its records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AugmentOptions {
    /// Copies written per record.
    pub copies: u32,
    /// The seed the copies are drawn from.
    pub seed: u64,
    /// Copies of one record pairwise different puzzles.
    pub distinct: bool,
    /// Read a solution with each puzzle and transform it too.
    pub solutions: bool,
}

/// One copy: the transformation and what it made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Copy {
    pub transform: Transform,
    pub puzzle: Grid,
    pub solution: Option<Grid>,
}

/// The copies of one record, or why it has none (`invalid`).
pub(crate) type Copies = Result<Vec<Copy>, (Option<Grid>, String)>;

/// The copies of `record` (input number `source`).
pub(crate) fn handle(
    record: &Record,
    source: usize,
    layout: &Layout,
    options: &AugmentOptions,
) -> Copies {
    if let Some(defect) = &record.defect {
        return Err((None, defect.to_string()));
    }
    let puzzle = Grid::parse(&record.puzzle).map_err(|e| (None, e.to_string()))?;
    let layout = record_layout(record, layout).map_err(|e| (Some(puzzle), e.to_string()))?;
    if !layout.is_standard() {
        return Err((
            Some(puzzle),
            "augment: the symmetry group moves bands and stacks, defined for the 3x3 boxes \
             only, not for jigsaw regions"
                .to_string(),
        ));
    }
    // Copies of a puzzle no solution can have are no training data: refused as every command
    // refuses them.
    let invalid = |e: &dyn std::fmt::Display| (Some(puzzle), e.to_string());
    layout.check_givens(&puzzle).map_err(|e| invalid(&e))?;
    let solution = match options.solutions {
        false => None,
        true => {
            // As `verify` reads and checks it: a copy's solution is one of the copy.
            let Some(text) = record.solution.as_deref() else {
                return Err(invalid(&super::verify::NO_SOLUTION));
            };
            let solution = Grid::parse(text).map_err(|e| invalid(&format!("the solution: {e}")))?;
            verify::verify(&puzzle, &solution, &layout)
                .map_err(|e| invalid(&format!("the solution: {e}")))?;
            Some(solution)
        }
    };
    let mut rng = SplitMix64::new(SplitMix64::output_at(
        SplitMix64::output_at(options.seed, source as u64),
        record.line,
    ));
    let mut copies: Vec<Copy> = Vec::with_capacity(options.copies as usize);
    'copies: for _ in 0..options.copies {
        for _ in 0..DISTINCT_DRAWS {
            let transform = Transform::random(&mut rng);
            let copy = transform.apply(&puzzle);
            if options.distinct && copies.iter().any(|c| c.puzzle == copy) {
                continue;
            }
            copies.push(Copy {
                transform,
                puzzle: copy,
                solution: solution.map(|s| transform.apply(&s)),
            });
            continue 'copies;
        }
        // Every draw repeated an earlier copy: the puzzle has few different copies.
        break;
    }
    Ok(copies)
}

impl Copy {
    /// The row's cells in [`COLUMNS`] order; `text` holds the grids and the transformation
    /// written out.
    pub fn cells<'a>(
        &self,
        line: u64,
        copy: u64,
        text: &'a mut ([[u8; CELLS]; 2], String),
    ) -> [Cell<'a>; 7] {
        let (grids, transform) = text;
        let [puzzle, solution] = grids;
        self.puzzle.write_line(puzzle);
        if let Some(s) = &self.solution {
            s.write_line(solution);
        }
        *transform = self.transform.to_string();
        [
            Cell::Int(line),
            Cell::Int(copy),
            Cell::Plain(&puzzle[..]),
            match self.solution {
                Some(_) => Cell::Plain(&solution[..]),
                None => Cell::Null,
            },
            Cell::Text(transform.as_str()),
            Cell::Plain(RowStatus::Ok.name().as_bytes()),
            Cell::Null,
        ]
    }
}

/// The one row of a record without copies.
pub(crate) fn invalid_cells<'a>(
    line: u64,
    puzzle: Option<&Grid>,
    error: &'a str,
    text: &'a mut [u8; CELLS],
) -> [Cell<'a>; 7] {
    let puzzle = match puzzle {
        Some(p) => {
            p.write_line(text);
            Cell::Plain(&text[..])
        }
        None => Cell::Null,
    };
    [
        Cell::Int(line),
        Cell::Null,
        puzzle,
        Cell::Null,
        Cell::Null,
        Cell::Plain(RowStatus::Invalid.name().as_bytes()),
        Cell::Text(error),
    ]
}
