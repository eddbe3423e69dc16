//! The commands beside `solve` and `verify`: `rate`, `canon`, `augment` and `generate`, each
//! the library's run of the command line (the same job, pool and rows), its arguments checked
//! and converted here, its rows handed back as a pyarrow.Table; and `show`, its report as a str.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString, PyTuple};

use sudoku_bulk::Grid;
use sudoku_bulk::command::config::{DEFAULT_MAX_RECURSIONS, DEFAULT_TRACE_LINES, MAX_TRACE_LINES};
use sudoku_bulk::command::generate::{chunk, columns, rows_of};
use sudoku_bulk::command::show::ShowOptions;
use sudoku_bulk::format::{OutputFormat, RowWriter, Rows};
use sudoku_bulk::generate::{
    Difficulty, DifficultyError, ErRange, GenerateOptions, Generator, GivensRange, LevelRange,
    Regions, ScoreRange, Symmetry, parse_techniques,
};
use sudoku_bulk::pipeline::{
    AugmentOptions, CanonOptions, DedupeOptions, Job, MAX_COPIES, RatingOptions, RecordSource,
    Scale,
};
use sudoku_bulk::rate::CandidatesShown;

use crate::arguments::{count, flag, layout_of, records, settings, text, threads_of};
use crate::errors::{pythonic, type_name};
use crate::puzzles::{solutions_for, texts};
use crate::rows::{Gathered, table};

/// The jigsaw layouts `generate(regions="random")` makes: from the boxes by this many swaps, as
/// the command line's `--regions random`.
const RANDOM_LAYOUT_SWAPS: usize = 40;

// The signatures below write the command line's defaults as literals (so that `help()` shows
// them): they must stay the library's.
const _: () = assert!(DedupeOptions::DEFAULT_MAX_CLASSES == 10_000_000);

/// The job of `rate` and `rate_file`: its options checked.
pub(crate) fn rate_job(
    max_recursions: Option<&Bound<'_, PyAny>>,
    scale: Option<&Bound<'_, PyAny>>,
    invariant: Option<&Bound<'_, PyAny>>,
) -> PyResult<Job> {
    Ok(Job::Rate(RatingOptions {
        max_recursions: count("max_recursions", max_recursions, DEFAULT_MAX_RECURSIONS, 1)?,
        scale: text("scale", scale)?
            .as_deref()
            .unwrap_or("hodoku")
            .parse()
            .map_err(|e| PyValueError::new_err(format!("scale: {e}")))?,
        invariant: flag("invariant", invariant, false)?,
    }))
}

