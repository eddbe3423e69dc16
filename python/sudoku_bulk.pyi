"""Solve, verify, rate, canonicalise, generate and summarise Sudoku puzzles in bulk, into
pyarrow tables.

The Python package of sudoku-bulk: the library's own runs (the pool, the search engines, the
independent verifier, the rater, the canonicaliser, the generator and the exact search
statistics of the command line), called directly, with the GIL released while they work.
Results have the command line's columns and the types of its Parquet output, so a table here
equals the file ``sudoku-bulk solve -o out.parquet`` (``rate``, ``canon``, ``generate``)
writes, cell for cell.

``line`` is a row's position among the puzzles given, from 1, in :func:`solve`,
:func:`verify`, :func:`rate` and :func:`canon`; in :func:`solve_file`, as on the command line,
it is the line of the file where the record starts (a Parquet file's row number, from 1). The
two agree for a file of one puzzle per line without a header.

Example:
    >>> import sudoku_bulk
    >>> t = sudoku_bulk.solve(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"])
    >>> t.column("status").to_pylist()
    ['solved']
"""

import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal, Optional, Union

import pyarrow

__version__: str

Algorithm = Literal["fast", "naive", "candidates", "random", "logic"]
Symmetry = Literal["none", "rot180", "rot90", "diagonal", "mirror"]
InputFormat = Literal["line", "csv", "grid", "jsonl"]

#: Puzzles: a sequence of str (None for a missing one), a pandas Series, a NumPy array of
#: strings or of integers of shape (n, 81) with 0 for blank, a pyarrow string array or chunked
#: array, or any object of the Arrow PyCapsule interface holding strings.
Puzzles = Union[Iterable[Optional[str]], "pyarrow.Array[Any]", "pyarrow.ChunkedArray[Any]", Any]

def solve(
    puzzles: Puzzles,
    *,
    max_solutions: int = 2,
    algorithm: Algorithm = "fast",
    max_recursions: int = 10_000_000,
    seed: int = 0,
    regions: Union[str, Puzzles, None] = None,
    threads: Optional[int] = None,
) -> pyarrow.Table:
    """Solve puzzles held in memory.

    Every puzzle is solved on a pool of ``threads`` worker threads (default: one per core)
    with the GIL released, each reported solution is checked by the independent verifier,
    and one row per puzzle comes back, in input order, with the columns and types of the
    command line's ``solve`` output in Parquet:

    ``line`` (uint64: the puzzle's position in ``puzzles``, from 1), ``puzzle``, ``solution``,
    ``status`` (string: ``solved``, ``multiple``, ``unsolvable``, ``invalid``, ``gave_up``,
    ``stuck``), ``solutions`` and the search counters ``recursions``, ``max_depth``,
    ``guesses``, ``backtracks``, ``naked_singles``, ``hidden_singles``, ``givens`` (uint64,
    null where no search ran), ``error`` (string); then ``regions`` when ``regions`` gives each
    puzzle its own layout.

    Args:
        puzzles: a list (or any iterable) of str, a pandas Series, a pyarrow string array, a
            NumPy array of strings, or a NumPy integer array of shape (n, 81) with 0 for
            blank. A puzzle is 81 cells: ``1``-``9`` givens; ``.``, ``0``, ``_`` or ``*``
            blanks. A puzzle that cannot be read (wrong length, a stray character, None) or
            whose givens conflict is a row with status ``invalid`` and the reason in
            ``error``: nothing is raised for it.
        max_solutions: stop after this many solutions; 2 makes ``solved`` mean unique, 1
            finds a first solution fastest.
        algorithm: the search algorithm.
        max_recursions: the search budget per puzzle; past it the status is ``gave_up``.
        seed: the seed of the algorithms that make random choices.
        regions: jigsaw puzzles: one region layout (81 labels, nine of each) for every
            puzzle, or one per puzzle (a sequence as long as ``puzzles``; None for the 3x3
            boxes, which the ``regions`` column then writes out).
        threads: worker threads; the table is the same for any number.

    Returns:
        A pyarrow.Table, one row per puzzle.

    Raises:
        TypeError, ValueError: an argument of the wrong type or value (the message names it).
        KeyboardInterrupt: Ctrl-C; the run stops.

    Example:
        >>> import sudoku_bulk
        >>> t = sudoku_bulk.solve(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"])
        >>> t["status"][0].as_py(), t["guesses"][0].as_py()
        ('solved', 0)
    """

