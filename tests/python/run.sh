#!/usr/bin/env bash
# Runs tests/python/test_loading.py against BINARY in a virtualenv holding the pinned packages
# of requirements.txt. The virtualenv is kept in the user's cache directory, named after the
# requirements' digest, so that a second run (and a CI run on the same machine) installs
# nothing; pip's own cache serves the wheels to a new one. Any failure, an install included,
# fails the run: nothing is skipped.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
binary="${1:?usage: tests/python/run.sh BINARY}"
python="${PYTHON:-python3}"
key="$( (cat "$here/requirements.txt"; "$python" --version) | sha256sum | cut -c1-16)"
venv="${XDG_CACHE_HOME:-$HOME/.cache}/sudoku-bulk/python-$key"
if [ ! -f "$venv/.installed" ]; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
    touch "$venv/.installed"
fi
exec "$venv/bin/python" "$here/test_loading.py" "$binary"
