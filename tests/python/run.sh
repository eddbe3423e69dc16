#!/usr/bin/env bash
# Runs tests/python/test_loading.py against BINARY in the virtualenv of venv.sh (the pinned
# packages of requirements.txt). Any failure, an install included, fails the run: nothing is
# skipped.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
binary="${1:?usage: tests/python/run.sh BINARY}"
venv="$("$here/venv.sh")"
exec "$venv/bin/python" "$here/test_loading.py" "$binary"
