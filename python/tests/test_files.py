"""solve_file(): every input the command line reads gives the command line's rows, batch by
batch, in bounded memory."""

import gzip
import json
import re
import subprocess
import sys
import textwrap

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sudoku_bulk
from conftest import JIGSAW, PUZZLE, SHIPPED, cli_table, puzzles_of

SAMPLE = puzzles_of(SHIPPED[0])[:300] + [PUZZLE[:80], "x" + PUZZLE[1:], "55" + PUZZLE[2:], "." * 81]


def read_all(batches):
    """A solve_file run's batches as one table (its schema also when there are none)."""
    return pa.Table.from_batches(list(batches), schema=batches.schema)


def write_inputs(tmp_path):
    """The sample in every input format: (name, path, extra command-line and keyword args)."""
    text = "".join(f"{p}\n" for p in SAMPLE)
    line = tmp_path / "puzzles.txt"
    line.write_text("# a comment\n\n" + text)
    gz = tmp_path / "puzzles.txt.gz"
    gz.write_bytes(gzip.compress(line.read_bytes()))
    csv = tmp_path / "puzzles.csv"
    csv.write_text("id,quizzes\n" + "".join(f"{i},{p}\n" for i, p in enumerate(SAMPLE)))
    jsonl = tmp_path / "puzzles.jsonl"
    jsonl.write_text("".join(json.dumps({"puzzle": p, "id": i}) + "\n" for i, p in enumerate(SAMPLE)))
    grid = tmp_path / "puzzles.grid"
    good = SAMPLE[:300]
    grid.write_text("\n".join("\n".join(p[r * 9:r * 9 + 9] for r in range(9)) + "\n" for p in good))
    parquet = tmp_path / "puzzles.parquet"
    pq.write_table(pa.table({"id": list(range(len(SAMPLE))), "puzzle": SAMPLE}), parquet)
    keep = (["--keep-columns", "id"], {"keep_columns": ["id"]})
    none = ([], {})
    return [
        ("line", line, none),
        ("gzip", gz, none),
        ("csv", csv, keep),
        ("jsonl", jsonl, keep),
        ("grid", grid, none),
        ("parquet", parquet, keep),
        ("jigsaw csv", JIGSAW, none),
    ]


@pytest.mark.parametrize("index", range(7), ids=["line", "gzip", "csv", "jsonl", "grid", "parquet", "jigsaw"])
def test_every_input_format_gives_the_command_lines_rows(cli, tmp_path, index):
    name, path, (args, kwargs) = write_inputs(tmp_path)[index]
    expected = cli_table(cli, tmp_path, "solve", str(path), *args)
    batches = sudoku_bulk.solve_file(path, **kwargs)
    table = read_all(batches)
    assert table.num_rows > 0
    # Everything, `line` included, and the schema: the same table.
    assert table.equals(expected), name
    assert table.schema.equals(expected.schema), name


