"""Shared fixtures: the command-line binary the results are compared with, the shipped data
sets, and running the binary."""

import gzip
import json
import os
import subprocess
from pathlib import Path

import pyarrow.parquet as pq
import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"

#: The shipped standard sets (one puzzle per line, gzip) and the jigsaw sample (CSV with a
#: regions column).
SHIPPED = sorted(DATA.glob("*.txt.gz"))
JIGSAW = DATA / "jigsaw_sample.csv"

#: The puzzle of Wikipedia's article on Sudoku and its solution.
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


@pytest.fixture(scope="session")
def cli() -> Path:
    """The sudoku-bulk binary: $SUDOKU_BULK, else a build under target/ (release first)."""
    given = os.environ.get("SUDOKU_BULK")
    candidates = [Path(given)] if given else [
        ROOT / "target" / "release" / "sudoku-bulk",
        ROOT / "target" / "debug" / "sudoku-bulk",
    ]
    for path in candidates:
        if path.is_file():
            return path
    pytest.fail(f"no sudoku-bulk binary at {', '.join(map(str, candidates))}: run cargo build")


def run_cli(cli: Path, *args: str) -> subprocess.CompletedProcess:
    """Runs the binary quietly; fails the test on an exit code other than 0 or 1."""
    done = subprocess.run([str(cli), *args, "-q"] if args[0] in ("solve", "verify") else [str(cli), *args],
                          capture_output=True)
    assert done.returncode in (0, 1), done.stderr.decode()
    return done


def cli_table(cli: Path, tmp_path: Path, command: str, *args: str):
    """The rows of `sudoku-bulk COMMAND ARGS -o out.parquet`, read back by pyarrow."""
    out = tmp_path / f"cli-{command}.parquet"
    run_cli(cli, command, *args, "-o", str(out))
    return pq.read_table(out)


def cli_stats(cli: Path, results: Path, *args: str) -> dict:
    """`sudoku-bulk stats RESULTS --json`, parsed."""
    done = run_cli(cli, "stats", str(results), "--json", *args)
    return json.loads(done.stdout)


def puzzles_of(path: Path) -> list:
    """The puzzle lines of a shipped line-format set (comments and blank lines left out)."""
    with gzip.open(path, "rt") as lines:
        return [l.strip() for l in lines if l.strip() and not l.startswith("#")]
