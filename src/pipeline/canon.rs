//! The canon job: each record's canonical form ([`crate::canon`]), and with `--dedupe` only the
//! first record of each class written, decided in input order as the rows are written.
//!
//! # Deduplication
//! Batches compute forms in parallel and note, for each row, where it ends in their bytes and
//! the 128-bit digest of its form ([`crate::canon::Canonical::digest`]). The writer, which sees
//! the batches in input order, keeps the set of digests seen ([`Dedupe`]): a row whose digest is
//! new is written and its record becomes the first of its class; a later one is left out and
//! reported to [`super::Events::duplicate`] with the first record of its class. Rows of records
//! without a form (`invalid`) are always written. So the output is the same for any thread
//! count, and two records are one class exactly when their digests agree (see the digest for
//! the odds that two classes share one).
//!
//! Memory: one entry per class, a digest and where its first record is: 32 bytes and a control
//! byte, which the hash table's spare room (it grows by doubling, at most 7/8 full) makes 38 to
//! 75 bytes, and up to 113 while it grows (the old table and the new one, twice its size, are
//! held together for a moment): 40 to 115 bytes a class in all. The set is
//! bounded by [`DedupeOptions::max_classes`]; one class more ends the run with
//! [`RunError::TooManyClasses`].

use std::collections::HashMap;

use super::error::RunError;
use crate::canon::{CanonError, Canonicaliser};
use crate::format::columns::ColumnKind;
use crate::format::{Cell, Record};
use crate::grid::{CELLS, Grid};
use crate::layout::Layout;
use crate::row::{RowStatus, Status as _};

/// The columns of a canon row (after `file`, before the kept columns).
pub(crate) const COLUMNS: &[&str] = &["line", "puzzle", "canonical", "status", "error"];

/// The type of each of [`COLUMNS`].
pub(crate) const KINDS: &[ColumnKind] = &[
    ColumnKind::Count,
    ColumnKind::Text,
    ColumnKind::Text,
    ColumnKind::Text,
    ColumnKind::Text,
];

/// How `canon` handles its records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CanonOptions {
    /// Write only the first record of each class; `None`: every record.
    pub dedupe: Option<DedupeOptions>,
}

/// What `--dedupe` takes for one class, and its bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DedupeOptions {
    /// Classes remembered at most; one more ends the run.
    pub max_classes: u64,
    /// A class holds identical puzzles only (their blanks written `.` or `0` alike), not every
    /// puzzle of one canonical form (`--exact`).
    pub exact: bool,
    /// Write the records kept as they were in the input (`--as-input`): its lines, or its CSV
    /// header and rows with every column; not canon rows.
    pub as_input: bool,
}

/// Why `--as-input` cannot write an input's records as they were.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AsInputError {
    /// Grid and Parquet records have no text of their own to write.
    #[error(
        "{format} records cannot be written as they were (only line, CSV and JSON-lines \
         records can); leave out --as-input to write canon rows, which can carry the input's \
         columns (--keep-columns)"
    )]
    Format {
        /// The input's format.
        format: &'static str,
    },
    /// An input of another format than the first.
    #[error(
        "its records are {format} but those of {first} are {first_format}: the records of one \
         output are of one format"
    )]
    Mixed {
        /// The input's format.
        format: &'static str,
        /// The first input's name.
        first: String,
        /// The first input's format.
        first_format: &'static str,
    },
    /// A CSV input whose header differs from the first's.
    #[error("its header differs from that of {first}: the rows of one output share one header")]
    Header {
        /// The first input's name.
        first: String,
    },
    /// A record too long to be held whole.
    #[error(
        "line {line}: the record is longer than {limit} bytes, so it was not held whole and \
         cannot be written as it was"
    )]
    TooLong {
        /// The record's line.
        line: u64,
        /// The limit.
        limit: usize,
    },
}

impl DedupeOptions {
    /// The default bound: ten million classes, at most about 1.15 GB.
    pub const DEFAULT_MAX_CLASSES: u64 = super::settings::DEFAULT_MAX_CLASSES;
}

/// The result for one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CanonRow {
    /// `ok` or `invalid`.
    pub status: RowStatus,
    /// The puzzle, when it could be read.
    pub puzzle: Option<Grid>,
    /// Its canonical form and the form's digest.
    pub canonical: Option<(Grid, u128)>,
    /// Why the record has no form.
    pub error: Option<String>,
}