def test_batches_hold_at_most_batch_size_rows_in_input_order(cli, tmp_path):
    path = write_inputs(tmp_path)[0][1]
    whole = read_all(sudoku_bulk.solve_file(path))
    batches = list(sudoku_bulk.solve_file(str(path), batch_size=64, threads=1))
    assert [b.num_rows for b in batches] == [64] * (len(SAMPLE) // 64) + [len(SAMPLE) % 64]
    assert pa.Table.from_batches(batches).equals(whole)
    assert read_all(sudoku_bulk.solve_file(path, threads=2, batch_size=7)).equals(whole)


def test_several_files_are_one_stream_with_a_file_column(cli, tmp_path):
    inputs = write_inputs(tmp_path)
    paths = [str(inputs[0][1]), str(inputs[1][1])]
    expected = cli_table(cli, tmp_path, "solve", *paths)
    table = read_all(sudoku_bulk.solve_file(paths))
    assert table.column_names[0] == "file"
    assert table.equals(expected)


def test_options_are_the_command_lines(cli, tmp_path):
    path = write_inputs(tmp_path)[2][1]
    expected = cli_table(cli, tmp_path, "solve", str(path), "--max-solutions", "1",
                         "--algorithm", "candidates", "--max-recursions", "50",
                         "--input-format", "csv", "--puzzle-column", "quizzes")
    table = read_all(sudoku_bulk.solve_file(
        path, max_solutions=1, algorithm="candidates", max_recursions=50, input_format="csv",
        puzzle_column="quizzes"))
    assert table.equals(expected)
    assert "gave_up" in table["status"].to_pylist()


def test_a_kaggle_file_keeps_its_solutions_under_another_name(cli, tmp_path):
    kaggle = tmp_path / "kaggle.csv"
    good = SAMPLE[:20]
    kaggle.write_text("quizzes,solutions\n" + "".join(f"{p.replace('.', '0')},{p}\n" for p in good))
    keep = "solutions=kaggle_solution"
    expected = cli_table(cli, tmp_path, "solve", str(kaggle), "--keep-columns", keep)
    table = read_all(sudoku_bulk.solve_file(kaggle, keep_columns=[keep]))
    assert table.equals(expected)
    assert table.column_names[-1] == "kaggle_solution"
    assert table["kaggle_solution"].to_pylist() == good
    assert table["solutions"].type == expected["solutions"].type
    advice = re.escape("keep it under another name: keep_columns=['solutions=input_solutions']")
    with pytest.raises(ValueError, match=advice) as raised:
        sudoku_bulk.solve_file(kaggle, keep_columns=["solutions"])
    assert str(raised.value).startswith("keep_columns: 'solutions': the output has a column")
    assert "--" not in str(raised.value)
    with pytest.raises(ValueError, match="^keep_columns names 'id' twice") as raised:
        sudoku_bulk.solve_file(kaggle, keep_columns=["quizzes=id", "solutions=id"])
    with pytest.raises(ValueError, match="^keep_columns '=x': a column is kept as NAME"):
        sudoku_bulk.solve_file(kaggle, keep_columns=["=x"])


def test_files_that_cannot_be_read_raise(tmp_path):
    with pytest.raises(FileNotFoundError, match="no-such.txt"):
        sudoku_bulk.solve_file(tmp_path / "no-such.txt")
    csv = tmp_path / "bad.csv"
    csv.write_text("id,name\n1,x\n")
    with pytest.raises(ValueError, match="no puzzle column"):
        sudoku_bulk.solve_file(csv)
    with pytest.raises(ValueError, match="input_format: 'xml'"):
        sudoku_bulk.solve_file(csv, input_format="xml")
    with pytest.raises(TypeError, match="path: int"):
        sudoku_bulk.solve_file(3)
    with pytest.raises(ValueError, match="cannot name a file"):
        sudoku_bulk.solve_file("\ud800")
    with pytest.raises(ValueError, match="batch_size must be"):
        sudoku_bulk.solve_file(csv, batch_size=0)


def test_an_empty_file_gives_no_batches_but_a_schema(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("")
    batches = sudoku_bulk.solve_file(path)
    assert list(batches) == []
    assert batches.schema.names[:2] == ["line", "puzzle"]
    assert list(batches) == []


def test_a_run_left_early_stops(tmp_path):
    path = tmp_path / "many.txt"
    path.write_text(f"{PUZZLE}\n" * 50_000)
    with sudoku_bulk.solve_file(path, batch_size=1000) as batches:
        first = next(batches)
        assert first.num_rows == 1000
    assert list(batches) == []
    batches = sudoku_bulk.solve_file(path, batch_size=1000)
    next(batches)
    batches.close()
    assert list(batches) == []


MEMORY_SCRIPT = textwrap.dedent("""
    import sys
    import sudoku_bulk
    rows = 0
    for batch in sudoku_bulk.solve_file(sys.argv[1], max_solutions=1):
        rows += batch.num_rows
    # The peak resident memory of this process since it started (VmHWM: getrusage's ru_maxrss
    # would also count the parent's memory at the fork that started it).
    status = dict(line.split(":", 1) for line in open("/proc/self/status"))
    print(rows, int(status["VmHWM"].split()[0]) * 1024)
""")


def test_memory_stays_bounded_over_a_large_input(tmp_path):
    """150 MB of puzzles (1.8 million) stream through in much less memory than the input, let
    alone the results (over 400 MB as a table). The 1 GB measurement is
    `python/benchmarks/bench.py --memory-gb 1`."""
    puzzles = puzzles_of(SHIPPED[0])
    block = "".join(f"{p}\n" for p in puzzles).encode()
    path = tmp_path / "large.txt"
    with open(path, "wb") as out:
        written = 0
        while written < 150_000_000:
            out.write(block)
            written += len(block)
    done = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, str(path)],
                          capture_output=True, text=True, check=True)
    rows, peak = map(int, done.stdout.split())
    assert rows == written // 82
    print(f"{written / 1e6:.0f} MB input, {rows} rows, peak RSS {peak / 1e6:.0f} MB")
    assert peak < 130_000_000, f"peak RSS {peak / 1e6:.0f} MB"