/// The job of `canon` and `canon_file`: its options checked.
pub(crate) fn canon_job(
    dedupe: Option<&Bound<'_, PyAny>>,
    exact: Option<&Bound<'_, PyAny>>,
    max_classes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Job> {
    let dedupe = flag("dedupe", dedupe, false)?;
    let max_classes = count(
        "max_classes",
        max_classes,
        DedupeOptions::DEFAULT_MAX_CLASSES,
        1,
    )?;
    let exact = flag("exact", exact, false)?;
    if !dedupe && exact {
        return Err(PyValueError::new_err(
            "exact: only with dedupe=True (it says which puzzles are one class)",
        ));
    }
    if !dedupe && max_classes != DedupeOptions::DEFAULT_MAX_CLASSES {
        return Err(PyValueError::new_err(
            "max_classes: only with dedupe=True (it bounds the classes remembered)",
        ));
    }
    Ok(Job::Canon(CanonOptions {
        dedupe: dedupe.then_some(DedupeOptions {
            max_classes,
            exact,
            // Rows have no input text to write as it was: they are columns.
            as_input: false,
        }),
    }))
}

/// The job of `augment` and `augment_file`: its options checked; `solutions`, whether the
/// records have solutions to transform alike.
pub(crate) fn augment_job(
    copies: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    distinct: Option<&Bound<'_, PyAny>>,
    solutions: bool,
) -> PyResult<Job> {
    Ok(Job::Augment(AugmentOptions {
        copies: u32::try_from(count("copies", copies, 1, 1)?)
            .ok()
            .filter(|&k| k <= MAX_COPIES)
            .ok_or_else(|| PyValueError::new_err(format!("copies must be at most {MAX_COPIES}")))?,
        seed: count("seed", seed, 0, 0)?,
        distinct: flag("distinct", distinct, false)?,
        solutions,
    }))
}

/// Rate puzzles held in memory for a person, as `sudoku-bulk rate` does: on HoDoKu's scale
/// (techniques, scores and levels), or with `scale='se'` on Sudoku Explainer's (ER, EP, ED).
///
/// One row per puzzle comes back, in input order, with the columns and types of the command
/// line's `rate` output in Parquet: `line` (the puzzle's position in `puzzles`, from 1),
/// `puzzle`, `status` ('rated'; 'multiple', 'unsolvable' or 'gave_up' for a puzzle that has
/// no one solution; 'invalid'), `level`, `score`, `hardest`, the steps of each technique
/// family, `techniques` and `error`; a `regions` column follows when `regions` gives each
/// puzzle its own layout. With `scale='se'`: `line`, `puzzle`, `status`, `er`, `ep`, `ed`,
/// `er_at_least` (floats), `hardest`, `steps`, `error`, as `rate --scale se` writes them.
///
/// puzzles: any of the kinds `solve` takes.
/// max_recursions: the budget per puzzle of the search that tells a puzzle with one solution
///     (rated) from one with several; past it the status is 'gave_up'.
/// scale: 'hodoku' (the default) or 'se'.
/// invariant: rate each puzzle's canonical form, so that equivalent puzzles (relabelled, rows
///     and columns swapped, transposed: `augment`'s copies) get the same rating.
/// regions, threads: as for `solve`.
///
/// Returns a pyarrow.Table.
///
/// >>> import sudoku_bulk
/// >>> t = sudoku_bulk.rate(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"])
/// >>> t.column("level").to_pylist(), t.column("status").to_pylist()
/// (['easy'], ['rated'])
#[pyfunction]
#[pyo3(
    signature = (puzzles, *, max_recursions=None, scale=None, invariant=None, regions=None, threads=None),
    text_signature = "(puzzles, *, max_recursions=10000000, scale='hodoku', invariant=False, regions=None, threads=None)"
)]
pub(crate) fn rate<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    max_recursions: Option<&Bound<'py, PyAny>>,
    scale: Option<&Bound<'py, PyAny>>,
    invariant: Option<&Bound<'py, PyAny>>,
    regions: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let job = rate_job(max_recursions, scale, invariant)?;
    crate::rows_of_puzzles(py, job, puzzles, regions, threads)
}

/// The canonical (minlex) form of puzzles held in memory, as `sudoku-bulk canon` writes it.
///
/// One row per puzzle comes back, in input order, with the columns and types of the command
/// line's `canon` output in Parquet: `line` (the puzzle's position in `puzzles`, from 1),
/// `puzzle`, `canonical` (the least of the forms that relabelling digits, permuting bands,
/// stacks, rows and columns within them, and transposing give), `status` ('ok' or 'invalid')
/// and `error`. Puzzles with the same canonical form are the same puzzle in disguise.
///
/// puzzles: any of the kinds `solve` takes (standard 3x3 boxes only: canonical forms are not
///     defined for jigsaws).
/// dedupe: keep only the first puzzle of each class (the puzzles that share a canonical
///     form), in input order; a puzzle without a form (invalid) is always kept. `line` says
///     where each kept puzzle was.
/// exact: with `dedupe`, a class holds identical puzzles only (blanks '.' or '0' alike), not
///     every puzzle of one canonical form, as `canon --dedupe --exact`.
/// max_classes: with `dedupe`, the most classes remembered (each takes 40 to 115 bytes);
///     one more raises ValueError, as `canon --max-classes`.
/// threads: as for `solve`.
///
/// Returns a pyarrow.Table.
///
/// >>> import sudoku_bulk
/// >>> p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
/// >>> sudoku_bulk.canon([p, p[::-1]], dedupe=True).column("line").to_pylist()
/// [1]
#[pyfunction]
#[pyo3(
    signature = (puzzles, *, dedupe=None, exact=None, max_classes=None, threads=None),
    text_signature = "(puzzles, *, dedupe=False, exact=False, max_classes=10000000, threads=None)"
)]
pub(crate) fn canon<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    dedupe: Option<&Bound<'py, PyAny>>,
    exact: Option<&Bound<'py, PyAny>>,
    max_classes: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let job = canon_job(dedupe, exact, max_classes)?;
    let threads = threads_of(threads)?;
    let puzzles = texts(py, puzzles, "puzzles")?;
    let records = records(puzzles, None, None);
    table(
        py,
        RecordSource::Records(records),
        settings(job, layout_of(None)?, threads),
    )
}

