#!/usr/bin/env python3
"""The guide's "Loading results" recipes (docs/guide.md), run for real on the tool's own output.

Solves the shipped mixed input (tests/data/mixed.csv: every status, kept text columns, jigsaw
region layouts) to Parquet, CSV and JSON lines, loads each the way the guide says (pandas,
DuckDB, polars), and checks the types: `solution` a string holding all 81 digits, the counters
integers with nulls exactly in the `invalid` rows, `line` an integer. The expected values are
read from the CSV output with Python's own csv module, as plain strings.

Usage: tests/python/test_loading.py BINARY  (e.g. target/debug/sudoku-bulk)
Prints "loading: N passed, M failed" and exits 1 when a check fails; a missing package is a
failure, never a skip.
"""

import csv
import os
import subprocess
import sys
import tempfile
import traceback

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MIXED = os.path.join(ROOT, "tests", "data", "mixed.csv")
COUNTERS = [
    "solutions",
    "recursions",
    "max_depth",
    "guesses",
    "backtracks",
    "naked_singles",
    "hidden_singles",
    "givens",
]


def solve(binary, out, fmt):
    """Solves the mixed input to `out` in format `fmt`, as the tests of the Rust side do."""
    subprocess.run(
        [binary, "solve", "-q", MIXED, "--max-recursions", "100",
         "--keep-columns", "note,id", "--output-format", fmt, "-o", out],
        check=True,
    )


class Expected:
    """The rows of the CSV output as plain strings, read with the csv module."""

    def __init__(self, path):
        with open(path, newline="", encoding="utf-8") as f:
            self.rows = list(csv.DictReader(f))
        statuses = {r["status"] for r in self.rows}
        assert {"solved", "multiple", "unsolvable", "invalid", "gave_up"} <= statuses, statuses
        assert any(len(r["solution"]) == 81 for r in self.rows)


def is_null(value):
    return value is None or value is pd.NA or (isinstance(value, float) and value != value)


def check_frame(expected, get, where):
    """Checks a loaded table through `get(column) -> list of values`: every solution is the
    81-digit string, every counter an int equal to the CSV's or null exactly where the CSV is
    empty (the invalid rows)."""
    solutions = get("solution")
    for row, value in zip(expected.rows, solutions):
        if row["solution"]:
            assert isinstance(value, str), f"{where}: solution {value!r} is not a str"
            assert value == row["solution"] and len(value) == 81, f"{where}: {value!r}"
        else:
            assert is_null(value), f"{where}: solution {value!r} where CSV has none"
    for counter in COUNTERS:
        for row, value in zip(expected.rows, get(counter)):
            if row[counter]:
                assert isinstance(value, int) and not isinstance(value, bool), (
                    f"{where}: {counter} {value!r} is not an int")
                assert value == int(row[counter]), f"{where}: {counter} {value} != {row[counter]}"
            else:
                assert row["status"] == "invalid", row
                assert is_null(value), f"{where}: {counter} {value!r} is not null"
    lines = get("line")
    assert [int(v) for v in lines] == [int(r["line"]) for r in expected.rows], where


def pandas_values(frame):
    """Python values of a pandas frame's column (NA stays NA; numpy ints become int)."""
    def get(column):
        out = []
        for v in frame[column].tolist():
            if hasattr(v, "item"):
                v = v.item()
            out.append(v)
        return out
    return get


def integer_dtype(dtype):
    return pd.api.types.is_integer_dtype(dtype)


def test_pandas_read_parquet(d, expected):
    # guide: pd.read_parquet("results.parquet", dtype_backend="numpy_nullable")
    frame = pd.read_parquet(d["parquet"], dtype_backend="numpy_nullable")
    assert pd.api.types.is_string_dtype(frame["solution"].dtype), frame.dtypes
    assert pd.api.types.is_string_dtype(frame["puzzle"].dtype), frame.dtypes
    for c in COUNTERS + ["line"]:
        assert str(frame[c].dtype) == "UInt64", (c, frame[c].dtype)
    check_frame(expected, pandas_values(frame), "pandas read_parquet")


def test_pyarrow_schema(d, expected):
    table = pq.read_table(d["parquet"])
    assert table.schema.field("solution").type == pa.string()
    assert table.schema.field("status").type == pa.string()
    for c in COUNTERS + ["line"]:
        assert table.schema.field(c).type == pa.uint64(), (c, table.schema.field(c).type)
    metadata = pq.read_metadata(d["parquet"]).metadata
    assert metadata[b"sudoku-bulk.version"], metadata
    check_frame(expected, lambda c: table.column(c).to_pylist(), "pyarrow")