def verify(
    puzzles: Puzzles,
    solutions: Puzzles,
    *,
    unique: bool = False,
    max_recursions: int = 10_000_000,
    regions: Union[str, Puzzles, None] = None,
    threads: Optional[int] = None,
) -> pyarrow.Table:
    """Verify proposed solutions of puzzles held in memory.

    Each solution is checked by the independent verifier against its puzzle (and, with
    ``unique``, the puzzle is searched for a second solution). One row per puzzle comes back,
    in input order, with the columns of the command line's ``verify`` output: ``line``
    (uint64, the position from 1), ``status`` (``ok``, ``wrong``, ``invalid``, or with
    ``unique`` ``gave_up``), ``error`` (why a row is not ``ok``, e.g. ``row 3 has two 7s``,
    ``changes the given at r1c4``, ``not the unique solution``) and ``puzzle`` (to join on),
    plus ``regions`` when each puzzle has its own layout.

    Args:
        puzzles: as for :func:`solve`.
        solutions: one per puzzle, of the same kinds.
        unique: also require the puzzle to have exactly one solution: the one given.
        max_recursions: the budget of that uniqueness search per puzzle.
        regions: as for :func:`solve`.
        threads: as for :func:`solve`.

    Returns:
        A pyarrow.Table, one row per puzzle.
    """

def rate(
    puzzles: Puzzles,
    *,
    max_recursions: int = 10_000_000,
    scale: Literal["hodoku", "se"] = "hodoku",
    invariant: bool = False,
    regions: Union[str, Puzzles, None] = None,
    threads: Optional[int] = None,
) -> pyarrow.Table:
    """Rate puzzles for a person, as ``sudoku-bulk rate`` does: on HoDoKu's scale (techniques,
    scores and levels), or with ``scale="se"`` on Sudoku Explainer's (ER, EP, ED).

    One row per puzzle comes back, in input order, with the columns and types of the command
    line's ``rate`` output in Parquet: ``line`` (the position, from 1), ``puzzle``, ``status``
    (``rated``; ``multiple``, ``unsolvable`` or ``gave_up`` for a puzzle without one
    solution; ``invalid``), ``level``, ``score``, ``hardest``, the steps of each technique
    family, ``techniques`` and ``error``; ``regions`` when each puzzle has its own layout.
    With ``scale="se"``: ``line``, ``puzzle``, ``status``, ``er``, ``ep``, ``ed``,
    ``er_at_least`` (floats), ``hardest``, ``steps``, ``error``.

    Args:
        puzzles: as for :func:`solve` (a pandas or polars Series too).
        max_recursions: the budget of the search that tells a puzzle with one solution
            (rated) from one with several; past it the status is ``gave_up``.
        scale: ``"hodoku"`` or ``"se"``.
        invariant: rate each puzzle's canonical form, so that equivalent puzzles (relabelled,
            rows and columns swapped, transposed: :func:`augment`'s copies) get the same rating.
        regions, threads: as for :func:`solve`.

    Example:
        >>> t = sudoku_bulk.rate(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"])
        >>> t.column("level").to_pylist(), t.column("status").to_pylist()
        (['easy'], ['rated'])
    """

def canon(
    puzzles: Puzzles,
    *,
    dedupe: bool = False,
    exact: bool = False,
    max_classes: int = 10_000_000,
    threads: Optional[int] = None,
) -> pyarrow.Table:
    """The canonical (minlex) form of each puzzle, as ``sudoku-bulk canon`` writes it.

    One row per puzzle, in input order: ``line`` (the position, from 1), ``puzzle``,
    ``canonical`` (the least form that relabelling digits, permuting bands, stacks and the
    rows and columns within them, and transposing give), ``status`` (``ok`` or ``invalid``)
    and ``error``. Puzzles with the same canonical form are one puzzle in disguise.

    Args:
        puzzles: as for :func:`solve`; the 3x3 boxes only (no canonical form is defined for
            jigsaws).
        dedupe: keep only the first puzzle of each class, in input order (as ``canon
            --dedupe``); a puzzle without a form is always kept; ``line`` says where each
            kept one was.
        exact: with ``dedupe``, a class holds identical puzzles only (blanks ``.`` or ``0``
            alike), as ``canon --dedupe --exact``.
        max_classes: with ``dedupe``, the most classes remembered (40 to 115 bytes each);
            one more raises ValueError, as ``--max-classes``.
        threads: as for :func:`solve`.

    Example:
        >>> p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
        >>> sudoku_bulk.canon([p, p[::-1]], dedupe=True).column("line").to_pylist()
        [1]
    """