/// Random equivalent copies of puzzles held in memory, as `sudoku-bulk augment` writes them.
///
/// `copies` rows per puzzle come back, in input order, with the columns and types of the
/// command line's `augment` output in Parquet: `line` (the puzzle's position, from 1), `copy`
/// (from 0), `puzzle`, `solution` (with `solutions`), `transform` (how the copy was made:
/// `t` or `n` for transposed or not, the source row of each row, the source column of each
/// column, what digits 1-9 become), `status` ('ok' or 'invalid') and `error`. The copies are
/// those of `sudoku-bulk augment --seed SEED` on a file of the same puzzles, one per line.
///
/// puzzles: any of the kinds `solve` takes (the 3x3 boxes only).
/// copies: copies per puzzle (1 to 1000).
/// seed: the seed the copies are drawn from.
/// distinct: a puzzle's copies are pairwise different puzzles (a puzzle with few may get
///     fewer rows).
/// solutions: one solution per puzzle, transformed alike into `solution`.
/// threads: as for `solve`.
///
/// Returns a pyarrow.Table.
///
/// >>> import sudoku_bulk
/// >>> p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
/// >>> sudoku_bulk.augment([p], copies=3, seed=1).num_rows
/// 3
#[pyfunction]
#[pyo3(
    signature = (puzzles, *, copies=None, seed=None, distinct=None, solutions=None, threads=None),
    text_signature = "(puzzles, *, copies=1, seed=0, distinct=False, solutions=None, threads=None)"
)]
pub(crate) fn augment<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    copies: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    distinct: Option<&Bound<'py, PyAny>>,
    solutions: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let solutions = solutions.filter(|s| !s.is_none());
    let job = augment_job(copies, seed, distinct, solutions.is_some())?;
    let threads = threads_of(threads)?;
    let puzzles = texts(py, puzzles, "puzzles")?;
    let solutions = solutions
        .map(|s| solutions_for(py, s, puzzles.len()))
        .transpose()?;
    let records = records(puzzles, solutions, None);
    table(
        py,
        RecordSource::Records(records),
        settings(job, layout_of(None)?, threads),
    )
}

