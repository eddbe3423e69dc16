"""The Python package against the command line (and lib-sudoku) on the same puzzles, same run.

    python python/benchmarks/bench.py --cli target/release/sudoku-bulk [--records 1000000]
        [--rounds 3] [--threads 2] [--peer-python PYTHON [--peer-only]] [--memory-gb 1]
        [--work DIR]

Run it with an interpreter where `sudoku_bulk` is installed from a release build
(`pip install ./python`), against a release binary. For each puzzle set it writes a file of
`--records` puzzles (the shipped sets of data/ cycled, and the 17-clue set alone) and times, in
alternating rounds with `--threads` workers:

- cli-csv, cli-parquet: `sudoku-bulk solve FILE -o OUT.csv|OUT.parquet -q`;
- py-list: `sudoku_bulk.solve(list_of_str)` into a pyarrow.Table (the list is read beforehand);
- py-file: every batch of `sudoku_bulk.solve_file(FILE)`.

Each figure is the median over the rounds of the wall time and of the CPU time (user + sys, of
the child for the CLI and of this process for Python; on a shared machine CPU is the steadier
one); the ratios are Python over the CLI.

With `--peer-python`, an interpreter where lib-sudoku is installed (`pip install lib-sudoku`
into a virtualenv of its own: it is GPL, a peer to measure, never a dependency), two sets are
solved one puzzle at a time by `lib_sudoku.solve` in that interpreter and by `sudoku_bulk.solve`
here with one thread and with two, alternating: easy puzzles like the Kaggle sets' (30-37 givens,
one solution, made by `sudoku-bulk generate`), and the serg benchmark set (several solutions
each). lib-sudoku neither checks uniqueness nor gives statistics; sudoku-bulk does both.

With `--memory-gb`, a file of that many GB of puzzles goes through `solve_file` in a child
process, which reports its peak resident memory (VmHWM).
"""

import argparse
import gzip
import os
import resource
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import sudoku_bulk

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"


def puzzles_of(path: Path) -> list:
    with gzip.open(path, "rt") as lines:
        return [l.strip() for l in lines if l.strip() and not l.startswith("#")]


def cycled(puzzles: list, records: int) -> list:
    return [puzzles[i % len(puzzles)] for i in range(records)]


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(run, cpu) -> tuple:
    """(wall, cpu) seconds of `run()`."""
    wall, used = time.perf_counter(), cpu()
    run()
    return time.perf_counter() - wall, cpu() - used


def measure_set(name, puzzles, args, work: Path) -> None:
    path = work / f"{name}.txt"
    path.write_text("".join(f"{p}\n" for p in puzzles))
    threads = str(args.threads)

    def cli(suffix):
        out = work / f"out.{suffix}"
        return lambda: subprocess.run(
            [args.cli, "solve", str(path), "-o", str(out), "-q", "--threads", threads],
            check=False, stdout=subprocess.DEVNULL)

    def py_list():
        table = sudoku_bulk.solve(puzzles, threads=args.threads)
        assert table.num_rows == len(puzzles)

    def py_file():
        rows = sum(b.num_rows for b in sudoku_bulk.solve_file(path, threads=args.threads))
        assert rows == len(puzzles)

    runs = {
        "cli-csv": (cli("csv"), child_cpu),
        "cli-parquet": (cli("parquet"), child_cpu),
        "py-list": (py_list, own_cpu),
        "py-file": (py_file, own_cpu),
    }
    times = {key: [] for key in runs}
    for _ in range(args.rounds):
        for key, (run, cpu) in runs.items():
            times[key].append(timed(run, cpu))
    median = {key: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t))
              for key, t in times.items()}
    print(f"\n{name}: {len(puzzles):,} puzzles, {args.threads} threads, "
          f"median of {args.rounds} alternating rounds")
    for key, (wall, cpu) in median.items():
        print(f"  {key:12} wall {wall:7.2f} s ({len(puzzles) / wall:>10,.0f}/s)   cpu {cpu:7.2f} s")
    for py in ("py-list", "py-file"):
        for cli_key in ("cli-csv", "cli-parquet"):
            wall = median[py][0] / median[cli_key][0]
            cpu = median[py][1] / median[cli_key][1]
            print(f"  {py} / {cli_key}: wall {wall:.2f}, cpu {cpu:.2f}")
    path.unlink()


PEER = textwrap.dedent("""
    import gzip, sys, time
    import lib_sudoku
    puzzles = [l.strip() for l in open(sys.argv[1])]
    grids = [bytearray(0 if c in ".0" else int(c) for c in p) for p in puzzles]
    start = time.perf_counter()
    for grid in grids:
        lib_sudoku.solve(grid)
    print(time.perf_counter() - start)
""")