def augment(
    puzzles: Puzzles,
    *,
    copies: int = 1,
    seed: int = 0,
    distinct: bool = False,
    solutions: Optional[Puzzles] = None,
    threads: Optional[int] = None,
) -> pyarrow.Table:
    """Random equivalent copies of puzzles, as ``sudoku-bulk augment`` writes them.

    ``copies`` rows per puzzle, in input order: ``line`` (the position, from 1), ``copy`` (from
    0), ``puzzle``, ``solution`` (with ``solutions``), ``transform`` (how the copy was made),
    ``status`` (``ok`` or ``invalid``) and ``error``; the copies of ``sudoku-bulk augment
    --seed SEED`` on a file of the same puzzles, one per line.

    Args:
        puzzles: as for :func:`solve` (the 3x3 boxes only).
        copies: copies per puzzle.
        seed: the seed the copies are drawn from.
        distinct: a puzzle's copies are pairwise different puzzles.
        solutions: one solution per puzzle, transformed alike.
        threads: as for :func:`solve`.

    Example:
        >>> p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
        >>> sudoku_bulk.augment([p], copies=3, seed=1).num_rows
        3
    """

def generate(
    count: int,
    *,
    seed: int = 0,
    givens: Union[int, tuple[int, int], str, None] = None,
    minimal: bool = False,
    symmetry: Symmetry = "none",
    regions: Optional[str] = None,
    level: Optional[str] = None,
    score: Union[int, tuple[int, int], str, None] = None,
    needs: Union[Sequence[str], str, None] = None,
    se: Union[float, tuple[float, float], str, None] = None,
    max_attempts: int = 10_000,
    walk: int = 0,
    neighbours: int = 0,
    threads: Optional[int] = None,
) -> pyarrow.Table:
    """Make ``count`` puzzles with exactly one solution, as ``sudoku-bulk generate`` does.

    The same options give the same puzzles as the command line, for any number of threads:
    puzzle ``index`` depends only on the options and the index. Columns: ``index`` (from 0),
    ``puzzle``, ``solution``, ``givens``, ``regions`` for jigsaw layouts, and with ``level``,
    ``score`` or ``needs`` also ``level``, ``score`` and ``hardest`` (HoDoKu's rating).

    Args:
        count: how many puzzles.
        seed: the seed of the batch.
        givens: givens per puzzle: an int, a ``(min, max)`` tuple or ``"A-B"`` (default: as
            few as the removal pass leaves).
        minimal: no given can be removed with the solution staying unique.
        symmetry: the symmetry of the pattern of givens.
        regions: one jigsaw layout (81 labels) for every puzzle, or ``"random"`` for a new
            one per puzzle (default: the 3x3 boxes).
        level: HoDoKu's level each puzzle must have (``"hard"``) or a range (``"medium-hard"``).
        score: HoDoKu's score each puzzle must have: an int, a ``(min, max)`` tuple or
            ``"A-B"``.
        needs: techniques the rating's path must use, by the names ``rate`` writes
            (``["x-wing"]`` or ``"x-wing,swordfish"``).
        se: Sudoku Explainer's ER each puzzle must have, as ``--se``: a number with one
            decimal at most, a ``(min, max)`` tuple or ``"A-B"`` (below 9.5); the rows gain
            ``er``, ``ep`` and ``ed``.
        max_attempts: attempts per puzzle before giving up with ValueError.
        walk: with a target, moves of one given tried from a puzzle that misses it before a
            new grid is drawn, as ``--walk`` (0: a new grid at once; at most 1,000).
        neighbours: with a target, up to this many more puzzles made from each one that meets
            it by moving one given, as ``--neighbours``: families of ``neighbours + 1`` rows
            share their solution grid (0: a grid each; at most 100).
        threads: worker threads (default: one per core).

    Raises:
        ValueError: options no puzzle can meet (16 givens or fewer on the boxes, a count the
            symmetry cannot have), or a puzzle not found in ``max_attempts``: the command
            line's message.
        KeyboardInterrupt: Ctrl-C, between chunks of about 256 puzzles (whole families).

    Example:
        >>> t = sudoku_bulk.generate(3, seed=7, givens=(24, 30))
        >>> t.num_rows, all(24 <= g <= 30 for g in t.column("givens").to_pylist())
        (3, True)
    """

