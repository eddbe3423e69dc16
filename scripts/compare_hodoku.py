#!/usr/bin/env python3
"""Rates the same puzzles with sudoku-bulk's rater and with hodoku-py (a Python port of
HoDoKu 2.2) and reports, per input file, how often the level and the hardest technique agree,
and puzzles/s of both, measured in the same run, single thread.

    python3 -m venv /work/venv-hodoku && /work/venv-hodoku/bin/pip install hodoku-py
    cargo build --release
    /work/venv-hodoku/bin/python scripts/compare_hodoku.py data/graded/*.txt.gz \
        --limit 200 --csv /tmp/compare.csv

Each file is one group (a difficulty): its first `--limit` puzzles (lines of 81 cells; `#`
lines skipped) are rated by hodoku-py one by one (at most `--seconds` per file: puzzles not
reached are left out of both sides), then by ours (`sudoku-bulk rate --threads 1`, the same
puzzles fed `--repeat` times so that its timing is not noise; its rate is the puzzles/s of its
summary line, which times the whole run: reading, the uniqueness search, rating, writing).
Only puzzles rated on our side (one solution) are compared.

"Hardest" is, on both sides, the technique of the highest HoDoKu level used, ties broken by
the higher base score, then by the later place in HoDoKu's order. HoDoKu techniques we do not
implement keep their HoDoKu name (e.g. `grouped-nice-loop`), so they count as disagreements.
"""

import argparse
import collections
import csv
import gzip
import io
import re
import subprocess
import sys
import time

from hodoku.api import Solver
from hodoku.core.scoring import STEP_CONFIG

# HoDoKu solution types -> our technique keys.
KEYS = {
    "FULL_HOUSE": "full-house",
    "NAKED_SINGLE": "naked-single",
    "HIDDEN_SINGLE": "hidden-single",
    "LOCKED_PAIR": "locked-pair",
    "LOCKED_TRIPLE": "locked-triple",
    "LOCKED_CANDIDATES_1": "locked-candidates-pointing",
    "LOCKED_CANDIDATES_2": "locked-candidates-claiming",
    "NAKED_PAIR": "naked-pair",
    "NAKED_TRIPLE": "naked-triple",
    "NAKED_QUADRUPLE": "naked-quad",
    "HIDDEN_PAIR": "hidden-pair",
    "HIDDEN_TRIPLE": "hidden-triple",
    "HIDDEN_QUADRUPLE": "hidden-quad",
    "X_WING": "x-wing",
    "SWORDFISH": "swordfish",
    "JELLYFISH": "jellyfish",
    "REMOTE_PAIR": "remote-pair",
    "BUG_PLUS_1": "bug-plus-1",
    "SKYSCRAPER": "skyscraper",
    "TWO_STRING_KITE": "2-string-kite",
    "DUAL_TWO_STRING_KITE": "2-string-kite",
    "TURBOT_FISH": "turbot-fish",
    "EMPTY_RECTANGLE": "empty-rectangle",
    "DUAL_EMPTY_RECTANGLE": "empty-rectangle",
    "W_WING": "w-wing",
    "XY_WING": "xy-wing",
    "XYZ_WING": "xyz-wing",
    "UNIQUENESS_1": "unique-rectangle-1",
    "UNIQUENESS_2": "unique-rectangle-2",
    "UNIQUENESS_3": "unique-rectangle-3",
    "UNIQUENESS_4": "unique-rectangle-4",
    "HIDDEN_RECTANGLE": "hidden-rectangle",
    "FINNED_X_WING": "finned-x-wing",
    "SASHIMI_X_WING": "sashimi-x-wing",
    "FINNED_SWORDFISH": "finned-swordfish",
    "SASHIMI_SWORDFISH": "sashimi-swordfish",
    "FINNED_JELLYFISH": "finned-jellyfish",
    "SASHIMI_JELLYFISH": "sashimi-jellyfish",
    "SUE_DE_COQ": "sue-de-coq",
    "SIMPLE_COLORS_TRAP": "simple-colors",
    "SIMPLE_COLORS_WRAP": "simple-colors",
    "MULTI_COLORS_1": "multi-colors",
    "MULTI_COLORS_2": "multi-colors",
    "X_CHAIN": "x-chain",
    "XY_CHAIN": "xy-chain",
    "CONTINUOUS_NICE_LOOP": "nice-loop",
    "DISCONTINUOUS_NICE_LOOP": "nice-loop",
    "AIC": "nice-loop",
    "ALS_XZ": "als-xz",
    "ALS_XY_WING": "als-xy-wing",
    "FORCING_CHAIN_CONTRADICTION": "forcing-chain",
    "FORCING_CHAIN_VERITY": "forcing-chain",
    "FORCING_NET_CONTRADICTION": "forcing-net",
    "FORCING_NET_VERITY": "forcing-net",
    "BRUTE_FORCE": "brute-force",
}


