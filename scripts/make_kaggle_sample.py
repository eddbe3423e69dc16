#!/usr/bin/env python3
"""Makes data/kaggle_sample.csv, the small Kaggle-style file of the README's quick start.

    python3 scripts/make_kaggle_sample.py target/debug/sudoku-bulk > data/kaggle_sample.csv

The layout of the Kaggle 1M set: a header `quizzes,solutions`, then one puzzle and its solution
per row, 81 digits each, 0 for a blank. 985 puzzles come from `sudoku-bulk generate` (a fixed
seed, 27 to 35 givens; each has one solution, checked by the solver and the verifier); then 8
rows repeat earlier rows exactly and 7 repeat earlier puzzles in disguise (digits relabelled,
the grid transposed, two bands swapped: the same canonical form), so that `canon --dedupe`
has duplicates to find. Where the repeats go is drawn from a fixed seed too: the file is the
same on every run.
"""
import csv
import io
import random
import subprocess
import sys

GENERATED = 985
EXACT = 8
DISGUISED = 7


def disguise(grid, rng):
    """The same puzzle (or solution) under one symmetry: relabelled, transposed, bands swapped."""
    labels = list("123456789")
    rng.shuffle(labels)
    relabel = {str(d + 1): labels[d] for d in range(9)}
    relabel["0"] = "0"
    rows = [grid[9 * r : 9 * r + 9] for r in range(9)]
    rows = ["".join(rows[c][r] for c in range(9)) for r in range(9)]  # transposed
    rows = rows[3:6] + rows[0:3] + rows[6:9]  # bands 1 and 2 swapped
    return "".join(relabel[c] for c in "".join(rows))


def main():
    binary = sys.argv[1]
    made = subprocess.run(
        [binary, "generate", "--count", str(GENERATED), "--seed", "32", "--givens", "27-35",
         "--output-format", "csv", "-q"],
        check=True, capture_output=True, text=True,
    ).stdout
    rows = [(r["puzzle"].replace(".", "0"), r["solution"]) for r in csv.DictReader(io.StringIO(made))]
    rng = random.Random(32)
    for _ in range(EXACT):
        rows.insert(rng.randrange(len(rows) // 2, len(rows) + 1), rows[rng.randrange(len(rows) // 2)])
    for _ in range(DISGUISED):
        seed = rng.random()
        puzzle, solution = rows[rng.randrange(len(rows) // 2)]
        rows.insert(
            rng.randrange(len(rows) // 2, len(rows) + 1),
            (disguise(puzzle, random.Random(seed)), disguise(solution, random.Random(seed))),
        )
    out = io.StringIO()
    out.write("quizzes,solutions\n")
    for puzzle, solution in rows:
        out.write(f"{puzzle},{solution}\n")
    sys.stdout.write(out.getvalue())


if __name__ == "__main__":
    main()