def show(
    puzzle: str,
    *,
    trace: bool = False,
    max_trace_lines: int = 10_000,
    explain: Union[bool, Literal["never", "start", "advanced", "every"]] = False,
    scale: Literal["hodoku", "se"] = "hodoku",
    max_solutions: int = 2,
    algorithm: Algorithm = "fast",
    max_recursions: int = 10_000_000,
    seed: int = 0,
    regions: Optional[str] = None,
) -> str:
    """The report ``sudoku-bulk show PUZZLE`` prints: the puzzle and its solution drawn as
    grids, the status, the independent check and the search's counters; with ``trace``, every
    propagation step, guess and backtrack; with ``explain``, the puzzle rated as ``rate`` does
    and its human solution path, step by step (HoDoKu's, or with ``scale="se"`` Sudoku
    Explainer's).

    Args:
        puzzle: one str of 81 cells (digits; ``.``, ``0``, ``_`` or ``*`` for a blank).
        trace: add the trace of the search, at most ``max_trace_lines`` lines (a board drawn
            counts its lines; at most 1,000,000).
        explain: add the solution path: ``True`` (the candidates drawn at the start and before
            every step harder than a single), or where to draw them: ``"never"``,
            ``"start"``, ``"advanced"``, ``"every"``.
        scale: with ``explain``, ``"hodoku"`` or ``"se"``.
        max_solutions, algorithm, max_recursions, seed: as for :func:`solve`.
        regions: a jigsaw layout of 81 labels (``None``: the 3x3 boxes).

    Returns:
        The report, ending with a newline: the command line's standard output. Givens that
        conflict are part of it (the command line exits 1 there), not an error.

    Raises:
        ValueError: a puzzle that is not 81 cells, with the command line's message.

    Example:
        >>> p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
        >>> "status: solved" in sudoku_bulk.show(p)
        True
    """

class Batches(Iterator[pyarrow.RecordBatch]):
    """The record batches of a :func:`solve_file` run, in input order.

    Also a context manager: leaving the ``with`` block stops the run.
    """

    @property
    def schema(self) -> pyarrow.Schema:
        """The schema of every batch (known also when there are none)."""
    def __iter__(self) -> "Batches": ...
    def __next__(self) -> pyarrow.RecordBatch: ...
    def close(self) -> None:
        """Stop the run: no more records are read or solved."""
    def __enter__(self) -> "Batches": ...
    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None: ...