impl CanonRow {
    fn invalid(puzzle: Option<Grid>, error: impl ToString) -> Self {
        CanonRow {
            status: RowStatus::Invalid,
            puzzle,
            canonical: None,
            error: Some(error.to_string()),
        }
    }

    /// The row's cells in [`COLUMNS`] order; `text` holds the grids written out.
    pub fn cells<'a>(&'a self, line: u64, text: &'a mut [[u8; CELLS]; 2]) -> [Cell<'a>; 5] {
        let [puzzle_text, form_text] = text;
        let grid = |grid: Option<&Grid>, text: &'a mut [u8; CELLS]| match grid {
            Some(grid) => {
                grid.write_line(text);
                Cell::Plain(&text[..])
            }
            None => Cell::Null,
        };
        [
            Cell::Int(line),
            grid(self.puzzle.as_ref(), puzzle_text),
            grid(self.canonical.as_ref().map(|(g, _)| g), form_text),
            Cell::Plain(self.status.name().as_bytes()),
            self.error.as_deref().map_or(Cell::Null, Cell::Text),
        ]
    }
}

/// The canonical form of one record's puzzle: `invalid` when the record or its layout cannot be
/// read, the givens conflict, or the layout is a jigsaw.
pub(crate) fn handle(
    record: &Record,
    layout: &Layout,
    canonicaliser: &mut Canonicaliser,
) -> CanonRow {
    if let Some(defect) = &record.defect {
        return CanonRow::invalid(None, defect);
    }
    let puzzle = match Grid::parse(&record.puzzle) {
        Ok(puzzle) => puzzle,
        Err(e) => return CanonRow::invalid(None, e),
    };
    let layout = match super::pool::record_layout(record, layout) {
        Ok(layout) => layout,
        Err(e) => return CanonRow::invalid(Some(puzzle), e),
    };
    match canonicaliser.canonical(&puzzle, &layout) {
        Ok(canonical) => CanonRow {
            status: RowStatus::Ok,
            puzzle: Some(puzzle),
            canonical: Some((canonical.form, canonical.digest())),
            error: None,
        },
        Err(e @ (CanonError::JigsawLayout | CanonError::Conflict(_))) => {
            CanonRow::invalid(Some(puzzle), e)
        }
    }
}

impl CanonRow {
    /// The digest that names the row's class: of its canonical form, or with `exact` of its
    /// puzzle as read (blanks normalised); `None` for a record without a form, always written.
    pub(crate) fn class(&self, exact: bool) -> Option<u128> {
        let (form, digest) = self.canonical.as_ref()?;
        if !exact {
            return Some(*digest);
        }
        Some(crate::canon::form_digest(
            self.puzzle.as_ref().unwrap_or(form),
        ))
    }
}

/// Where one row of a batch ends in its bytes, and what decides whether it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RowClass {
    /// The end of the row in the batch's bytes.
    pub end: usize,
    /// The digest of the record's form; `None`: no form, always written.
    pub digest: Option<u128>,
    /// The record's input (index) and line.
    pub source: usize,
    /// The record's line.
    pub line: u64,
}

/// The classes seen so far, with the first record of each.
#[derive(Debug)]
pub(super) struct Dedupe {
    first: HashMap<u128, (usize, u64)>,
    max_classes: u64,
}

/// What to do with one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Write it: the first of its class, or a record without a form.
    Write,
    /// Leave it out: an earlier record (input, line) is of its class.
    Duplicate {
        /// The first record's input.
        source: usize,
        /// The first record's line.
        line: u64,
    },
}

impl Dedupe {
    pub fn new(options: DedupeOptions) -> Dedupe {
        Dedupe {
            first: HashMap::new(),
            max_classes: options.max_classes,
        }
    }

    /// The verdict on `row`, the next row in input order; it becomes the first of its class
    /// when its class is new.
    pub fn judge(&mut self, row: &RowClass) -> Result<Verdict, RunError> {
        let Some(digest) = row.digest else {
            return Ok(Verdict::Write);
        };
        if let Some(&(source, line)) = self.first.get(&digest) {
            return Ok(Verdict::Duplicate { source, line });
        }
        if self.first.len() as u64 >= self.max_classes {
            return Err(RunError::TooManyClasses {
                limit: self.max_classes,
            });
        }
        self.first.insert(digest, (row.source, row.line));
        Ok(Verdict::Write)
    }

