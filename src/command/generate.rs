//! `generate`: puzzles made by [`crate::generate`] on every core, written in index order to
//! standard output or to a file replaced only when every puzzle is written.
//!
//! Puzzle `i` depends only on the options and `i` ([`Generator::puzzle`]), and the puzzles are
//! written in index order, so the output is the same bytes for any thread count. They are made
//! in chunks of [`CHUNK`]; the interrupt flag is looked at between chunks and by the generator
//! before each attempt, so a run stops within an attempt of Ctrl-C however many attempts a
//! puzzle takes. An interrupted run to a file leaves neither the file nor a partial one (no
//! checkpoint describes it: nothing could resume it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::config::{GenerateRun, GeneratedFormat};
use super::{CommandError, Exit, say};
use crate::files::Output;
use crate::files::file_id::RunFiles;
use crate::format::columns::ColumnKind;
use crate::format::{Cell, RowWriter, Rows, Sink};
use crate::generate::{GenerateError, GenerateOptions, Generated, Generator, Regions};
use crate::grid::CELLS;
use crate::pipeline::RunError;
use crate::progress::Progress;

/// Puzzles made between two looks at the interrupt flag.
pub const CHUNK: u64 = 256;

/// The columns of `generate` rows (CSV, JSON lines).
pub const COLUMNS: &[&str] = &["index", "puzzle", "solution", "givens"];

/// The type of each of [`COLUMNS`].
const KINDS: &[ColumnKind] = &[
    ColumnKind::Count,
    ColumnKind::Text,
    ColumnKind::Text,
    ColumnKind::Count,
];

/// The columns added when a difficulty is asked for: the rating each puzzle was accepted with,
/// as `rate` writes it.
pub const RATING_COLUMNS: &[&str] = &["level", "score", "hardest"];

/// Sudoku Explainer's rating, with `--se`: ER, EP and ED.
pub const SE_COLUMNS: &[&str] = &["er", "ep", "ed"];

/// The type of each of [`RATING_COLUMNS`].
const RATING_KINDS: &[ColumnKind] = &[ColumnKind::Text, ColumnKind::Count, ColumnKind::Text];

/// Makes the puzzles and writes them; the output is replaced only when all are written. A
/// reader that goes away (`| head`) ends the run quietly, as it does every command's.
pub fn run(run: &GenerateRun, interrupt: &AtomicBool) -> Result<Exit, CommandError> {
    match make_and_write(run, interrupt) {
        Err(CommandError::Run(e)) if e.is_broken_pipe() => Ok(Exit::Success),
        other => other,
    }
}