/// Make puzzles with exactly one solution, as `sudoku-bulk generate` does: the same options
/// give the same puzzles as the command line, for any number of threads.
///
/// One row per puzzle comes back, in index order, with the columns and types of the command
/// line's `generate` output in Parquet: `index` (from 0), `puzzle`, `solution`, `givens`, and
/// `regions` for jigsaw layouts; with `level`, `score` or `needs` also `level`, `score` and
/// `hardest` (HoDoKu's rating, as `rate` writes it). Puzzle `index` depends only on the options
/// and the index.
///
/// count: how many puzzles.
/// seed: the seed of the batch (puzzle i is made from (seed, i) alone).
/// givens: the number of givens of each puzzle: an int, a (min, max) tuple, or 'A-B'
///     (default: as few as the removal pass leaves).
/// minimal: no given can be removed with the solution staying unique.
/// symmetry: the symmetry of the pattern of givens: 'none' (the default), 'rot180', 'rot90',
///     'diagonal' or 'mirror'.
/// regions: jigsaw: one region layout (81 labels) for every puzzle, or 'random' for a new
///     layout per puzzle (default: the 3x3 boxes).
/// level: HoDoKu's level each puzzle must have: 'easy', 'medium', 'hard', 'unfair', 'extreme',
///     or a range 'medium-hard'.
/// score: HoDoKu's score each puzzle must have: an int, a (min, max) tuple, or 'A-B'.
/// needs: techniques the rating's path must use, each at least once: a list of the names rate
///     writes (['x-wing', 'swordfish']) or one comma-separated str.
/// se: Sudoku Explainer's ER each puzzle must have, as `--se`: a number with one decimal at
///     most, a (min, max) tuple or 'A-B' (below 9.5); the rows gain er, ep and ed.
/// max_attempts: attempts per puzzle (each from a new complete grid) before giving up with a
///     ValueError.
/// walk: with a target, moves of one given tried from a puzzle that misses it before a new
///     grid is drawn, as `--walk` (0, the default: a new grid at once; at most 1,000).
/// neighbours: with a target, up to this many more puzzles made from each one that meets it
///     by moving one given, as `--neighbours`: families of neighbours + 1 rows share their
///     solution grid (0, the default: a grid each; at most 100).
/// threads: worker threads (default: one per core).
///
/// Returns a pyarrow.Table. Raises ValueError for options no puzzle can meet (at most 16
/// givens on the boxes, a count the symmetry cannot have) or a puzzle not found in
/// `max_attempts`, with the command line's message; KeyboardInterrupt on Ctrl-C.
///
/// >>> import sudoku_bulk
/// >>> t = sudoku_bulk.generate(3, seed=7, givens=(24, 30))
/// >>> t.num_rows, all(24 <= g <= 30 for g in t.column("givens").to_pylist())
/// (3, True)
#[pyfunction]
#[pyo3(
    signature = (
        count, *, seed=None, givens=None, minimal=None, symmetry=None, regions=None,
        level=None, score=None, needs=None, se=None, max_attempts=None, walk=None,
        neighbours=None, threads=None
    ),
    text_signature = "(count, *, seed=0, givens=None, minimal=False, symmetry='none', regions=None, level=None, score=None, needs=None, se=None, max_attempts=10000, walk=0, neighbours=0, threads=None)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn generate<'py>(
    py: Python<'py>,
    count: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    givens: Option<&Bound<'py, PyAny>>,
    minimal: Option<&Bound<'py, PyAny>>,
    symmetry: Option<&Bound<'py, PyAny>>,
    regions: Option<&Bound<'py, PyAny>>,
    level: Option<&Bound<'py, PyAny>>,
    score: Option<&Bound<'py, PyAny>>,
    needs: Option<&Bound<'py, PyAny>>,
    se: Option<&Bound<'py, PyAny>>,
    max_attempts: Option<&Bound<'py, PyAny>>,
    walk: Option<&Bound<'py, PyAny>>,
    neighbours: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let defaults = GenerateOptions::default();
    // The one required argument: None is no count (an optional argument's None is its default).
    if count.is_none() {
        return Err(PyTypeError::new_err("count: expected an int, not None"));
    }
    let puzzles = crate::arguments::count("count", Some(count), 0, 0)?;
    let symmetry = text("symmetry", symmetry)?
        .as_deref()
        .unwrap_or("none")
        .parse::<Symmetry>()
        .map_err(|e| PyValueError::new_err(format!("symmetry: {e}")))?;
    let regions = match text("regions", regions)? {
        None => Regions::Standard,
        Some(random) if random == "random" => Regions::RandomJigsaw {
            swaps: RANDOM_LAYOUT_SWAPS,
        },
        Some(layout) => Regions::Layout(layout_of(Some(&layout))?),
    };
    let max_attempts = crate::arguments::count(
        "max_attempts",
        max_attempts,
        defaults.max_attempts.into(),
        1,
    )?;
    let options = GenerateOptions {
        seed: crate::arguments::count("seed", seed, 0, 0)?,
        givens: givens_of(givens)?,
        minimal: flag("minimal", minimal, false)?,
        symmetry,
        regions,
        max_attempts: u32::try_from(max_attempts).map_err(|_| {
            PyValueError::new_err(format!(
                "max_attempts must be an integer from 1 to {}, not {max_attempts}",
                u32::MAX
            ))
        })?,
        difficulty: difficulty_of(level, score, needs, se)?,
        // Past u32, the library's own bound (MAX_WALK) names the most.
        walk: u32::try_from(crate::arguments::count(
            "walk",
            walk,
            defaults.walk.into(),
            0,
        )?)
        .unwrap_or(u32::MAX),
        // The same for MAX_NEIGHBOURS.
        neighbours: u32::try_from(crate::arguments::count(
            "neighbours",
            neighbours,
            defaults.neighbours.into(),
            0,
        )?)
        .unwrap_or(u32::MAX),
    };
    let threads = threads_of(threads)?;
    let generator =
        Generator::new(options).map_err(|e| PyValueError::new_err(pythonic(&e.to_string())))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("sudoku-bulk-{i}"))
        .build()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let (columns, kinds) = columns(generator.options());
    let writer = RowWriter::new(OutputFormat::Parquet, columns.clone(), kinds.clone());
    let mut gathered = Gathered::new(columns, &kinds);
    let mut next = 0;
    while next < puzzles {
        let end = puzzles.min(next + chunk(&generator));
        let rows = py
            .detach(|| rows_of(&generator, &pool, next..end, &writer))
            .map_err(|e| PyValueError::new_err(pythonic(&e.to_string())))?;
        match rows {
            Rows::Columns(rows) => gathered.push(rows),
            Rows::Text(_) => unreachable!("a Parquet row writer makes columns"),
        }
        // Ctrl-C raises here, between chunks.
        py.check_signals()?;
        next = end;
    }
    gathered.table(py)
}