def key_of(solution_type):
    name = solution_type.name
    return KEYS.get(name, name.lower().replace("_", "-"))


def hardest(steps):
    best, best_rank = "", None
    for s in steps:
        cfg = STEP_CONFIG.get(s.type)
        if cfg is None:
            continue
        rank = (cfg.level.value, cfg.base_score, cfg.index)
        if best_rank is None or rank > best_rank:
            best, best_rank = key_of(s.type), rank
    return best


def read_puzzles(path, limit):
    opener = gzip.open if path.endswith(".gz") else open
    out = []
    with opener(path, "rt") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            out.append(line[:81].replace("0", "."))
            if len(out) >= limit:
                break
    return out


def ours(binary, puzzles, repeat):
    text = "\n".join(puzzles * repeat) + "\n"
    run = subprocess.run(
        [binary, "rate", "--threads", "1"], input=text, capture_output=True, text=True, check=True
    )
    rows = list(csv.DictReader(io.StringIO(run.stdout)))[: len(puzzles)]
    # stderr: "sudoku-bulk: N records in S s (R puzzles/s): ..."
    rate = float(re.search(r"\(([0-9.]+) puzzles/s\)", run.stderr).group(1))
    return rows, rate


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=120.0, help="hodoku-py time budget per file")
    ap.add_argument("--repeat", type=int, default=0, help="times ours rates the puzzles (0: auto)")
    ap.add_argument("--binary", default="target/release/sudoku-bulk")
    ap.add_argument("--csv", help="write every puzzle's two ratings here")
    args = ap.parse_args()

    solver = Solver()
    table = []
    detail = []
    for path in args.files:
        puzzles = read_puzzles(path, args.limit)
        theirs = []
        start = time.perf_counter()
        for p in puzzles:
            r = solver.solve(p)
            theirs.append((r.level.name.lower(), r.score, hardest(r.steps)))
            if time.perf_counter() - start > args.seconds:
                break
        their_time = time.perf_counter() - start
        puzzles = puzzles[: len(theirs)]
        their_rate = len(theirs) / their_time
        repeat = args.repeat or max(1, int(2000 / max(1, len(puzzles))))
        rows, our_rate = ours(args.binary, puzzles, repeat)
        n = level_same = hardest_same = 0
        by_level = collections.Counter()
        for p, t, o in zip(puzzles, theirs, rows):
            if o["status"] != "rated":
                continue
            n += 1
            ls = o["level"] == t[0]
            hs = o["hardest"] == t[2]
            level_same += ls
            hardest_same += hs
            by_level[t[0]] += 1
            detail.append([path, p, t[0], t[1], t[2], o["level"], o["score"], o["hardest"]])
        name = path.split("/")[-1]
        table.append((name, n, level_same, hardest_same, their_rate, our_rate, dict(by_level)))

    print(f"{'set':<40} {'n':>5} {'level':>7} {'hardest':>8} {'hodoku/s':>9} {'ours/s':>10} {'ratio':>8}  hodoku levels")
    for name, n, ls, hs, tr, orate, levels in table:
        print(f"{name:<40} {n:>5} {100*ls/max(n,1):>6.1f}% {100*hs/max(n,1):>7.1f}% {tr:>9.2f} {orate:>10.0f} {orate/tr:>8.0f}  {levels}")
    # Agreement by HoDoKu's level, over all files.
    per = collections.defaultdict(lambda: [0, 0, 0])
    for row in detail:
        per[row[2]][0] += 1
        per[row[2]][1] += row[2] == row[5]
        per[row[2]][2] += row[4] == row[7]
    print()
    print(f"{'hodoku level':<14} {'n':>5} {'same level':>11} {'same hardest':>13}")
    for level in ["easy", "medium", "hard", "unfair", "extreme"]:
        if level in per:
            n, ls, hs = per[level]
            print(f"{level:<14} {n:>5} {100*ls/n:>10.1f}% {100*hs/n:>12.1f}%")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["file", "puzzle", "hodoku_level", "hodoku_score", "hodoku_hardest", "level", "score", "hardest"])
            w.writerows(detail)


if __name__ == "__main__":
    sys.exit(main())
