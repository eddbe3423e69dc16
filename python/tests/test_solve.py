"""solve(): every input kind gives the same table; the table equals the command line's Parquet
output row for row on the shipped sets; bad records are rows; arguments are checked."""

import inspect
import pydoc

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import sudoku_bulk
from conftest import JIGSAW, PUZZLE, SHIPPED, SOLUTION, cli_table, puzzles_of

COUNTERS = ["recursions", "max_depth", "guesses", "backtracks", "naked_singles",
            "hidden_singles", "givens"]
SOLVE_COLUMNS = ["line", "puzzle", "solution", "status", "solutions", *COUNTERS, "error"]

#: A few puzzles and the troubles a dataset holds: a short one, a stray character, a clash of
#: givens, an empty grid (many solutions), a missing value.
MIXED = [
    PUZZLE,
    PUZZLE[:80],
    "x" + PUZZLE[1:],
    "55" + PUZZLE[2:],
    "." * 81,
    None,
    PUZZLE.replace(".", "0"),
]


def test_the_columns_and_types_are_the_command_lines():
    table = sudoku_bulk.solve([PUZZLE])
    assert table.column_names == SOLVE_COLUMNS
    for name in SOLVE_COLUMNS:
        expected = pa.string() if name in ("puzzle", "solution", "status", "error") else pa.uint64()
        assert table.schema.field(name).type == expected, name
        assert table.schema.field(name).nullable
    row = table.to_pylist()[0]
    assert row["solution"] == SOLUTION
    assert row["status"] == "solved"
    assert row["line"] == 1
    assert row["givens"] == 30
    assert row["error"] is None


def test_bad_records_are_invalid_rows_with_their_error():
    rows = sudoku_bulk.solve(MIXED).to_pylist()
    assert [r["status"] for r in rows] == [
        "solved", "invalid", "invalid", "invalid", "multiple", "invalid", "solved"]
    assert rows[1]["error"] == "expected 81 cells, found 80"
    assert rows[2]["error"] == "invalid character 'x' at row 1, column 1"
    assert rows[3]["error"] == "digit 5 twice in row 1: r1c1 and r1c2"
    assert rows[5]["error"] == "expected 81 cells, found 0"
    # No search ran for an invalid record: its counts are null, not zero.
    assert all(rows[i][c] is None for i in (1, 2, 3, 5) for c in ["solutions", *COUNTERS])
    assert rows[4]["solutions"] == 2
    assert [r["line"] for r in rows] == list(range(1, len(MIXED) + 1))


def test_a_str_utf8_cannot_encode_is_an_invalid_row_not_an_error():
    # A lone surrogate, as reading a file with errors="surrogateescape" leaves for a stray byte.
    odd = PUZZLE[:80] + "\udcff"
    expected = sudoku_bulk.solve([PUZZLE, PUZZLE[:80] + "x"])["status"].to_pylist()
    assert expected == ["solved", "invalid"]
    # (pandas with pyarrow strings cannot hold one: an object Series can.)
    for values in [[PUZZLE, odd], pd.Series([PUZZLE, odd], dtype=object), np.array([PUZZLE, odd])]:
        rows = sudoku_bulk.solve(values).to_pylist()
        assert [r["status"] for r in rows] == expected, type(values)
        assert "row 9, column 9" in rows[1]["error"], rows[1]["error"]
    assert sudoku_bulk.rate([odd])["status"].to_pylist() == ["invalid"]


def misaligned(values, kind):
    """A string array whose offsets start one byte past an 8-byte boundary, as arrays unpickled
    from out-of-band buffers may (Dask sends pandas string columns to workers so)."""
    array = pa.array(values, kind)
    validity, offsets, data = array.buffers()
    moved = pa.py_buffer(b"\0" + offsets.to_pybytes())[1:]
    assert moved.address % 8 != 0
    return pa.Array.from_buffers(kind, len(array), [validity, moved, data])


def every_input_kind(puzzles):
    """The same puzzles (str or None) in every kind `solve` takes."""
    text = [p if p is not None else "" for p in puzzles]
    yield "list", list(puzzles)
    yield "tuple", tuple(puzzles)
    yield "generator", (p for p in puzzles)
    yield "pandas object Series", pd.Series(puzzles, dtype=object)
    yield "pandas Series with NaN", pd.Series([np.nan if p is None else p for p in puzzles])
    yield "pandas string Series", pd.Series(puzzles, dtype="string")
    yield "pandas Arrow Series", pd.Series(puzzles, dtype=pd.ArrowDtype(pa.string()))
    yield "pyarrow string array", pa.array(puzzles, pa.string())
    yield "pyarrow large string array", pa.array(puzzles, pa.large_string())
    yield "pyarrow string view array", pa.array(puzzles, pa.string_view())
    yield "pyarrow chunked array", pa.chunked_array([puzzles[:3], puzzles[3:]], pa.string())
    yield "pyarrow dictionary array", pa.array(puzzles, pa.string()).dictionary_encode()
    yield "pyarrow binary array", pa.array([p.encode() if p else None for p in puzzles])
    yield "pyarrow array with misaligned offsets", misaligned(puzzles, pa.string())
    yield "pyarrow large array with misaligned offsets", misaligned(puzzles, pa.large_string())
    yield "numpy object array", np.array(puzzles, dtype=object)
    yield "numpy str array", np.array(text)
    yield "numpy bytes array", np.array([t.encode() for t in text])


