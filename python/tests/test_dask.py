"""examples/dask_solve.py on a LocalCluster of two worker processes gives the rows of a single
run of the command line, for a CSV, a gzip-compressed CSV and a Parquet input, through its
functions and as a script; its default partitioning gives every worker work."""

import gzip
import importlib.util
import subprocess
import sys

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from dask.distributed import Client, LocalCluster

import sudoku_bulk
from conftest import PUZZLE, ROOT, SHIPPED, cli_table, puzzles_of

EXAMPLE = ROOT / "examples" / "dask_solve.py"


def load_example():
    spec = importlib.util.spec_from_file_location("dask_solve", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def dataset(tmp_path_factory, cli):
    """A CSV of 3,000 puzzles with an id and a level, bad records among them, the same gzipped
    and as Parquet; with the result columns of a single command-line run over the CSV."""
    puzzles = puzzles_of(SHIPPED[0])[:1500] + puzzles_of(SHIPPED[2])[:1500]
    puzzles[7] = PUZZLE[:80]
    puzzles[1234] = "55" + PUZZLE[2:]
    puzzles[2500] = "." * 81
    frame = pd.DataFrame({
        "id": [f"p{i}" for i in range(len(puzzles))],
        "puzzle": puzzles,
        "level": ["easy" if i < 1500 else "hard" for i in range(len(puzzles))],
    })
    folder = tmp_path_factory.mktemp("dask")
    csv = folder / "puzzles.csv"
    frame.to_csv(csv, index=False)
    parquet = folder / "puzzles.parquet"
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), parquet)
    gz = folder / "puzzles.csv.gz"
    gz.write_bytes(gzip.compress(csv.read_bytes()))
    single = cli_table(cli, folder, "solve", str(csv)).drop_columns(["line", "puzzle"])
    assert single.equals(sudoku_bulk.solve(puzzles).drop_columns(["line", "puzzle"]))
    return {"csv": csv, "csv.gz": gz, "parquet": parquet}, frame, single


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        yield client


def results_of(frame: pd.DataFrame) -> pa.Table:
    """The result columns of a solved frame, in row order, with their Arrow types."""
    table = pa.Table.from_pandas(frame.reset_index(drop=True), preserve_index=False)
    return table.drop_columns(["id", "puzzle", "level"])


@pytest.mark.parametrize("kind", ["csv", "csv.gz", "parquet"])
def test_map_partitions_on_two_workers_equals_a_single_run(dataset, client, kind):
    paths, frame, single = dataset
    example = load_example()
    # The default partitioning: a few partitions per worker, whatever the input (a 300 KB CSV
    # was one partition, and a gzip file one, so that one worker did all the work).
    source = example.read(str(paths[kind]), workers=2)
    assert source.npartitions >= 2 * example.PARTITIONS_PER_WORKER
    solved = example.solve(source, "puzzle").compute()
    assert len(solved) == len(frame)
    assert list(solved["id"]) == list(frame["id"])
    assert list(solved.columns[:3]) == ["id", "puzzle", "level"]
    assert results_of(solved).equals(single)
    # Both workers took part.
    assert len(client.scheduler_info()["workers"]) == 2


@pytest.mark.parametrize("kind", ["csv", "csv.gz"])
def test_the_script_writes_a_parquet_dataset_equal_to_a_single_run(dataset, tmp_path, kind):
    paths, frame, single = dataset
    out = tmp_path / "solved"
    # A gzip input hung for over 15 minutes with both workers idle (repartition by size).
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), str(paths[kind]), str(out), "--workers", "2"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    files = sorted(out.glob("*.parquet"))
    assert len(files) > 2
    written = pq.read_table(out)
    assert written.num_rows == len(frame)
    assert written["id"].to_pylist() == list(frame["id"])
    assert written.drop_columns(["id", "puzzle", "level"]).equals(single)


def test_a_result_column_named_like_an_input_column_gets_a_suffix(client):
    example = load_example()
    import dask.dataframe as dd
    frame = pd.DataFrame({"quizzes": [PUZZLE, "." * 81], "solutions": ["given", "given"]})
    solved = example.solve(dd.from_pandas(frame, npartitions=2), "quizzes").compute()
    assert list(solved["solutions"]) == ["given", "given"]
    assert list(solved["solutions_found"]) == [1, 2]
    assert list(solved["status"]) == ["solved", "multiple"]