/// `level`, `score` and `needs` of `generate`, read as the command line reads its options.
fn difficulty_of(
    level: Option<&Bound<'_, PyAny>>,
    score: Option<&Bound<'_, PyAny>>,
    needs: Option<&Bound<'_, PyAny>>,
    se: Option<&Bound<'_, PyAny>>,
) -> PyResult<Difficulty> {
    let invalid = |name: &str, e: DifficultyError| PyValueError::new_err(format!("{name}: {e}"));
    let levels = text("level", level)?
        .map(|l| l.parse::<LevelRange>().map_err(|e| invalid("level", e)))
        .transpose()?;
    let score = match score.filter(|s| !s.is_none()) {
        None => None,
        Some(s) => {
            // Each bound checked as any count is, so that a negative or huge one is named.
            let bound = |b: &Bound<'_, PyAny>| crate::arguments::count("score", Some(b), 0, 0);
            let range = if let Ok(tuple) = s.cast::<PyTuple>() {
                if tuple.len() != 2 {
                    return Err(PyValueError::new_err(format!(
                        "score: expected a (min, max) pair, not a tuple of {}",
                        tuple.len()
                    )));
                }
                format!(
                    "{}-{}",
                    bound(&tuple.get_item(0)?)?,
                    bound(&tuple.get_item(1)?)?
                )
            } else if s.cast::<PyInt>().is_ok() {
                bound(s)?.to_string()
            } else {
                text("score", Some(s))?.unwrap_or_default()
            };
            Some(
                range
                    .parse::<ScoreRange>()
                    .map_err(|e| invalid("score", e))?,
            )
        }
    };
    let needs = match needs.filter(|n| !n.is_none()) {
        None => Vec::new(),
        Some(n) if n.cast::<PyString>().is_ok() => {
            parse_techniques(&text("needs", Some(n))?.unwrap_or_default())
                .map_err(|e| invalid("needs", e))?
        }
        Some(n) => {
            let names: Vec<String> = n.extract().map_err(|_| {
                PyTypeError::new_err("needs: expected a list of technique names or a str")
            })?;
            // An empty list asks for no technique, as None does.
            match names.is_empty() {
                true => Vec::new(),
                false => parse_techniques(&names.join(",")).map_err(|e| invalid("needs", e))?,
            }
        }
    };
    let se = match se.filter(|e| !e.is_none()) {
        None => None,
        Some(e) => {
            // Numbers as Python writes them (7.25 stays 7.25, refused: one decimal at most).
            let range = match e.cast::<PyTuple>() {
                Ok(pair) if pair.len() == 2 => {
                    format!("{}-{}", pair.get_item(0)?.str()?, pair.get_item(1)?.str()?)
                }
                Ok(other) => {
                    return Err(PyValueError::new_err(format!(
                        "se: expected a (min, max) pair, not a tuple of {}",
                        other.len()
                    )));
                }
                Err(_) => e.str()?.to_string(),
            };
            Some(range.parse::<ErRange>().map_err(|e| invalid("se", e))?)
        }
    };
    Ok(Difficulty {
        levels,
        score,
        needs,
        se,
    })
}

/// `givens` of `generate`: an int, a (min, max) tuple or list, or 'A-B'.
fn givens_of(givens: Option<&Bound<'_, PyAny>>) -> PyResult<Option<GivensRange>> {
    let Some(givens) = givens.filter(|g| !g.is_none()) else {
        return Ok(None);
    };
    let range = |min: u64, max: u64| {
        let (min, max) = (min as usize, max as usize);
        GivensRange::new(min, max).map_err(|e| PyValueError::new_err(format!("givens: {e}")))
    };
    if givens.is_instance_of::<PyInt>() {
        let n = count("givens", Some(givens), 0, 0)?.min(u64::from(u32::MAX));
        return range(n, n).map(Some);
    }
    if let Ok(text) = givens.cast::<PyString>() {
        return text
            .to_cow()?
            .parse::<GivensRange>()
            .map(Some)
            .map_err(|e| PyValueError::new_err(e.to_string()));
    }
    if givens.is_instance_of::<PyTuple>() || givens.is_instance_of::<pyo3::types::PyList>() {
        let items: Vec<Bound<'_, PyAny>> = givens.extract()?;
        if let [min, max] = items.as_slice() {
            let min = count("givens", Some(min), 0, 0)?.min(u64::from(u32::MAX));
            let max = count("givens", Some(max), 0, 0)?.min(u64::from(u32::MAX));
            return range(min, max).map(Some);
        }
    }
    Err(PyTypeError::new_err(format!(
        "givens: {}; expected an int, a (min, max) tuple or a str 'A-B'",
        type_name(givens)?
    )))
}