    /// The rows of a batch to write, judged in order (`classes`: where each row ends, in bytes
    /// or in rows), as runs of consecutive rows; each row left out is given to `duplicate`
    /// with the first record (input, line) of its class.
    pub fn runs(
        &mut self,
        classes: &[RowClass],
        mut duplicate: impl FnMut(&RowClass, usize, u64),
    ) -> Result<Vec<std::ops::Range<usize>>, RunError> {
        let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
        let mut start = 0;
        for row in classes {
            match self.judge(row)? {
                Verdict::Write => match runs.last_mut() {
                    Some(run) if run.end == start => run.end = row.end,
                    _ => runs.push(start..row.end),
                },
                Verdict::Duplicate { source, line } => duplicate(row, source, line),
            }
            start = row.end;
        }
        Ok(runs)
    }

    /// Classes seen.
    pub fn classes(&self) -> u64 {
        self.first.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canon::Transform;
    use crate::rng::SplitMix64;
    use crate::test_data::PUZZLE;

    fn record(text: &str) -> Record {
        Record {
            line: 1,
            puzzle: text.as_bytes().to_vec(),
            ..Record::default()
        }
    }

    #[test]
    fn a_puzzle_and_its_disguise_get_one_form() {
        let mut c = Canonicaliser::new();
        let layout = Layout::standard();
        let plain = handle(&record(PUZZLE), &layout, &mut c);
        let disguise = Transform::random(&mut SplitMix64::new(1)).apply(&PUZZLE.parse().unwrap());
        let moved = handle(&record(&disguise.to_line()), &layout, &mut c);
        assert_eq!(plain.status, RowStatus::Ok);
        assert_eq!(plain.canonical, moved.canonical);
        assert_ne!(plain.puzzle, moved.puzzle);
    }

    #[test]
    fn an_exact_class_holds_one_puzzle_with_its_blanks_written_either_way() {
        let mut c = Canonicaliser::new();
        let layout = Layout::standard();
        let plain = handle(&record(PUZZLE), &layout, &mut c);
        let zeros = handle(&record(&PUZZLE.replace('.', "0")), &layout, &mut c);
        let disguise = Transform::random(&mut SplitMix64::new(1)).apply(&PUZZLE.parse().unwrap());
        let moved = handle(&record(&disguise.to_line()), &layout, &mut c);
        assert_eq!(plain.class(true), zeros.class(true));
        assert_ne!(plain.class(true), moved.class(true));
        assert_eq!(plain.class(false), moved.class(false));
        assert_ne!(plain.class(true), plain.class(false));
        let short = handle(&record(&PUZZLE[1..]), &layout, &mut c);
        assert_eq!((short.class(true), short.class(false)), (None, None));
    }

    #[test]
    fn unreadable_conflicting_and_jigsaw_records_are_invalid() {
        let mut c = Canonicaliser::new();
        let layout = Layout::standard();
        let short = handle(&record(&PUZZLE[1..]), &layout, &mut c);
        assert_eq!(short.status, RowStatus::Invalid);
        assert_eq!(short.error.as_deref(), Some("expected 81 cells, found 80"));
        let clash = handle(&record(&format!("55{}", &PUZZLE[2..])), &layout, &mut c);
        assert_eq!(
            clash.error.as_deref(),
            Some("no canonical form: digit 5 twice in row 1: r1c1 and r1c2")
        );
        let jigsaw = crate::generate::random_layout(1, 30);
        let row = handle(&record(PUZZLE), &jigsaw, &mut c);
        assert_eq!(row.status, RowStatus::Invalid);
        assert!(row.error.unwrap().contains("jigsaw"));
    }

    #[test]
    fn dedupe_keeps_the_first_of_each_class_and_stops_at_its_bound() {
        let mut dedupe = Dedupe::new(DedupeOptions {
            max_classes: 2,
            exact: false,
            as_input: false,
        });
        let row = |digest, line| RowClass {
            end: 0,
            digest,
            source: 0,
            line,
        };
        assert_eq!(dedupe.judge(&row(Some(7), 1)).unwrap(), Verdict::Write);
        assert_eq!(dedupe.judge(&row(None, 2)).unwrap(), Verdict::Write);
        assert_eq!(
            dedupe.judge(&row(Some(7), 3)).unwrap(),
            Verdict::Duplicate { source: 0, line: 1 }
        );
        assert_eq!(dedupe.judge(&row(Some(8), 4)).unwrap(), Verdict::Write);
        assert_eq!(dedupe.classes(), 2);
        assert!(matches!(
            dedupe.judge(&row(Some(9), 5)),
            Err(RunError::TooManyClasses { limit: 2 })
        ));
    }
}