def test_pandas_read_csv(d, expected):
    # guide: pd.read_csv("results.csv", dtype={"puzzle": str, "solution": str},
    #                     dtype_backend="numpy_nullable")
    frame = pd.read_csv(d["csv"], dtype={"puzzle": str, "solution": str},
                        dtype_backend="numpy_nullable")
    assert pd.api.types.is_string_dtype(frame["solution"].dtype), frame.dtypes
    for c in COUNTERS:
        assert integer_dtype(frame[c].dtype), (c, frame[c].dtype)
    check_frame(expected, pandas_values(frame), "pandas read_csv")


def test_pandas_read_json_lines(d, expected):
    # guide: pd.read_json("results.jsonl", lines=True, dtype=False,
    #                      dtype_backend="numpy_nullable")
    frame = pd.read_json(d["jsonl"], lines=True, dtype=False, dtype_backend="numpy_nullable")
    assert pd.api.types.is_string_dtype(frame["solution"].dtype), frame.dtypes
    for c in COUNTERS:
        assert integer_dtype(frame[c].dtype), (c, frame[c].dtype)
    check_frame(expected, pandas_values(frame), "pandas read_json")


def test_the_json_float_trap_is_real(d, expected):
    # Without dtype=False pandas turns the 81-digit strings into floats: what the guide warns of.
    frame = pd.read_json(d["jsonl"], lines=True)
    assert frame["solution"].dtype == "float64", frame["solution"].dtype


def test_duckdb_parquet(d, expected):
    # guide: duckdb.sql("SELECT * FROM 'results.parquet'")
    relation = duckdb.sql(f"SELECT * FROM '{d['parquet']}'")
    types = dict(zip(relation.columns, map(str, relation.dtypes)))
    assert types["solution"] == "VARCHAR" and types["puzzle"] == "VARCHAR", types
    for c in COUNTERS + ["line"]:
        assert types[c] == "UBIGINT", (c, types[c])
    rows = relation.fetchall()
    columns = relation.columns
    check_frame(expected, lambda c: [r[columns.index(c)] for r in rows], "duckdb parquet")
    # guide: duckdb.sql("SELECT status, avg(recursions) FROM 'results.parquet' GROUP BY status")
    by_status = dict(duckdb.sql(
        f"SELECT status, avg(recursions) FROM '{d['parquet']}' GROUP BY status").fetchall())
    assert by_status["invalid"] is None and by_status["gave_up"] == 100, by_status
    frame = relation.df()
    for c in COUNTERS:
        assert integer_dtype(frame[c].dtype), (c, frame[c].dtype)
    check_frame(expected, pandas_values(frame), "duckdb parquet .df()")


def test_duckdb_read_csv(d, expected):
    # guide: duckdb.sql("SELECT * FROM read_csv('results.csv', types={'solution': 'VARCHAR'})")
    relation = duckdb.sql(
        f"SELECT * FROM read_csv('{d['csv']}', types={{'solution': 'VARCHAR'}})")
    types = dict(zip(relation.columns, map(str, relation.dtypes)))
    assert types["solution"] == "VARCHAR", types
    for c in COUNTERS:
        assert types[c] in ("BIGINT", "UBIGINT", "INTEGER"), (c, types[c])
    rows = relation.fetchall()
    columns = relation.columns
    check_frame(expected, lambda c: [r[columns.index(c)] for r in rows], "duckdb read_csv")
    check_frame(expected, pandas_values(relation.df()), "duckdb read_csv .df()")


def test_polars(d, expected):
    # guide: pl.read_parquet("results.parquet");
    #         pl.read_csv("results.csv", schema_overrides={"puzzle": pl.String, "solution": pl.String})
    frame = pl.read_parquet(d["parquet"])
    assert frame.schema["solution"] == pl.String
    for c in COUNTERS + ["line"]:
        assert frame.schema[c] == pl.UInt64, (c, frame.schema[c])
    check_frame(expected, lambda c: frame[c].to_list(), "polars read_parquet")
    frame = pl.read_csv(d["csv"], schema_overrides={"puzzle": pl.String, "solution": pl.String})
    assert frame.schema["solution"] == pl.String
    for c in COUNTERS:
        assert frame.schema[c].is_integer(), (c, frame.schema[c])
    check_frame(expected, lambda c: frame[c].to_list(), "polars read_csv")


#: A kept column of text that looks like a number: 81 digits with leading zeros, as a Kaggle
#: set's `quizzes` column is when kept beside the puzzle.
def code(i):
    return f"{i:081d}"


