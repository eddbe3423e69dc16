#!/usr/bin/env bash
# Lints the Python package (python/), builds it into the test virtualenv of tests/python/venv.sh
# with `maturin develop --profile dev` (no optimised release build: a quick one; pyproject.toml
# names the `python` profile for wheels and `pip install`), then runs its pytest suite
# against BINARY, the command line the results are compared with.
# Any failure, a build or an install included, fails the run; pytest's "no tests ran" too.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="$(realpath "${1:?usage: python/tests/run.sh BINARY}")"
venv="$("$root/tests/python/venv.sh")"
# Its lints (the root's `cargo clippy` covers the default member only); PyO3 asks this Python.
(cd "$root" && PYO3_PYTHON="$venv/bin/python" cargo clippy --quiet -p sudoku-bulk-python -- -D warnings)
VIRTUAL_ENV="$venv" "$venv/bin/maturin" develop --quiet --profile dev --manifest-path "$root/python/Cargo.toml"
cd "$root/python"
SUDOKU_BULK="$binary" exec "$venv/bin/python" -m pytest -p no:cacheprovider tests
