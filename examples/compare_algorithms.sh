#!/usr/bin/env bash
# Compares the algorithms on shipped datasets with the tool itself: for each set and algorithm,
# `solve` (one worker thread, the default uniqueness check, a budget of 1,000,000 recursions) and
# `stats` on its output. Prints a Markdown table: median recursions, puzzles/s, and how many
# puzzles each algorithm solved (status solved or multiple) within the budget.
#
#   examples/compare_algorithms.sh [SET ...]     (default: serg and magictour from data/)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/sudoku-bulk
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(data/puzzles7_serg_benchmark.txt.gz data/puzzles3_magictour_top1465.txt.gz)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| set | algorithm | median recursions | puzzles/s | solved within budget |"
echo "|---|---|---:|---:|---:|"
for set in "${sets[@]}"; do
  for algorithm in fast logic candidates naive random; do
    out="$work/out.csv"
    summary=$("$bin" solve "$set" --algorithm "$algorithm" --threads 1 --max-recursions 1000000 \
      -o "$out" 2>&1 >/dev/null | grep -E " records? (\(.*\) )?in " | tail -n 1)
    rate=$(sed -E 's/.*\(([0-9]+) puzzles\/s\).*/\1/' <<<"$summary")
    table=$("$bin" stats "$out")
    records=$(awk '/^records:/ {print $2}' <<<"$table")
    median=$(awk '$1 == "recursions" {print $5}' <<<"$table")
    solved=$(awk '$1 == "solved" || $1 == "multiple" {n += $2} END {print n}' <<<"$table")
    echo "| $(basename "$set") | $algorithm | $median | $rate | $solved of $records |"
  done
done
