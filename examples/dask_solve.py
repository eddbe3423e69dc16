"""Solve a dataset of puzzles on a Dask cluster with the sudoku_bulk Python package.

    python examples/dask_solve.py PUZZLES OUT_DIR [--column puzzle] [--workers 2]
        [--partition-size 64MB] [--max-solutions 2]

PUZZLES is a CSV file (the Kaggle sets as they are) or a Parquet file or directory, read by
Dask partition by partition, so it may be larger than memory. Each partition is solved on a
worker by `sudoku_bulk.solve` with one thread (Dask runs the partitions in parallel, one per
worker thread), and its rows are the input's columns followed by the results: `solution`,
`status`, `solutions`, the search counters and `error`, with their Arrow types (counts uint64,
null for invalid records; text as strings). The result is written as a Parquet dataset to
OUT_DIR and equals a single run of `sudoku_bulk.solve` over the whole column, row for row
(`python/tests/test_dask.py` checks this on a 2-worker cluster). On a real cluster, give
`Client` the scheduler's address instead of starting a `LocalCluster`.
"""

import argparse

import dask.dataframe as dd
import pandas as pd
from dask.distributed import Client, LocalCluster

import sudoku_bulk

#: Result columns left out: `line` is a position within a partition, and `puzzle` is the
#: input's own column, normalised.
DROPPED = ["line", "puzzle"]


def solve_partition(part: pd.DataFrame, column: str, max_solutions: int) -> pd.DataFrame:
    """One partition's rows: its columns, then the results of solving `column` (a result
    column whose name the input already has, such as the Kaggle set's `solutions`, gets the
    suffix `_found`)."""
    table = sudoku_bulk.solve(part[column], max_solutions=max_solutions, threads=1)
    results = table.drop_columns(DROPPED).to_pandas(types_mapper=pd.ArrowDtype)
    results.columns = [f"{c}_found" if c in part.columns else c for c in results.columns]
    results.index = part.index
    return pd.concat([part, results], axis=1)


def read(path: str, partition_size: str) -> dd.DataFrame:
    """A CSV or Parquet dataset, grids read as text (never as numbers)."""
    if path.endswith(".csv") or path.endswith(".csv.gz"):
        # Gzip cannot be split: a compressed CSV is one partition, repartitioned after reading.
        compressed = path.endswith(".gz")
        frame = dd.read_csv(
            path,
            dtype=str,
            keep_default_na=False,
            blocksize=None if compressed else partition_size,
        )
        return frame.repartition(partition_size=partition_size) if compressed else frame
    return dd.read_parquet(path)


def solve(frame: dd.DataFrame, column: str, max_solutions: int = 2) -> dd.DataFrame:
    """Every partition of `frame` solved where it lies."""
    meta = solve_partition(frame._meta, column, max_solutions)
    return frame.map_partitions(solve_partition, column, max_solutions, meta=meta)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", help="a CSV file, or a Parquet file or directory")
    parser.add_argument("out", help="the Parquet dataset to write (a directory)")
    parser.add_argument("--column", default="puzzle", help="the puzzle column (default: puzzle)")
    parser.add_argument("--workers", type=int, default=2, help="local workers (default: 2)")
    parser.add_argument("--partition-size", default="64MB", help="bytes of CSV per partition")
    parser.add_argument("--max-solutions", type=int, default=2)
    args = parser.parse_args()
    with LocalCluster(
        n_workers=args.workers, threads_per_worker=1, dashboard_address=None
    ) as cluster, Client(cluster):
        frame = read(args.puzzles, args.partition_size)
        solved = solve(frame, args.column, args.max_solutions)
        solved.to_parquet(args.out, write_index=False)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