def easy_puzzles(args, work: Path, count: int) -> list:
    """Kaggle-like easy puzzles: 30-37 givens, one solution each, made by `sudoku-bulk generate`."""
    path = work / "generated.txt"
    subprocess.run([args.cli, "generate", "--count", str(count), "--givens", "30-37", "--seed",
                    "1", "--output-format", "line", "-q", "-o", str(path)], check=True)
    puzzles = [line.split()[0] for line in path.read_text().splitlines()]
    path.unlink()
    return puzzles


def measure_peer(args, work: Path) -> None:
    sets = [
        ("easy (30-37 givens, generated)", easy_puzzles(args, work, 200_000)),
        ("serg benchmark cycled (several solutions each)",
         cycled(puzzles_of(DATA / "puzzles7_serg_benchmark.txt.gz"), 200_000)),
    ]
    for name, puzzles in sets:
        path = work / "peer.txt"
        path.write_text("".join(f"{p}\n" for p in puzzles))
        peer, ours1, ours2 = [], [], []
        for _ in range(args.rounds):
            done = subprocess.run([args.peer_python, "-c", PEER, str(path)], check=True,
                                  capture_output=True, text=True)
            peer.append(float(done.stdout))
            ours1.append(timed(lambda: sudoku_bulk.solve(puzzles, threads=1), own_cpu)[0])
            ours2.append(timed(lambda: sudoku_bulk.solve(puzzles, threads=2), own_cpu)[0])
        rate = {key: len(puzzles) / statistics.median(t)
                for key, t in (("lib-sudoku", peer), ("ours-1", ours1), ("ours-2", ours2))}
        print(f"\n{name}: {len(puzzles):,} puzzles, median of {args.rounds} alternating rounds, "
              "wall time of the solving calls only")
        print(f"  lib_sudoku.solve, one at a time, 1 thread:  {rate['lib-sudoku']:>10,.0f}/s")
        print(f"  sudoku_bulk.solve(list), threads=1:          {rate['ours-1']:>10,.0f}/s "
              f"({rate['ours-1'] / rate['lib-sudoku']:.2f}x)")
        print(f"  sudoku_bulk.solve(list), threads=2:          {rate['ours-2']:>10,.0f}/s "
              f"({rate['ours-2'] / rate['lib-sudoku']:.2f}x)")
        path.unlink()


MEMORY = textwrap.dedent("""
    import sys, time
    import sudoku_bulk
    rows, start = 0, time.perf_counter()
    for batch in sudoku_bulk.solve_file(sys.argv[1], threads=int(sys.argv[2])):
        rows += batch.num_rows
    status = dict(line.split(":", 1) for line in open("/proc/self/status"))
    print(rows, int(status["VmHWM"].split()[0]) * 1024, time.perf_counter() - start)
""")


def measure_memory(args, work: Path) -> None:
    block = "".join(f"{p}\n" for p in puzzles_of(DATA / "puzzles2_17_clue.txt.gz")).encode()
    path = work / "large.txt"
    size = int(args.memory_gb * 1e9)
    with open(path, "wb") as out:
        written = 0
        while written < size:
            out.write(block)
            written += len(block)
    done = subprocess.run([sys.executable, "-c", MEMORY, str(path), str(args.threads)],
                          check=True, capture_output=True, text=True)
    rows, peak, seconds = done.stdout.split()
    print(f"\nsolve_file over {written / 1e9:.2f} GB ({int(rows):,} puzzles, 17-clue cycled): "
          f"peak RSS {int(peak) / 1e6:.0f} MB, {float(seconds):.1f} s")
    path.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True, help="the sudoku-bulk binary (a release build)")
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--peer-python", help="an interpreter where lib_sudoku is installed")
    parser.add_argument("--memory-gb", type=float, help="also stream a file of this many GB")
    parser.add_argument("--peer-only", action="store_true",
                        help="only the comparison with lib-sudoku (needs --peer-python)")
    parser.add_argument("--work", default=str(ROOT / "target" / "bench-python"))
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    shipped = sorted(DATA.glob("*.txt.gz"))
    every = [p for path in shipped for p in puzzles_of(path)]
    # A first call pays for one-time set-up (pyarrow's lazy imports): not part of any figure.
    sudoku_bulk.solve(every[:1000])
    if not args.peer_only:
        measure_set("every shipped set, cycled", cycled(every, args.records), args, work)
        measure_set("17-clue only", cycled(puzzles_of(DATA / "puzzles2_17_clue.txt.gz"),
                                           args.records), args, work)
    if args.peer_python:
        measure_peer(args, work)
    if args.memory_gb:
        measure_memory(args, work)


if __name__ == "__main__":
    main()