fn make_and_write(run: &GenerateRun, interrupt: &AtomicBool) -> Result<Exit, CommandError> {
    let started = Instant::now();
    let generator = Generator::new(run.options.clone())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.threads)
        .thread_name(|i| format!("sudoku-bulk-{i}"))
        .build()
        .map_err(|e| RunError::Threads(e.to_string()))?;
    let jigsaw = is_jigsaw(&run.options.regions);
    let rows = match run.format {
        GeneratedFormat::Line => None,
        GeneratedFormat::Rows(format) => {
            let (columns, kinds) = columns(&run.options);
            Some(RowWriter::new(format, columns, kinds).compressing(run.parquet_compression))
        }
    };
    let mut files = RunFiles::new();
    files.output("-o", &run.output)?;
    files.layout_file(run.layout_file.as_deref())?;
    let mut output = Output::open(&run.output)?;
    // Puzzles are not checkpointed: a run stopped at once removes its partial file.
    output.unresumable();
    let name = output.name().to_string();
    let write_error = |source| {
        CommandError::Run(RunError::Write {
            name: name.clone(),
            source,
        })
    };
    let mut progress = Progress::new(Some(run.count), !run.quiet, 0);
    let mut givens = (usize::MAX, 0usize, 0u64);
    let mut next = 0;
    let mut stopped = false;
    {
        // The header row, or a Parquet file's magic bytes; the line format has neither.
        let mut sink = match &rows {
            Some(rows) => rows
                .start(output.writer(), false, &[])
                .map_err(write_error)?,
            None => Sink::text(output.writer()),
        };
        while next < run.count && !stopped {
            if interrupt.load(Ordering::Relaxed) {
                break;
            }
            let end = (next + chunk(&generator)).min(run.count);
            let made = make(&generator, &pool, next..end, interrupt);
            let mut batch = match &rows {
                Some(rows) => rows.rows(made.len()),
                None => Rows::Text(Vec::with_capacity(made.len() * (2 * CELLS + 2))),
            };
            for generated in made {
                let generated = match generated {
                    Err(GenerateError::Interrupted { .. }) => {
                        stopped = true;
                        break;
                    }
                    other => other?,
                };
                let n = generated.givens();
                givens = (givens.0.min(n), givens.1.max(n), givens.2 + n as u64);
                write_puzzle(rows.as_ref(), next, &generated, jigsaw, &mut batch);
                next += 1;
            }
            sink.write(batch).map_err(write_error)?;
            progress.update(next, next);
        }
        if next == run.count {
            sink.finish().map_err(write_error)?;
        }
    }
    if next < run.count {
        progress.finish();
        return Ok(interrupted(output, next));
    }
    progress.finish();
    match output.finish() {
        Err(e) if e.is_broken_pipe() => return Ok(Exit::Success),
        other => other?,
    }
    if !run.quiet {
        let seconds = started.elapsed().as_secs_f64();
        let givens = match run.count {
            0 => String::new(),
            n => format!(
                ": givens {} to {}, mean {:.2}",
                givens.0,
                givens.1,
                givens.2 as f64 / n as f64
            ),
        };
        say(&format!(
            "{} in {seconds:.2} s ({:.0} puzzles/s){givens}",
            super::counted(run.count, "puzzle", "puzzles"),
            run.count as f64 / seconds.max(1e-9),
        ));
    }
    Ok(Exit::Success)
}

/// Whether the puzzles of `regions` are jigsaws (their rows end with a `regions` column).
pub fn is_jigsaw(regions: &Regions) -> bool {
    match regions {
        Regions::Standard => false,
        Regions::Layout(layout) => !layout.is_standard(),
        Regions::RandomJigsaw { .. } => true,
    }
}

/// The columns of `generate` rows and their types: [`COLUMNS`], [`RATING_COLUMNS`] when the
/// options ask for a difficulty, [`SE_COLUMNS`] for an SE rating, and `regions` for jigsaws.
pub fn columns(options: &GenerateOptions) -> (Vec<String>, Vec<ColumnKind>) {
    let mut columns: Vec<String> = COLUMNS.iter().map(|c| c.to_string()).collect();
    let mut kinds = KINDS.to_vec();
    if options.difficulty.is_set() {
        columns.extend(RATING_COLUMNS.iter().map(|c| c.to_string()));
        kinds.extend_from_slice(RATING_KINDS);
    }
    if options.difficulty.se.is_some() {
        columns.extend(SE_COLUMNS.iter().map(|c| c.to_string()));
        kinds.extend_from_slice(&[ColumnKind::Tenths; 3]);
    }
    if is_jigsaw(&options.regions) {
        columns.push(crate::format::csv::REGIONS_NAME.to_string());
        kinds.push(ColumnKind::Text);
    }
    (columns, kinds)
}

/// The rows of puzzles `indexes`, made on `pool` and written by `rows` in index order (the
/// Python package's `generate`, a chunk at a time; with a Parquet writer, columns).
pub fn rows_of(
    generator: &Generator,
    pool: &rayon::ThreadPool,
    indexes: std::ops::Range<u64>,
    rows: &RowWriter,
) -> Result<Rows, crate::generate::GenerateError> {
    let jigsaw = is_jigsaw(&generator.options().regions);
    let made = make(generator, pool, indexes.clone(), &AtomicBool::new(false));
    let mut out = rows.rows(made.len());
    for (index, generated) in indexes.zip(made) {
        write_puzzle(Some(rows), index, &generated?, jigsaw, &mut out);
    }
    Ok(out)
}

