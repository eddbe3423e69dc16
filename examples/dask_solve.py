"""Solve a dataset of puzzles on a Dask cluster with the sudoku_bulk Python package.

    python examples/dask_solve.py PUZZLES OUT_DIR [--column puzzle] [--workers 2]
        [--scheduler ADDRESS] [--partition-size 64MB] [--max-solutions 2]

PUZZLES is a CSV file (the Kaggle sets as they are), plain or gzip-compressed, a glob of such
files (`part-*.csv.gz`), or a Parquet file or directory, read by Dask partition by partition, so
it may be larger than memory. It is cut into at least PARTITIONS_PER_WORKER partitions per
worker, so that every worker has work: a plain CSV is split into blocks of its size divided by
that (or of --partition-size); a gzip file cannot be split, so each is read as one partition
and then divided in memory into that many (by count: Dask's `partition_size` on an unsplit gzip
file never finishes), which needs a file to fit in a worker's memory: give large inputs as
several files, or plain. Each partition is solved on a worker by `sudoku_bulk.solve` with one
thread (Dask runs the partitions in parallel, one per worker thread), and its rows are the
input's columns followed by the results: `solution`, `status`, `solutions`, the search counters
and `error`, with their Arrow types (counts uint64, null for invalid records; text as strings).
The result is written as a Parquet dataset to OUT_DIR and equals a single run of
`sudoku-bulk solve` over the whole column, row for row (`python/tests/test_dask.py` checks this
on a cluster of two worker processes, for .csv, .csv.gz and Parquet).

Workers need the package too. On this machine (the default, a LocalCluster) they have it. On a
cluster (--scheduler ADDRESS), build a wheel once and install it on every worker:

    pip wheel ./python -w dist/        # dist/sudoku_bulk-*.whl, for this platform and Python
    pip install dist/sudoku_bulk-*.whl # on each worker (or in the workers' image)

or, with workers of the same platform and Python, send it from the client, which installs it on
every worker it reaches (the wheel's path):

    client.upload_file("dist/sudoku_bulk-0.1.0-cp39-abi3-manylinux_2_34_x86_64.whl")
"""

import argparse
import glob
import os
from typing import Optional

import dask.dataframe as dd
import pandas as pd
from dask.distributed import Client, LocalCluster
from dask.utils import parse_bytes

import sudoku_bulk

#: Result columns left out: `line` is a position within a partition, and `puzzle` is the
#: input's own column, normalised.
DROPPED = ["line", "puzzle"]

#: Partitions per worker, at least: a few, so that a slow partition does not leave the other
#: workers idle at the end.
PARTITIONS_PER_WORKER = 4


def solve_partition(part: pd.DataFrame, column: str, max_solutions: int) -> pd.DataFrame:
    """One partition's rows: its columns, then the results of solving `column` (a result
    column whose name the input already has, such as the Kaggle set's `solutions`, gets the
    suffix `_found`)."""
    table = sudoku_bulk.solve(part[column], max_solutions=max_solutions, threads=1)
    results = table.drop_columns(DROPPED).to_pandas(types_mapper=pd.ArrowDtype)
    results.columns = [f"{c}_found" if c in part.columns else c for c in results.columns]
    results.index = part.index
    return pd.concat([part, results], axis=1)


def read(path: str, workers: int, partition_size: Optional[str] = None) -> dd.DataFrame:
    """A CSV (plain or gzip, or a glob of them) or Parquet dataset, grids read as text (never
    as numbers), in at least PARTITIONS_PER_WORKER partitions per worker."""
    wanted = PARTITIONS_PER_WORKER * workers
    if path.endswith((".csv", ".csv.gz")):
        text = {"dtype": str, "keep_default_na": False}
        files = sorted(glob.glob(path)) or [path]
        if path.endswith(".gz"):
            # One partition per file (gzip cannot be split), divided in memory by count.
            frame = dd.read_csv(path, blocksize=None, **text)
            return frame.repartition(npartitions=max(wanted, frame.npartitions))
        size = sum(os.path.getsize(f) for f in files)
        blocksize = parse_bytes(partition_size) if partition_size else size // wanted
        frame = dd.read_csv(path, blocksize=max(blocksize, 1 << 10), **text)
        # Blocks end at line ends, so a few may merge: divided in memory up to the count.
        if partition_size is None and frame.npartitions < wanted:
            frame = frame.repartition(npartitions=wanted)
        return frame
    frame = dd.read_parquet(path)
    return frame.repartition(npartitions=max(wanted, frame.npartitions))


def solve(frame: dd.DataFrame, column: str, max_solutions: int = 2) -> dd.DataFrame:
    """Every partition of `frame` solved where it lies."""
    meta = solve_partition(frame._meta, column, max_solutions)
    return frame.map_partitions(solve_partition, column, max_solutions, meta=meta)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", help="a CSV file (or .csv.gz, or a glob), or Parquet")
    parser.add_argument("out", help="the Parquet dataset to write (a directory)")
    parser.add_argument("--column", default="puzzle", help="the puzzle column (default: puzzle)")
    parser.add_argument("--workers", type=int, default=2,
                        help="local workers (default: 2); with --scheduler, the cluster's")
    parser.add_argument("--scheduler", help="a Dask scheduler's address instead of local workers")
    parser.add_argument("--partition-size", help="bytes of plain CSV per partition "
                        "(default: the file's size over 4 partitions per worker)")
    parser.add_argument("--max-solutions", type=int, default=2)
    args = parser.parse_args()
    if args.scheduler:
        cluster = None
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                               dashboard_address=None)
        client = Client(cluster)
    with client:
        workers = len(client.scheduler_info()["workers"]) or args.workers
        frame = read(args.puzzles, workers, args.partition_size)
        solved = solve(frame, args.column, args.max_solutions)
        solved.to_parquet(args.out, write_index=False)
    if cluster is not None:
        cluster.close()
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