@pytest.mark.parametrize("kind,puzzles", list(every_input_kind(MIXED)), ids=lambda x: x if isinstance(x, str) else "")
def test_every_input_kind_gives_the_same_table(kind, puzzles):
    reference = sudoku_bulk.solve(MIXED)
    assert sudoku_bulk.solve(puzzles).equals(reference), kind


def test_numpy_integer_grids_are_puzzles_with_zero_for_blank():
    good = [PUZZLE, "." * 81, "55" + PUZZLE[2:]]
    grids = np.array([[0 if c == "." else int(c) for c in p] for p in good])
    assert grids.shape == (3, 81)
    for dtype in (np.int64, np.int8, np.uint8, np.int32):
        table = sudoku_bulk.solve(grids.astype(dtype))
        assert table.equals(sudoku_bulk.solve(good)), dtype
    empty = sudoku_bulk.solve(np.zeros((0, 81), dtype=np.int64))
    assert empty.num_rows == 0 and empty.column_names == SOLVE_COLUMNS


def test_threads_do_not_change_the_table():
    puzzles = puzzles_of(SHIPPED[0])[:3000] + MIXED
    one = sudoku_bulk.solve(puzzles, threads=1)
    two = sudoku_bulk.solve(puzzles, threads=2)
    assert one.equals(two)
    assert one.num_rows == len(puzzles)


def test_options_reach_the_search():
    puzzles = puzzles_of(SHIPPED[0])[:50]
    first = sudoku_bulk.solve(puzzles, max_solutions=1)
    unique = sudoku_bulk.solve(puzzles)
    assert pc.all(pc.equal(first["solution"], unique["solution"])).as_py()
    # Checking uniqueness undoes every guess; stopping at the first solution does not.
    assert pc.sum(first["backtracks"]).as_py() < pc.sum(unique["backtracks"]).as_py()
    budget = sudoku_bulk.solve(puzzles, max_recursions=1)
    assert set(budget["status"].to_pylist()) <= {"gave_up", "solved"}
    assert "gave_up" in budget["status"].to_pylist()
    logic = sudoku_bulk.solve(puzzles, algorithm="logic")
    assert "stuck" in logic["status"].to_pylist()
    a = sudoku_bulk.solve(puzzles[:5], algorithm="random", seed=1)
    b = sudoku_bulk.solve(puzzles[:5], algorithm="random", seed=2)
    assert a["solution"].equals(b["solution"]) and not a["guesses"].equals(b["guesses"])


def test_no_puzzles_give_an_empty_table_with_the_columns():
    for empty in ([], pd.Series([], dtype=object), pa.array([], pa.string())):
        table = sudoku_bulk.solve(empty)
        assert table.num_rows == 0
        assert table.schema.equals(sudoku_bulk.solve([PUZZLE]).schema)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_rows_equal_the_command_lines_on_the_shipped_sets(cli, tmp_path, path):
    expected = cli_table(cli, tmp_path, "solve", str(path))
    puzzles = puzzles_of(path)
    table = sudoku_bulk.solve(puzzles)
    assert table.num_rows == expected.num_rows == len(puzzles)
    assert table.schema.equals(expected.schema)
    # Every cell but `line` (a file's line numbers count its comments; here, positions).
    for name in SOLVE_COLUMNS[1:]:
        assert table[name].equals(expected[name]), name
    assert table["line"].to_pylist() == list(range(1, len(puzzles) + 1))