/// Puzzles made a chunk at a time: about [`CHUNK`], whole families (none is made twice).
pub fn chunk(generator: &Generator) -> u64 {
    let size = generator.family_size();
    CHUNK.div_ceil(size) * size
}

/// Puzzles `indexes` in index order, made on `pool` a family at a time (see
/// [`Generator::family_unless`]): a family the range cuts is made up to the range's end, and
/// one it starts inside of from its first puzzle. A failure ends the list.
fn make(
    generator: &Generator,
    pool: &rayon::ThreadPool,
    indexes: std::ops::Range<u64>,
    stop: &AtomicBool,
) -> Vec<Result<Generated, GenerateError>> {
    let size = generator.family_size();
    let families = indexes.start / size..indexes.end.div_ceil(size);
    let made: Vec<_> = pool.install(|| {
        families
            .clone()
            .into_par_iter()
            .map(|f| {
                let count = (indexes.end - f * size).min(size) as usize;
                generator.family_unless(f, count, stop)
            })
            .collect()
    });
    let mut puzzles = Vec::with_capacity((indexes.end - indexes.start) as usize);
    for (f, family) in families.zip(made) {
        match family {
            Ok(members) => puzzles.extend(
                (f * size..)
                    .zip(members)
                    .filter(|(i, _)| *i >= indexes.start)
                    .map(|(_, g)| Ok(g)),
            ),
            Err(e) => {
                puzzles.push(Err(e));
                break;
            }
        }
    }
    puzzles
}

/// Appends one puzzle: `PUZZLE SOLUTION` in the line format, else a row.
fn write_puzzle(
    rows: Option<&RowWriter>,
    index: u64,
    generated: &Generated,
    jigsaw: bool,
    out: &mut Rows,
) {
    let (mut puzzle, mut solution) = ([0u8; CELLS], [0u8; CELLS]);
    generated.puzzle.write_line(&mut puzzle);
    generated.solution.write_line(&mut solution);
    let Some(rows) = rows else {
        let Rows::Text(out) = out else {
            unreachable!("the line format is text")
        };
        out.extend_from_slice(&puzzle);
        out.push(b' ');
        out.extend_from_slice(&solution);
        out.push(b'\n');
        return;
    };
    let regions = jigsaw.then(|| generated.layout.to_line());
    let cells = [
        Cell::Int(index),
        Cell::Plain(&puzzle),
        Cell::Plain(&solution),
        Cell::Int(generated.givens() as u64),
    ];
    let rating = generated.rating.map(|r| {
        [
            Cell::Plain(r.level.name().as_bytes()),
            Cell::Int(r.score.into()),
            r.hardest.map_or(Cell::Null, |t| Cell::Text(t.key())),
        ]
    });
    let se = generated
        .rating
        .and_then(|r| r.se)
        .map(|se| [se.er, se.ep, se.ed].map(|t| Cell::Tenths(t.into())));
    rows.row(
        cells
            .into_iter()
            .chain(rating.into_iter().flatten())
            .chain(se.into_iter().flatten())
            .chain(regions.as_deref().map(|r| Cell::Plain(r.as_bytes()))),
        out,
    );
}

/// An interrupted run: a file output is not replaced; rows already sent to a stream stay.
fn interrupted(output: Output, made: u64) -> Exit {
    let made = super::counted(made, "puzzle", "puzzles");
    if output.replaces_file() {
        say(&format!(
            "interrupted after {made}; {} was not written",
            output.name()
        ));
    } else {
        let _ = output.finish();
        say(&format!("interrupted after {made}"));
    }
    Exit::Interrupted
}
