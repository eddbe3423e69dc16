#!/usr/bin/env bash
# Prints the path of a virtualenv holding the pinned packages of requirements.txt, making it
# first when it is missing. It is kept in the user's cache directory, named after the
# requirements' digest and the Python version, so that a second run (and a CI run on the same
# machine) installs nothing; pip's own cache serves the wheels to a new one. A failed install
# fails (and leaves no virtualenv marked installed).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python="${PYTHON:-python3}"
key="$( (cat "$here/requirements.txt"; "$python" --version) | sha256sum | cut -c1-16)"
venv="${XDG_CACHE_HOME:-$HOME/.cache}/sudoku-bulk/python-$key"
if [ ! -f "$venv/.installed" ]; then
    rm -rf "$venv"
    "$python" -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2
    touch "$venv/.installed"
fi
echo "$venv"