#: Rows of the kept-column input: many valid ones first (more than the 100 rows polars infers
#: types from), then an invalid one, whose `error` is the first non-null value of its column.
KEPT_ROWS = 150


def solve_kept(binary, tmp, fmt):
    """Solves an input with a kept column `code` of zero-padded digits to `fmt`."""
    source = os.path.join(tmp, "kept-input.csv")
    if not os.path.exists(source):
        puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
        with open(source, "w") as f:
            f.write("quizzes,code\n")
            for i in range(KEPT_ROWS):
                f.write(f"{puzzle},{code(i)}\n")
            f.write(f"{puzzle[:80]},{code(KEPT_ROWS)}\n")
    out = os.path.join(tmp, f"kept.{fmt}")
    subprocess.run([binary, "solve", "-q", source, "--keep-columns", "code",
                    "--output-format", fmt, "-o", out], check=True)
    return out


def check_kept(values, where):
    """The kept `code` column as the text it was, zeros and all; the last row's error read."""
    assert list(values) == [code(i) for i in range(KEPT_ROWS + 1)], (
        f"{where}: code {list(values)[:2]!r}")


def test_kept_text_columns_stay_text_in_every_recipe(d, expected):
    # Issue 34: a kept column of digits lost its leading zeros (pandas), became a number
    # (DuckDB: BIGNUM), and polars' read_ndjson failed on a column null in its first rows.
    csv_path, jsonl, parquet = d["kept csv"], d["kept jsonl"], d["kept parquet"]
    # README: name kept text columns as text too, beside the grids.
    frame = pd.read_csv(csv_path, dtype={"puzzle": str, "solution": str, "code": str},
                        dtype_backend="numpy_nullable")
    check_kept(frame["code"].tolist(), "pandas read_csv")
    relation = duckdb.sql(
        f"SELECT * FROM read_csv('{csv_path}', types={{'solution': 'VARCHAR', 'code': 'VARCHAR'}})")
    check_kept([r[0] for r in relation.select("code").fetchall()], "duckdb read_csv")
    frame = pl.read_csv(csv_path, schema_overrides={"puzzle": pl.String, "solution": pl.String,
                                                    "code": pl.String})
    check_kept(frame["code"].to_list(), "polars read_csv")
    # JSON lines writes text as strings: readers that keep strings keep them.
    frame = pd.read_json(jsonl, lines=True, dtype=False, dtype_backend="numpy_nullable")
    check_kept(frame["code"].tolist(), "pandas read_json")
    # README: pl.read_ndjson("results.jsonl", infer_schema_length=None)
    frame = pl.read_ndjson(jsonl, infer_schema_length=None)
    check_kept(frame["code"].to_list(), "polars read_ndjson")
    assert frame.schema["error"] == pl.String and frame["error"][-1], frame.schema
    assert frame.schema["recursions"].is_integer(), frame.schema
    relation = duckdb.sql(f"SELECT * FROM read_json('{jsonl}')")
    check_kept([r[0] for r in relation.select("code").fetchall()], "duckdb read_json")
    # Parquet holds its types: text is text.
    check_kept(pd.read_parquet(parquet, dtype_backend="numpy_nullable")["code"].tolist(),
               "pandas read_parquet")
    check_kept(pl.read_parquet(parquet)["code"].to_list(), "polars read_parquet")
    relation = duckdb.sql(f"SELECT code FROM '{parquet}'")
    check_kept([r[0] for r in relation.fetchall()], "duckdb parquet")


def test_polars_read_ndjson_without_a_full_scan_is_what_the_readme_warns_of(d, expected):
    # The default infers types from the first 100 rows, where `error` is null throughout.
    try:
        pl.read_ndjson(d["kept jsonl"])
    except Exception as e:  # polars' ComputeError
        assert "NULL-typed column" in str(e) or "null" in str(e).lower(), e
    else:
        raise AssertionError("pl.read_ndjson read the file: the README's warning is wrong")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        d = {fmt: os.path.join(tmp, f"results.{fmt}") for fmt in ("csv", "jsonl", "parquet")}
        for fmt, path in d.items():
            solve(binary, path, fmt)
        for fmt in ("csv", "jsonl", "parquet"):
            d[f"kept {fmt}"] = solve_kept(binary, tmp, fmt)
        expected = Expected(d["csv"])
        tests = [(name, f) for name, f in sorted(globals().items()) if name.startswith("test_")]
        for name, test in tests:
            try:
                test(d, expected)
                passed += 1
                print(f"ok     {name}")
            except Exception:  # a failed check or a library error: both fail the run
                failed += 1
                print(f"FAILED {name}")
                traceback.print_exc()
    print(f"loading: {passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
