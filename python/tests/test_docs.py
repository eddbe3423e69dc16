"""The Python examples of the docs that use the package run as a reader would run them: from
the repository's root, each block as one script. A block that raises fails the test."""

import os
import re

import pytest

from conftest import ROOT

BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def package_examples():
    """(where, code) of every Python block of README.md and docs/ that imports the package."""
    found = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for block in BLOCK.finditer(text):
            code = block.group(1)
            if re.search(r"^import .*\bsudoku_bulk\b", code, re.M):
                line = text[: block.start()].count("\n") + 1
                found.append((f"{page.relative_to(ROOT)}:{line}", code))
    return found


EXAMPLES = package_examples()


def test_the_docs_show_the_package_in_use():
    assert EXAMPLES, "no Python block of the docs imports sudoku_bulk"


@pytest.mark.parametrize("where,code", EXAMPLES, ids=[w for w, _ in EXAMPLES])
def test_a_docs_example_runs(where, code, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(code, where, "exec"), {"__name__": "__docs__"})
