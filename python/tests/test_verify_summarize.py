"""verify() equals `sudoku-bulk verify`; summarize() gives the numbers of `sudoku-bulk stats
--json` for the same rows, whether they come as a table, batches streaming by, or a DataFrame."""

import pyarrow as pa
import pyarrow.csv as pacsv
import pytest

import sudoku_bulk
from conftest import JIGSAW, PUZZLE, SHIPPED, SOLUTION, cli_stats, cli_table, puzzles_of


def swapped(solution: str) -> str:
    """A solution with its first two cells swapped: wrong whenever they differ."""
    return solution[1] + solution[0] + solution[2:]


def proposals():
    """Puzzles of a shipped set with proposed solutions: right, wrong, cut short, missing, and
    one that rewrites a given."""
    puzzles = puzzles_of(SHIPPED[1])[:200]
    solutions = sudoku_bulk.solve(puzzles)["solution"].to_pylist()
    for i in range(0, len(solutions), 5):
        solutions[i] = swapped(solutions[i])
    solutions[1] = solutions[1][:80]
    solutions[2] = None
    puzzles += [PUZZLE, PUZZLE, "." * 81]
    solutions += [SOLUTION, "9" + SOLUTION[1:], SOLUTION]
    return puzzles, solutions


@pytest.mark.parametrize("unique", [False, True], ids=["plain", "unique"])
def test_verify_equals_the_command_line(cli, tmp_path, unique):
    puzzles, solutions = proposals()
    path = tmp_path / "proposals.csv"
    pacsv.write_csv(pa.table({"puzzle": puzzles, "solution": solutions}), path)
    args = ["--unique"] if unique else []
    expected = cli_table(cli, tmp_path, "verify", str(path), *args)
    table = sudoku_bulk.verify(puzzles, solutions, unique=unique)
    assert table.column_names == ["line", "status", "error", "puzzle"]
    assert table.schema.equals(expected.schema)
    # `line` is a line of the CSV file there (the header is line 1), a position here.
    assert table.drop_columns(["line"]).equals(expected.drop_columns(["line"]))
    assert table["line"].to_pylist() == list(range(1, len(puzzles) + 1))
    statuses = table["status"].to_pylist()
    assert statuses[0] == "wrong" and statuses[3] == "ok" and statuses[1] == "invalid"
    assert statuses[-1] == ("wrong" if unique else "ok")
    assert set(statuses) == ({"ok", "wrong", "invalid"})


def test_verify_checks_jigsaw_solutions_with_their_own_regions(cli, tmp_path):
    expected = cli_table(cli, tmp_path, "verify", str(JIGSAW), "--unique")
    frame = pacsv.read_csv(JIGSAW, convert_options=pacsv.ConvertOptions(
        column_types={"puzzle": pa.string(), "solution": pa.string(), "regions": pa.string()}))
    table = sudoku_bulk.verify(frame["puzzle"], frame["solution"], unique=True,
                               regions=frame["regions"])
    assert table.drop_columns(["line"]).equals(expected.drop_columns(["line"]))
    assert set(table["status"].to_pylist()) == {"ok"}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_summarize_gives_the_numbers_of_stats_json(cli, tmp_path, path):
    rows = cli_table(cli, tmp_path, "solve", str(path))
    expected = cli_stats(cli, tmp_path / "cli-solve.parquet")
    assert expected["hardest"], "the summary names the hardest records"
    assert sudoku_bulk.summarize(rows) == expected
    table = sudoku_bulk.solve(puzzles_of(path) + [PUZZLE[:80]])
    # The file's rows give the file's summary (the hardest records named by the file's line
    # numbers, which count its comments: here, positions); the invalid row added counts too.
    lines = pa.concat_arrays([rows["line"].combine_chunks(), pa.array([0], pa.uint64())])
    table = table.set_column(0, "line", lines)
    summary = sudoku_bulk.summarize(table.slice(0, table.num_rows - 1))
    assert summary == expected
    assert summary["records"] == table.num_rows - 1
    whole = sudoku_bulk.summarize(table)
    assert whole["status"]["invalid"] == summary["status"]["invalid"] + 1


def test_summarize_by_a_column_equals_stats_by(cli, tmp_path):
    results = tmp_path / "cli-solve.parquet"
    rows = cli_table(cli, tmp_path, "solve", str(SHIPPED[0]))
    # The file's line numbers (they name the hardest records), not positions.
    table = sudoku_bulk.solve(puzzles_of(SHIPPED[0])).set_column(0, "line", rows["line"])
    for by in ("givens", "status"):
        assert sudoku_bulk.summarize(table, by=by) == cli_stats(cli, results, "--by", by), by


def test_summarize_takes_tables_batches_streams_and_dataframes(tmp_path):
    puzzles = puzzles_of(SHIPPED[2])[:500] + [PUZZLE, "55" + PUZZLE[2:], "." * 81]
    table = sudoku_bulk.solve(puzzles)
    expected = sudoku_bulk.summarize(table)
    assert expected["records"] == len(puzzles)
    assert expected["status"]["invalid"] == 1 and expected["status"]["multiple"] == 1
    batches = table.to_batches(max_chunksize=64)
    assert len(batches) > 1
    assert sudoku_bulk.summarize(batches) == expected
    assert sudoku_bulk.summarize(iter(batches)) == expected
    assert sudoku_bulk.summarize(batches[0]) == sudoku_bulk.summarize(table.slice(0, 64))
    assert sudoku_bulk.summarize(table.to_pandas()) == expected
    path = tmp_path / "puzzles.txt"
    path.write_text("".join(f"{p}\n" for p in puzzles))
    assert sudoku_bulk.summarize(sudoku_bulk.solve_file(path, batch_size=100)) == expected


def test_summarize_refuses_what_is_not_solve_results():
    table = sudoku_bulk.solve([PUZZLE, PUZZLE])
    with pytest.raises(ValueError, match="no column 'guesses'"):
        sudoku_bulk.summarize(table.drop_columns(["guesses"]))
    with pytest.raises(ValueError, match="comes from verify"):
        sudoku_bulk.summarize(table.set_column(
            table.schema.get_field_index("status"), "status", pa.array(["ok", "ok"])))
    broken = table.set_column(table.schema.get_field_index("max_depth"), "max_depth",
                              pa.array([1, None], pa.uint64()))
    with pytest.raises(ValueError, match="row 1 .*max_depth is empty"):
        sudoku_bulk.summarize(broken)
    with pytest.raises(TypeError, match="results: int"):
        sudoku_bulk.summarize(3)
    with pytest.raises(TypeError, match="an iterable holding int"):
        sudoku_bulk.summarize([1, 2])
    # Batches of two commands' rows: a wrong value, as the docstring says.
    rated = sudoku_bulk.rate([PUZZLE]).to_batches()[0]
    with pytest.raises(ValueError, match="rows of solve together with rows of rate"):
        sudoku_bulk.summarize([table.to_batches()[0], rated])