/// The report `sudoku-bulk show` prints for one puzzle: the puzzle and its solution drawn as
/// grids, the status, the independent check and the search's counters; with `trace`, every
/// propagation step, guess and backtrack; with `explain`, the puzzle rated as `rate` does and
/// its human solution path, step by step (HoDoKu's, or with `scale='se'` Sudoku Explainer's).
///
/// puzzle: one str of 81 cells (digits; '.', '0', '_' or '*' for a blank).
/// trace: add the trace of the search, at most `max_trace_lines` lines (a board drawn counts
///     its lines; at most 1,000,000, as the report is drawn in memory).
/// explain: add the solution path: True (the candidates drawn at the start and before every
///     step harder than a single), or where to draw them: 'never', 'start', 'advanced',
///     'every'.
/// scale: with `explain`, 'hodoku' (the default) or 'se'.
/// max_solutions, algorithm, max_recursions, seed: as for `solve`.
/// regions: a jigsaw layout of 81 labels (no layout: the 3x3 boxes).
///
/// Returns the report as a str, ending with a newline. Givens that conflict are part of the
/// report (the command line exits 1 there), not an error. Raises ValueError for a puzzle that
/// is not 81 cells, with the command line's message.
///
/// >>> import sudoku_bulk
/// >>> p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
/// >>> "status: solved" in sudoku_bulk.show(p)
/// True
#[pyfunction]
#[pyo3(
    signature = (
        puzzle, *, trace=None, max_trace_lines=None, explain=None, scale=None,
        max_solutions=None, algorithm=None, max_recursions=None, seed=None, regions=None
    ),
    text_signature = "(puzzle, *, trace=False, max_trace_lines=10000, explain=False, scale='hodoku', max_solutions=2, algorithm='fast', max_recursions=10000000, seed=0, regions=None)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn show(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    trace: Option<&Bound<'_, PyAny>>,
    max_trace_lines: Option<&Bound<'_, PyAny>>,
    explain: Option<&Bound<'_, PyAny>>,
    scale: Option<&Bound<'_, PyAny>>,
    max_solutions: Option<&Bound<'_, PyAny>>,
    algorithm: Option<&Bound<'_, PyAny>>,
    max_recursions: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    regions: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    if !puzzle.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "puzzle: expected a str, not {}",
            type_name(puzzle).unwrap_or_default()
        )));
    }
    let text_of_puzzle = text("puzzle", Some(puzzle))?.unwrap_or_default();
    let grid = Grid::parse(text_of_puzzle.as_bytes())
        .map_err(|e| PyValueError::new_err(format!("puzzle: {e}")))?;
    let max_trace_lines = count(
        "max_trace_lines",
        max_trace_lines,
        DEFAULT_TRACE_LINES as u64,
        0,
    )?;
    if max_trace_lines > MAX_TRACE_LINES as u64 {
        return Err(PyValueError::new_err(format!(
            "max_trace_lines: {max_trace_lines} is more than {MAX_TRACE_LINES}, the most: the \
             report is drawn in memory"
        )));
    }
    let explain = match explain.filter(|e| !e.is_none()) {
        None => None,
        Some(e) if e.is_instance_of::<PyBool>() => {
            flag("explain", Some(e), false)?.then(CandidatesShown::default)
        }
        Some(e) => {
            let name = text("explain", Some(e))?.unwrap_or_default();
            Some(CandidatesShown::from_name(&name).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "explain: '{name}' is not one of True, 'never', 'start', 'advanced', 'every'"
                ))
            })?)
        }
    };
    let scale: Scale = text("scale", scale)?
        .as_deref()
        .unwrap_or("hodoku")
        .parse()
        .map_err(|e| PyValueError::new_err(format!("scale: {e}")))?;
    let options = crate::arguments::solve_options(max_solutions, algorithm, max_recursions, seed)?;
    let layout = layout_of(text("regions", regions)?.as_deref())?;
    let show_options = ShowOptions {
        trace: flag("trace", trace, false)?,
        max_trace_lines: max_trace_lines as usize,
        explain,
        scale,
    };
    // A hard puzzle's explanation takes a while: other Python threads run meanwhile.
    Ok(
        py.detach(|| {
            sudoku_bulk::command::show::show(&grid, &layout, &options, &show_options).text
        }),
    )
}