def test_jigsaw_puzzles_with_their_own_regions_equal_the_command_line(cli, tmp_path):
    expected = cli_table(cli, tmp_path, "solve", str(JIGSAW))
    frame = pd.read_csv(JIGSAW, dtype=str)
    table = sudoku_bulk.solve(frame["puzzle"], regions=frame["regions"])
    assert table.column_names == [*SOLVE_COLUMNS, "regions"]
    assert table.drop_columns(["line"]).equals(expected.drop_columns(["line"]))
    assert (table["solution"].to_pylist() == frame["solution"].tolist())
    # One layout for every puzzle: the standard boxes written out change nothing.
    boxes = "".join("abc"[c // 3] if r < 3 else "def"[c // 3] if r < 6 else "ghi"[c // 3]
                    for r in range(9) for c in range(9))
    assert sudoku_bulk.solve(MIXED, regions=boxes).equals(sudoku_bulk.solve(MIXED))


@pytest.mark.parametrize("call,error,words", [
    (lambda: sudoku_bulk.solve(PUZZLE), TypeError, "puzzles: one str"),
    (lambda: sudoku_bulk.solve(5), TypeError, "puzzles: int"),
    (lambda: sudoku_bulk.solve([PUZZLE, 7]), TypeError, "puzzles[1] is int"),
    (lambda: sudoku_bulk.solve(pa.array([1, 2])), TypeError, "puzzles: an Arrow array of Int64"),
    (lambda: sudoku_bulk.solve(pd.DataFrame({"puzzle": [PUZZLE]})), TypeError, "pass one of its columns"),
    (lambda: sudoku_bulk.solve(np.zeros((2, 80), dtype=int)), ValueError, "shape (n, 81)"),
    (lambda: sudoku_bulk.solve(np.full((2, 81), 12)), ValueError, "puzzles[0, 0] is 12"),
    (lambda: sudoku_bulk.solve(np.zeros((2, 81))), TypeError, "dtype float64"),
    (lambda: sudoku_bulk.solve([PUZZLE], max_solutions=0), ValueError, "max_solutions must be"),
    (lambda: sudoku_bulk.solve([PUZZLE], max_solutions="2"), TypeError, "max_solutions: expected an int, not str"),
    (lambda: sudoku_bulk.solve([PUZZLE], max_recursions=-1), ValueError, "max_recursions must be"),
    (lambda: sudoku_bulk.solve([PUZZLE], seed=-1), ValueError, "seed must be"),
    (lambda: sudoku_bulk.solve([PUZZLE], threads=0), ValueError, "threads must be"),
    (lambda: sudoku_bulk.solve([PUZZLE], threads=1.5), TypeError, "threads: expected an int, not float"),
    (lambda: sudoku_bulk.solve([PUZZLE], algorithm="dlx"), ValueError, "algorithm: unknown algorithm 'dlx'"),
    (lambda: sudoku_bulk.solve([PUZZLE], regions="abc"), ValueError, "regions: region layout"),
    (lambda: sudoku_bulk.solve([PUZZLE], regions=["a" * 81] * 2), ValueError, "regions: 2 layouts for 1 puzzles"),
    (lambda: sudoku_bulk.solve([PUZZLE], threads=2.0), TypeError, "threads: expected an int, not float"),
    (lambda: sudoku_bulk.solve([PUZZLE], threads=True), TypeError, "threads: expected an int, not a bool"),
    (lambda: sudoku_bulk.solve([PUZZLE], algorithm=3), TypeError, "algorithm: expected a str, not int"),
    (lambda: sudoku_bulk.verify([PUZZLE], [PUZZLE], unique=1), TypeError, "unique: expected a bool"),
    (lambda: sudoku_bulk.verify([PUZZLE], [PUZZLE, PUZZLE]), ValueError, "solutions: 2 of them for 1 puzzles"),
    (lambda: sudoku_bulk.solve_file("x.txt", keep_columns="id"), TypeError, "keep_columns: expected a list of str"),
    (lambda: sudoku_bulk.solve_file("x.txt", puzzle_column=1), TypeError, "puzzle_column: expected a str"),
    (lambda: sudoku_bulk.solve_file("x.txt", keep_columns=["id", "ID"]), ValueError, "keep_columns names 'id' twice"),
    (lambda: sudoku_bulk.solve_file("x.txt", keep_columns=["Status"]), ValueError, "the output has a column 'status' of its own"),
    (lambda: sudoku_bulk.solve([PUZZLE], colour=1), TypeError, "colour"),
])
def test_wrong_arguments_raise_naming_them(call, error, words):
    with pytest.raises(error) as raised:
        call()
    assert words in str(raised.value)


def test_a_bad_per_puzzle_layout_is_an_invalid_row():
    rows = sudoku_bulk.solve([PUZZLE, PUZZLE], regions=["a" * 81, None]).to_pylist()
    assert rows[0]["status"] == "invalid" and rows[0]["error"].startswith("region")
    # None is the 3x3 boxes, written out as the layout the puzzle was solved on.
    boxes = "".join(str(3 * (r // 3) + c // 3 + 1) for r in range(9) for c in range(9))
    assert rows[1]["status"] == "solved" and rows[1]["regions"] == boxes


def test_help_reads_well():
    assert str(inspect.signature(sudoku_bulk.solve)) == (
        "(puzzles, *, max_solutions=2, algorithm='fast', max_recursions=10000000, seed=0, "
        "regions=None, threads=None)")
    assert str(inspect.signature(sudoku_bulk.verify)) == (
        "(puzzles, solutions, *, unique=False, max_recursions=10000000, regions=None, threads=None)")
    assert "batch_size=16384" in str(inspect.signature(sudoku_bulk.solve_file))
    text = pydoc.render_doc(sudoku_bulk.solve, renderer=pydoc.plaintext)
    assert "solve(puzzles, *, max_solutions=2" in text
    assert "Solve puzzles held in memory." in text
    for name in ("verify", "solve_file", "summarize"):
        assert getattr(sudoku_bulk, name).__doc__, name


def test_defaults_given_as_none_are_the_defaults():
    assert sudoku_bulk.solve(MIXED, max_solutions=None, algorithm=None, threads=None).equals(
        sudoku_bulk.solve(MIXED))
