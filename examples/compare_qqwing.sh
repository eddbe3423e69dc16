#!/usr/bin/env bash
# Compares the sudoku-bulk CLI with QQWing (`apt-get install qqwing`), the bulk CLI with
# per-puzzle statistics, on shipped sets: both solve every puzzle, count solutions (uniqueness)
# and report statistics, one thread. QQWing solves each set once; sudoku-bulk solves it
# REPEAT times over (default 50), so that its time is measurable. Prints a Markdown table of
# puzzles/s and the ratio, measured in the same run.
#
#   examples/compare_qqwing.sh [SET ...]   (default: magictour and forum hardest 1106 from data/)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v qqwing >/dev/null || { echo "qqwing is not installed (apt-get install qqwing)" >&2; exit 77; }
cargo build --release --quiet
bin=target/release/sudoku-bulk
repeat=${REPEAT:-50}
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(data/puzzles3_magictour_top1465.txt.gz data/puzzles6_forum_hardest_1106.txt.gz)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() { # runs "$@", prints the elapsed seconds
  local start end
  start=$(date +%s.%N)
  "$@"
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}

echo "| set | puzzles | QQWing puzzles/s | sudoku-bulk puzzles/s (1 thread) | ratio |"
echo "|---|---:|---:|---:|---:|"
for set in "${sets[@]}"; do
  zcat -f "$set" | grep -v '^#' | grep -v '^[[:space:]]*$' > "$work/puzzles.txt"
  n=$(wc -l < "$work/puzzles.txt")
  for _ in $(seq "$repeat"); do cat "$work/puzzles.txt"; done > "$work/repeated.txt"
  q=$(seconds sh -c "qqwing --solve --csv --stats --count-solutions < '$work/puzzles.txt' > /dev/null")
  s=$(seconds "$bin" solve -q --threads 1 -o /dev/null "$work/repeated.txt")
  qrate=$(echo "$n / $q" | bc -l)
  srate=$(echo "$n * $repeat / $s" | bc -l)
  printf '| %s | %d | %.0f | %.0f | %.0f |\n' "$(basename "$set")" "$n" "$qrate" "$srate" \
    "$(echo "$srate / $qrate" | bc -l)"
done