def solve_file(
    path: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
    *,
    max_solutions: int = 2,
    algorithm: Algorithm = "fast",
    max_recursions: int = 10_000_000,
    seed: int = 0,
    regions: Optional[str] = None,
    threads: Optional[int] = None,
    batch_size: int = 16_384,
    input_format: Optional[InputFormat] = None,
    puzzle_column: Optional[str] = None,
    keep_columns: Optional[Sequence[str]] = None,
    regions_column: Optional[str] = None,
) -> Batches:
    """Solve every puzzle of files, as ``sudoku-bulk solve`` reads them, batch by batch.

    Returns an iterator of pyarrow.RecordBatch, in input order, each of at most
    ``batch_size`` rows (fewer only when the records hold more than 64 MiB of text), with the
    columns and types of the command line's ``solve`` output for the same files: ``file``
    first when there are several inputs, ``line`` the line where each record starts, kept
    columns and ``regions`` at the end. Memory stays bounded by a few batches whatever the
    size of the input: reading, solving and your loop overlap, and the solving waits while
    you hold on to a batch.

    Args:
        path: a file, or a list of files read in turn as one stream. Every format the command
            line reads: one puzzle per line, CSV (the Kaggle sets as they are), drawn grids,
            JSON lines and Parquet, plain or gzip-compressed.
        input_format: read every file in this format instead of detecting it.
        puzzle_column: CSV, JSON lines, Parquet: the puzzle column (default: the first of
            ``puzzle``, ``quizzes``, ``quiz``, ``question``, ``sudoku``).
        keep_columns: input columns copied to the end of each row; 'SOURCE=NAME' keeps one
            under another name (['solutions=kaggle_solution'] for a Kaggle file: the rows have
            a 'solutions' column of their own).
        regions: one region layout (81 labels) for every puzzle.
        regions_column: the column of each record's own layout (default: ``regions``).
        batch_size: rows per batch.
        max_solutions, algorithm, max_recursions, seed, threads: as for :func:`solve`.

    Raises:
        FileNotFoundError, OSError: a file cannot be opened or read.
        ValueError: a file does not fit its format (a CSV without the puzzle column). A bad
            record is a row, never an error.
        KeyboardInterrupt: Ctrl-C, also while the input sends nothing (a stalled pipe).

    Example:
        >>> import pyarrow.parquet as pq
        >>> batches = sudoku_bulk.solve_file("puzzles.txt.gz")
        >>> with pq.ParquetWriter("solved.parquet", batches.schema) as out:
        ...     for batch in batches:
        ...         out.write_batch(batch)
    """

def rate_file(
    path: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
    *,
    max_recursions: int = 10_000_000,
    scale: Literal["hodoku", "se"] = "hodoku",
    invariant: bool = False,
    regions: Optional[str] = None,
    threads: Optional[int] = None,
    batch_size: int = 16_384,
    input_format: Optional[InputFormat] = None,
    puzzle_column: Optional[str] = None,
    keep_columns: Optional[Sequence[str]] = None,
    regions_column: Optional[str] = None,
) -> Batches:
    """Rate every puzzle of files for a person, as ``sudoku-bulk rate FILE...`` does, batch by
    batch in bounded memory: the rows of the command line's ``rate`` output for the same files
    (``rate --scale se``'s with ``scale="se"``), in input order.

    Args:
        path, regions, threads, batch_size, input_format, puzzle_column, keep_columns,
            regions_column: as for :func:`solve_file`.
        max_recursions, scale, invariant: as for :func:`rate`.

    Raises:
        As :func:`solve_file`.

    Example:
        >>> batches = sudoku_bulk.rate_file("puzzles.txt.gz", scale="se")
        >>> for batch in batches:
        ...     print(batch.num_rows)
    """

def verify_file(
    path: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
    *,
    unique: bool = False,
    max_recursions: int = 10_000_000,
    solution_column: Optional[str] = None,
    regions: Optional[str] = None,
    threads: Optional[int] = None,
    batch_size: int = 16_384,
    input_format: Optional[InputFormat] = None,
    puzzle_column: Optional[str] = None,
    keep_columns: Optional[Sequence[str]] = None,
    regions_column: Optional[str] = None,
) -> Batches:
    """Verify the solutions files ship, as ``sudoku-bulk verify FILE...`` does, batch by batch
    in bounded memory: the rows of the command line's ``verify`` output for the same files.

    Args:
        solution_column: the column of the solutions (default: the first of ``solution``,
            ``solutions``, ``answer``; the second field of a line).
        unique, max_recursions: as for :func:`verify`.
        The others: as for :func:`solve_file`.
    """

def canon_file(
    path: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
    *,
    dedupe: bool = False,
    exact: bool = False,
    max_classes: int = 10_000_000,
    threads: Optional[int] = None,
    batch_size: int = 16_384,
    input_format: Optional[InputFormat] = None,
    puzzle_column: Optional[str] = None,
    keep_columns: Optional[Sequence[str]] = None,
) -> Batches:
    """The canonical form of every puzzle of files, as ``sudoku-bulk canon FILE...`` writes
    it, batch by batch in bounded memory; with ``dedupe=True`` only the first record of each
    class, as ``canon --dedupe``.

    Args:
        dedupe, exact, max_classes: as for :func:`canon`.
        The others: as for :func:`solve_file` (the 3x3 boxes only).
    """