@pytest.mark.parametrize("writer", [
    "polars defaults", "pyarrow none", "pyarrow snappy", "pyarrow gzip", "pyarrow zstd",
    "pyarrow lz4", "pyarrow brotli",
])
def test_parquet_as_polars_and_pyarrow_write_it_gives_the_rows_of_csv(cli, tmp_path, writer):
    """Issue 34: polars writes zstd by default, which was refused; pyarrow offers each codec."""
    import polars as pl
    frame = pa.table({"id": [str(i).zfill(6) for i in range(len(SAMPLE))], "puzzle": SAMPLE})
    csv = tmp_path / "puzzles.csv"
    csv.write_text("id,puzzle\n" + "".join(f"{i},{p}\n" for i, p in
                                          zip(frame["id"].to_pylist(), SAMPLE)))
    parquet = tmp_path / "puzzles.parquet"
    if writer == "polars defaults":
        pl.from_arrow(frame).write_parquet(parquet)
        codec = pq.ParquetFile(parquet).metadata.row_group(0).column(1).compression
        assert codec == "ZSTD", codec
    else:
        pq.write_table(frame, parquet, compression=writer.split()[1].upper())
    args = ("--keep-columns", "id", "--max-recursions", "1000")
    from_csv = cli_table(cli, tmp_path, "solve", str(csv), *args)
    from_parquet = cli_table(cli, tmp_path, "solve", str(parquet), *args)
    # `line` is the CSV's line (the header is line 1) and the Parquet file's row.
    assert from_parquet["line"].to_pylist() == [n - 1 for n in from_csv["line"].to_pylist()]
    assert from_parquet.drop_columns(["line"]).equals(from_csv.drop_columns(["line"]))
    # solve_file reads it too, with the command line's rows.
    table = read_all(sudoku_bulk.solve_file(parquet, keep_columns=["id"], max_recursions=1000))
    assert table.equals(from_parquet)


INTERRUPT_SCRIPT = textwrap.dedent("""
    import sys
    import sudoku_bulk
    print("started", flush=True)
    try:
        for batch in sudoku_bulk.solve_file(sys.argv[1]):
            pass
    except KeyboardInterrupt:
        print("interrupted", flush=True)
""")


@pytest.mark.parametrize("source", ["stalled pipe", "/dev/zero"])
def test_ctrl_c_stops_solve_file_waiting_on_its_input(tmp_path, source):
    """Issue 33, case 5: on a pipe that sends nothing, KeyboardInterrupt came only when its
    writer closed it; on /dev/zero, never. The writer here keeps the pipe open until the
    child has ended (or 60 s have passed: then the test fails)."""
    import os
    import signal
    import time
    if source == "/dev/zero":
        path = "/dev/zero"
        keep = None
    else:
        path = str(tmp_path / "fifo")
        os.mkfifo(path)
        # Opened for reading and writing, so that neither end waits: the child reads nothing.
        keep = os.open(path, os.O_RDWR)
    child = subprocess.Popen([sys.executable, "-c", INTERRUPT_SCRIPT, path],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "started\n"
        time.sleep(1)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
        if keep is not None:
            os.close(keep)
    assert out == "interrupted\n", err