def augment_file(
    path: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
    *,
    copies: int = 1,
    seed: int = 0,
    distinct: bool = False,
    solutions: bool = False,
    solution_column: Optional[str] = None,
    threads: Optional[int] = None,
    batch_size: int = 16_384,
    input_format: Optional[InputFormat] = None,
    puzzle_column: Optional[str] = None,
    keep_columns: Optional[Sequence[str]] = None,
) -> Batches:
    """Random equivalent copies of every puzzle of files, as ``sudoku-bulk augment FILE...``
    writes them (drawn from the seed, the input and the record's line: the command line's
    copies), batch by batch in bounded memory.

    Args:
        copies, seed, distinct: as for :func:`augment`.
        solutions: transform each record's solution alike, read from ``solution_column``
            (default: the first of ``solution``, ``solutions``, ``answer``; the second field of
            a line).
        The others: as for :func:`solve_file` (the 3x3 boxes only).
    """

def summarize(
    results: Union[pyarrow.Table, pyarrow.RecordBatch, Any, Iterable[pyarrow.RecordBatch]],
    by: Optional[str] = None,
    *,
    bins: Union[None, int, str, Sequence[Union[int, float, str]]] = None,
    max_groups: int = 10_000,
    canonical: bool = False,
    max_classes: int = 10_000_000,
) -> dict[str, Any]:
    """The dataset summary of solve or rate results: the numbers of ``sudoku-bulk stats --json``.

    Args:
        results: whatever :func:`solve`, :func:`solve_file` or :func:`rate` returns, or any
            table of its columns: a pyarrow.Table or RecordBatch, a pandas or polars
            DataFrame, an object of the Arrow PyCapsule stream interface, or an iterable of
            record batches (summarised as it streams by). It needs the ``status`` column and
            the seven counter columns (rows of :func:`rate`: its rating columns, on either
            scale, told as ``stats`` tells them), and may hold others.
        by: a column to group by as well: one group per value (its text; null is ``""``), as
            ``stats --by COL --bins none`` (the command, without ``--bins``, puts a column of
            more than 30 numbers into bins on its own; here, bins are asked for).
        bins: with ``by``, put its numbers in bins, as ``stats --bins``: an int N for N
            quantile bins of about equal size, or a list of edges in increasing order
            (``[A, B]``, ``(B, C]``, ..., with ``< A`` and ``> LAST`` for values outside);
            None or ``"none"``: one group per value. Quantiles of a table are exact from a
            first reading of the column; of a stream of batches, from one group per value (at
            most ``max_groups``), gathered into bins at the end.
        max_groups: with ``by``, the most groups, as ``stats --max-groups``: a row that makes
            one more raises ValueError (each group takes about half a kilobyte).
        canonical: also count the distinct canonical forms of the ``puzzle`` column, as
            ``stats --canonical`` (the ``canonical`` part of the dict).
        max_classes: with ``canonical``, the most distinct puzzles counted, as
            ``stats --max-classes`` (each takes 20 to 60 bytes); one more raises ValueError.

    Returns:
        A dict: ``records``, the count of every status, records solved without a guess, for
        each counter its count, sum, mean, min, max, quantiles and histogram, and the hardest
        records (named by the ``line``, ``puzzle``, ``file`` and ``regions`` columns, when
        present); for rows of :func:`rate`, the ``rating`` or ``se_rating`` part instead (and
        ``se_hardest``), computed by
        the library exactly as ``stats`` does (summaries of parts merge into that of the
        whole).

    Raises:
        ValueError: a column is missing, a row is not a solve result (the message gives its
            index), ``by`` makes more than ``max_groups`` groups, a value of ``by`` put in bins is
            not a number, or ``canonical`` finds more than ``max_classes`` forms.

    Example:
        >>> rows = sudoku_bulk.solve(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"])
        >>> sudoku_bulk.summarize(rows)["records"]
        1
    """
