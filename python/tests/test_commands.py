"""rate(), canon() and generate() equal `sudoku-bulk rate`, `canon` and `generate` cell for cell
on the same input and options; pandas and polars inputs; errors with the command line's
messages; the smaller refusals (threads, a dict of puzzles, summarize's groups)."""

import gzip

import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import sudoku_bulk
from conftest import DATA, PUZZLE, SHIPPED, cli_stats, cli_table, puzzles_of, run_cli

def sample():
    """Puzzles of two shipped sets and the troubles a dataset holds."""
    return (puzzles_of(SHIPPED[0])[:60] + puzzles_of(SHIPPED[-1])[:20]
            + [PUZZLE, PUZZLE[:80], "55" + PUZZLE[2:], "." * 81, PUZZLE[::-1], PUZZLE])


def written(tmp_path, puzzles):
    """The puzzles as a one-per-line file."""
    path = tmp_path / "puzzles.txt"
    path.write_text("".join(f"{p}\n" for p in puzzles))
    return path


def test_rate_equals_the_command_line_cell_for_cell(cli, tmp_path):
    puzzles = sample()
    expected = cli_table(cli, tmp_path, "rate", str(written(tmp_path, puzzles)))
    table = sudoku_bulk.rate(puzzles)
    assert table.schema.equals(expected.schema)
    # `line` is the file's line there and the position here: one line a puzzle, the same.
    assert table.equals(expected)
    assert {"rated", "invalid"} <= set(table["status"].to_pylist())
    # pandas and polars inputs give the same table.
    assert sudoku_bulk.rate(pd.Series(puzzles)).equals(table)
    assert sudoku_bulk.rate(pl.Series(puzzles)).equals(table)
    assert sudoku_bulk.rate(puzzles, threads=1).equals(table)


def test_rate_with_a_budget_and_regions_equals_the_command_line(cli, tmp_path):
    puzzles = sample()
    path = written(tmp_path, puzzles)
    expected = cli_table(cli, tmp_path, "rate", str(path), "--max-recursions", "5")
    assert sudoku_bulk.rate(puzzles, max_recursions=5).equals(expected)
    assert "gave_up" in expected["status"].to_pylist()


def test_rate_on_sudoku_explainers_scale_equals_the_command_line(cli, tmp_path):
    puzzles = sample()
    path = written(tmp_path, puzzles)
    expected = cli_table(cli, tmp_path, "rate", str(path), "--scale", "se")
    table = sudoku_bulk.rate(puzzles, scale="se")
    assert table.schema.equals(expected.schema)
    assert table.equals(expected)
    assert table.schema.field("er").type == pa.float64()
    assert sudoku_bulk.rate(puzzles, scale="se", threads=1).equals(table)
    with pytest.raises(ValueError, match="scale: unknown scale 'qqwing'"):
        sudoku_bulk.rate(puzzles, scale="qqwing")


def test_rate_invariant_equals_the_command_line_and_rates_copies_as_their_source(cli, tmp_path):
    puzzles = sample()
    path = written(tmp_path, puzzles)
    expected = cli_table(cli, tmp_path, "rate", str(path), "--invariant")
    assert sudoku_bulk.rate(puzzles, invariant=True).equals(expected)
    # magictour: hard puzzles, whose paths depend most on where the cells are.
    sources = puzzles_of(SHIPPED[1])[:10]
    copies = sudoku_bulk.augment(sources, copies=2, seed=3)
    source = sudoku_bulk.rate(sources, invariant=True).to_pylist()
    rated = sudoku_bulk.rate(copies["puzzle"], invariant=True)
    for i, row in enumerate(rated.to_pylist()):
        of = source[copies["line"][i].as_py() - 1]
        assert row["status"] == of["status"] == "rated"
        assert (row["level"], row["score"], row["techniques"]) == (
            of["level"], of["score"], of["techniques"])


@pytest.mark.parametrize("scale", ["hodoku", "se"])
def test_summarize_of_rate_rows_gives_the_numbers_of_stats_json(cli, tmp_path, scale):
    puzzles = sample()
    path = written(tmp_path, puzzles)
    cli_table(cli, tmp_path, "rate", str(path), "--scale", scale)
    results = tmp_path / "cli-rate.parquet"
    table = sudoku_bulk.rate(puzzles, scale=scale)
    part = "se_rating" if scale == "se" else "rating"
    expected = cli_stats(cli, results)
    assert expected[part]["records"] == len(puzzles)
    assert sudoku_bulk.summarize(table) == expected
    # Batch by batch, as a stream, and grouped: the same numbers.
    assert sudoku_bulk.summarize(iter(table.to_batches(max_chunksize=7))) == expected
    assert sudoku_bulk.summarize(table, by="status") == cli_stats(cli, results, "--by", "status")
    if scale == "se":
        assert expected["se_hardest"], "the summary names the hardest puzzles by ER"
    # A rated row whose figures disagree (more steps than its techniques, an ED above its EP)
    # is refused, naming it.
    rated = table.filter(pc.equal(table["status"], "rated"))
    column, value = ("ed", 99.0) if scale == "se" else ("steps", 10**6)
    field = rated.schema.field(column)
    broken = rated.set_column(rated.schema.get_field_index(column), field,
                              pa.array([value] * rated.num_rows, field.type))
    with pytest.raises(ValueError, match=f"row 0 .*{column}"):
        sudoku_bulk.summarize(broken)


def test_canon_equals_the_command_line_cell_for_cell(cli, tmp_path):
    puzzles = sample()
    expected = cli_table(cli, tmp_path, "canon", str(written(tmp_path, puzzles)))
    table = sudoku_bulk.canon(pl.Series(puzzles))
    assert table.schema.equals(expected.schema)
    assert table.equals(expected)
    assert sudoku_bulk.canon(pd.Series(puzzles)).equals(table)
    forms = table["canonical"].to_pylist()
    # A puzzle turned half a turn is the same puzzle.
    assert forms[-2] == forms[-1] == forms[-6]


def test_canon_dedupe_keeps_the_first_of_each_class_as_the_command_line(cli, tmp_path):
    puzzles = sample()
    path = written(tmp_path, puzzles)
    # --dedupe writes CSV (not Parquet): read with every column as text, then compared as such.
    done = run_cli(cli, "canon", str(path), "--dedupe", "-q")
    names = done.stdout.decode().splitlines()[0].split(",")
    expected = pacsv.read_csv(pa.py_buffer(done.stdout), convert_options=pacsv.ConvertOptions(
        column_types={n: pa.string() for n in names}, strings_can_be_null=True))
    table = sudoku_bulk.canon(puzzles, dedupe=True)
    assert table.column_names == names
    assert table.num_rows == expected.num_rows < len(puzzles)
    text = table.cast(pa.schema([(n, pa.string()) for n in names]))
    assert text.to_pylist() == expected.to_pylist()
    lines = table["line"].to_pylist()
    assert len(puzzles) - 1 not in lines and len(puzzles) not in lines
    # Past the bound of classes: the command line's refusal.
    with pytest.raises(ValueError, match="dedupe: more than 3 classes; raise max_classes"):
        sudoku_bulk.canon(puzzles, dedupe=True, max_classes=3)


def test_canon_dedupe_exact_leaves_out_identical_puzzles_only_as_the_command_line(cli, tmp_path):
    puzzles = sample()
    done = run_cli(cli, "canon", str(written(tmp_path, puzzles)), "--dedupe", "--exact", "-q")
    expected_lines = [int(row.split(",")[0]) for row in done.stdout.decode().splitlines()[1:]]
    lines = sudoku_bulk.canon(puzzles, dedupe=True, exact=True)["line"].to_pylist()
    assert lines == expected_lines
    # The repeat of the first puzzle is left out; its half-turn (the same class) is kept.
    assert len(puzzles) not in lines and len(puzzles) - 1 in lines
    assert len(puzzles) - 1 not in sudoku_bulk.canon(puzzles, dedupe=True)["line"].to_pylist()
    with pytest.raises(ValueError, match="exact: only with dedupe=True"):
        sudoku_bulk.canon(puzzles, exact=True)


@pytest.mark.parametrize("options", [
    {},
    {"seed": 7, "givens": (24, 28)},
    {"seed": 3, "givens": 30, "symmetry": "rot180"},
    {"seed": 5, "minimal": True},
    {"seed": 11, "regions": "random"},
    {"seed": 2, "level": "medium-hard"},
    {"seed": 4, "score": (100, 400)},
    {"seed": 6, "needs": "x-wing"},
    {"seed": 8, "level": "hard", "walk": 5},
    {"seed": 9, "level": "hard", "neighbours": 6},
    {"seed": 10, "se": (3.0, 6.5)},
], ids=["defaults", "givens", "symmetry", "minimal", "jigsaw", "level", "score", "needs", "walk",
        "neighbours", "se"])
def test_generate_equals_the_command_line_cell_for_cell(cli, tmp_path, options):
    args = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            args.append(flag)
        elif isinstance(value, tuple):
            args += [flag, f"{value[0]}-{value[1]}"]
        else:
            args += [flag, str(value)]
    out = tmp_path / "generated.parquet"
    run_cli(cli, "generate", "--count", "40", "-q", *args, "-o", str(out))
    expected = pq.read_table(out)
    table = sudoku_bulk.generate(40, **options)
    assert table.schema.equals(expected.schema, check_metadata=False)
    assert table.equals(expected.replace_schema_metadata(None))
    assert sudoku_bulk.generate(40, threads=1, **options).equals(table)
    # Every puzzle has its one solution.
    assert set(sudoku_bulk.solve(table["puzzle"])["status"].to_pylist()) == {"solved"} or \
        "regions" in table.column_names


def test_augment_equals_the_command_line_and_transforms_solutions_alike(cli, tmp_path):
    puzzles = sample()
    path = written(tmp_path, puzzles)
    expected = cli_table(cli, tmp_path, "augment", str(path), "--copies", "3", "--seed", "5")
    table = sudoku_bulk.augment(puzzles, copies=3, seed=5)
    assert table.schema.equals(expected.schema)
    assert table.equals(expected)
    assert sudoku_bulk.augment(puzzles, copies=3, seed=5, threads=1).equals(table)
    with pytest.raises(ValueError, match="copies must be at most 1000"):
        sudoku_bulk.augment(puzzles, copies=1001)
    # With solutions: the same copies, each solution transformed with its puzzle.
    good = [p for p in puzzles_of(SHIPPED[0])[:20]]
    solved = sudoku_bulk.solve(good)["solution"].to_pylist()
    plain = sudoku_bulk.augment(good, copies=2, seed=9)
    with_solutions = sudoku_bulk.augment(good, copies=2, seed=9, solutions=solved)
    for name in ["line", "copy", "puzzle", "transform"]:
        assert with_solutions[name].equals(plain[name])
    checked = sudoku_bulk.verify(with_solutions["puzzle"], with_solutions["solution"])
    assert set(checked["status"].to_pylist()) == {"ok"}
    # A solution of another puzzle is no solution of this one: invalid, as verify says.
    swapped = sudoku_bulk.augment(good, seed=9, solutions=solved[1:] + solved[:1])
    assert set(swapped["status"].to_pylist()) == {"invalid"}
    assert all(e.startswith("the solution: ") for e in swapped["error"].to_pylist())
    with pytest.raises(ValueError, match="solutions: 1 of them for 20 puzzles"):
        sudoku_bulk.augment(good, solutions=solved[:1])
    with pytest.raises(ValueError, match="copies must be"):
        sudoku_bulk.augment(good, copies=0)


def test_generate_of_no_puzzles_has_the_columns():
    table = sudoku_bulk.generate(0)
    assert table.num_rows == 0
    assert table.column_names == ["index", "puzzle", "solution", "givens"]
    # An empty list of techniques asks for none, as no list does.
    assert sudoku_bulk.generate(3, seed=2, needs=[]).equals(sudoku_bulk.generate(3, seed=2))


@pytest.mark.parametrize("call,error,words", [
    (lambda: sudoku_bulk.generate(2, givens=16), ValueError,
     "no standard Sudoku with fewer than 17 givens has a unique solution"),
    (lambda: sudoku_bulk.generate(2, givens=(30, 20)), ValueError, "givens"),
    (lambda: sudoku_bulk.generate(2, givens="a-b"), ValueError, "givens 'a-b': expected N or A-B"),
    (lambda: sudoku_bulk.generate(2, givens=[1.5, 2]), TypeError, "givens: expected an int"),
    (lambda: sudoku_bulk.generate(2, givens=30, symmetry="rot90"), ValueError,
     "no pattern with rot90 symmetry has 30-30 givens"),
    (lambda: sudoku_bulk.generate(2, symmetry="spiral"), ValueError, "unknown symmetry 'spiral'"),
    (lambda: sudoku_bulk.generate(2, regions="abc"), ValueError, "regions: region layout"),
    (lambda: sudoku_bulk.generate(-1), ValueError, "count must be"),
    (lambda: sudoku_bulk.generate(None), TypeError, "count: expected an int, not None"),
    (lambda: sudoku_bulk.generate(2, level="tough"), ValueError, "level: "),
    (lambda: sudoku_bulk.generate(2, needs=["x-wing", "teleport"]), ValueError,
     "unknown technique 'teleport'"),
    (lambda: sudoku_bulk.generate(2, needs=3), TypeError, "needs: expected a list"),
    (lambda: sudoku_bulk.generate(2, needs=""), ValueError, "no technique named"),
    (lambda: sudoku_bulk.generate(2, score="1-3"), ValueError, "scores 4 at least"),
    (lambda: sudoku_bulk.generate(2, score=-5), ValueError, "score must be an integer from 0"),
    (lambda: sudoku_bulk.generate(2, score=(-5, 3)), ValueError, "score must be an integer"),
    (lambda: sudoku_bulk.generate(2, score=2**70), ValueError, "score must be an integer"),
    (lambda: sudoku_bulk.generate(2, score=(5,)), ValueError, "score: expected a (min, max) pair"),
    (lambda: sudoku_bulk.generate(2, score=(1.5, 3)), TypeError, "score: expected an int"),
    (lambda: sudoku_bulk.generate(2, max_attempts=0), ValueError, "max_attempts must be"),
    (lambda: sudoku_bulk.generate(2, level="hard", walk=1001), ValueError, "at most 1000 steps"),
    (lambda: sudoku_bulk.generate(2, level="hard", walk=2**40), ValueError, "at most 1000 steps"),
    (lambda: sudoku_bulk.generate(2, walk=-1), ValueError, "walk must be an integer"),
    (lambda: sudoku_bulk.generate(2, level="hard", neighbours=101), ValueError, "at most 100"),
    (lambda: sudoku_bulk.generate(2, se=7.25), ValueError, "one decimal at most"),
    (lambda: sudoku_bulk.generate(2, se=(7, 8, 9)), ValueError, "a tuple of 3"),
    (lambda: sudoku_bulk.generate(2, se="9.6"), ValueError, "nested forcing chains"),
    (lambda: sudoku_bulk.generate(2, neighbours=-1), ValueError, "neighbours must be an integer"),
    (lambda: sudoku_bulk.generate(1, givens=20, max_attempts=1), ValueError,
     "puzzle 0: no puzzle met the options in 1 attempts"),
    (lambda: sudoku_bulk.generate(1, givens=20, max_attempts=1), ValueError,
     "drop a constraint or raise max_attempts"),
    (lambda: sudoku_bulk.canon([PUZZLE], max_classes=5), ValueError, "only with dedupe=True"),
    (lambda: sudoku_bulk.canon([PUZZLE], dedupe="yes"), TypeError, "dedupe: expected a bool"),
    (lambda: sudoku_bulk.rate([PUZZLE], max_recursions=0), ValueError, "max_recursions must be"),
    (lambda: sudoku_bulk.rate(PUZZLE), TypeError, "puzzles: one str"),
])
def test_wrong_arguments_raise_with_the_command_lines_words(call, error, words):
    with pytest.raises(error) as raised:
        call()
    assert words in str(raised.value)
    # Options are named as the function's arguments, not as the command line's.
    assert " --" not in str(raised.value) and not str(raised.value).startswith("--")


def test_threads_out_of_range_give_the_command_lines_range():
    # Issue 33: the range read "1 to 18446744073709551615".
    for threads in (0, -3, 257, 10**30):
        with pytest.raises(ValueError) as raised:
            sudoku_bulk.solve([PUZZLE], threads=threads)
        assert str(raised.value) == (
            "threads must be from 1 to 256 (no run can keep more busy: at most 256 batches of "
            f"records are ever waiting for a thread), not {threads}")
    assert sudoku_bulk.solve([PUZZLE], threads=256).num_rows == 1


def test_a_dict_or_a_set_of_puzzles_is_refused_not_its_keys_solved():
    # Issue 33: solve(dict) solved the dict's keys, silently.
    for call in (sudoku_bulk.solve, sudoku_bulk.rate, sudoku_bulk.canon):
        with pytest.raises(TypeError, match=r"puzzles: a dict; .*list\(d.values\(\)\)"):
            call({PUZZLE: "a"})
        with pytest.raises(TypeError, match="puzzles: a set; "):
            call({PUZZLE})
    with pytest.raises(TypeError, match="solutions: a dict"):
        sudoku_bulk.verify([PUZZLE], {PUZZLE: 1})


def test_summarize_by_a_column_of_too_many_values_is_refused_at_max_groups():
    # Issue 33, case 7: no bound (196,632 groups took 3 GB); the command line's is 10,000.
    puzzles = puzzles_of(SHIPPED[0])[:300]
    table = sudoku_bulk.solve(puzzles)
    distinct = len(set(puzzles))
    assert distinct > 120
    groups = sudoku_bulk.summarize(table, by="puzzle", max_groups=distinct)["groups"]
    assert len(groups) == distinct
    with pytest.raises(ValueError, match=f"more than {distinct - 1} distinct values of 'puzzle'"):
        sudoku_bulk.summarize(table, by="puzzle", max_groups=distinct - 1)
    # Across batches too: each batch's groups are few, all of them too many.
    batches = table.to_batches(max_chunksize=50)
    with pytest.raises(ValueError, match="more than 120 distinct values"):
        sudoku_bulk.summarize(iter(batches), by="puzzle", max_groups=120)
    with pytest.raises(ValueError, match="max_groups must be"):
        sudoku_bulk.summarize(table, by="puzzle", max_groups=0)


@pytest.mark.parametrize("command", ["solve", "rate"])
def test_summarize_counts_canonical_forms_as_stats_canonical(cli, tmp_path, command):
    # The sample holds one puzzle twice and once turned half round: fewer forms than rows.
    puzzles = sample()
    path = written(tmp_path, puzzles)
    cli_table(cli, tmp_path, command, str(path))
    expected = cli_stats(cli, tmp_path / f"cli-{command}.parquet", "--canonical")
    forms = expected["canonical"]
    assert 0 < forms["distinct"] < len(puzzles) - 3, forms
    table = getattr(sudoku_bulk, command)(puzzles)
    assert sudoku_bulk.summarize(table, canonical=True) == expected
    assert sudoku_bulk.summarize(iter(table.to_batches(max_chunksize=7)), canonical=True) == expected
    assert "canonical" not in sudoku_bulk.summarize(table)
    # Bounded as the command's --max-classes, across batches too.
    distinct = forms["distinct"]
    assert sudoku_bulk.summarize(table, canonical=True, max_classes=distinct) == expected
    with pytest.raises(ValueError, match=f"more than {distinct - 1} distinct puzzles"):
        sudoku_bulk.summarize(iter(table.to_batches(max_chunksize=7)), canonical=True,
                              max_classes=distinct - 1)
    with pytest.raises(ValueError, match="give canonical=True"):
        sudoku_bulk.summarize(table, max_classes=10)
    with pytest.raises(ValueError, match="no column 'puzzle'"):
        sudoku_bulk.summarize(table.drop_columns(["puzzle"]), canonical=True)


@pytest.mark.parametrize("command,column,edges", [
    ("solve", "hidden_singles", [20, "35", 50.5]), ("rate", "score", [100, "500", 2000.5])])
def test_summarize_puts_a_column_in_bins_as_stats_bins(cli, tmp_path, command, column, edges):
    puzzles = sample()
    cli_table(cli, tmp_path, command, str(written(tmp_path, puzzles)))
    results = tmp_path / f"cli-{command}.parquet"
    table = getattr(sudoku_bulk, command)(puzzles)
    stream = lambda: iter(table.to_batches(max_chunksize=7))
    for bins, args in ((4, ["--bins", "4"]), (edges, ["--bins", ",".join(map(str, edges))]),
                       ("none", ["--bins", "none"])):
        expected = cli_stats(cli, results, "--by", column, *args)
        assert len(expected["groups"]) > 2, (bins, expected["groups"].keys())
        assert sudoku_bulk.summarize(table, column, bins=bins) == expected, bins
        assert sudoku_bulk.summarize(stream(), column, bins=bins) == expected, bins
    assert sudoku_bulk.summarize(table, column) == sudoku_bulk.summarize(table, column, bins=None)
    # A stream finds its quantiles from one group per value: bounded by max_groups.
    values = len(set(table[column].to_pylist()))
    with pytest.raises(ValueError, match=f"more than {values - 1} distinct values of '{column}'"):
        sudoku_bulk.summarize(stream(), column, bins=4, max_groups=values - 1)
    assert sudoku_bulk.summarize(table, column, bins=4, max_groups=6)["records"] == len(puzzles)
    with pytest.raises(ValueError, match="give by=COLUMN"):
        sudoku_bulk.summarize(table, bins=4)
    with pytest.raises(ValueError, match=r"row 0 \(counting from 0\): puzzle: .* is not a number"):
        sudoku_bulk.summarize(table, "puzzle", bins=3)
    with pytest.raises(ValueError, match="bins: "):
        sudoku_bulk.summarize(table, column, bins=[3, 1])
    with pytest.raises(ValueError, match="bins"):
        sudoku_bulk.summarize(table, column, bins=0)
    with pytest.raises(TypeError, match="bins: "):
        sudoku_bulk.summarize(table, column, bins=True)


def test_summarize_takes_a_polars_dataframe():
    table = sudoku_bulk.solve(puzzles_of(SHIPPED[0])[:100])
    assert sudoku_bulk.summarize(pl.from_arrow(table)) == sudoku_bulk.summarize(table)


def test_the_module_and_every_function_say_what_they_do():
    assert sudoku_bulk.__doc__.startswith("Solve, verify, rate, canonicalise, generate")
    for name in ("solve", "verify", "rate", "canon", "generate", "augment", "show", "solve_file",
                 "verify_file", "rate_file", "canon_file", "augment_file", "summarize"):
        doc = getattr(sudoku_bulk, name).__doc__
        assert doc and ">>> " in doc, name


#: A jigsaw layout (nine connected regions of nine cells) and a hard puzzle (forum hardest).
JIGSAW_LAYOUT = "aaabbbbbbaaabbbcccaaddcccccadddeeecfdddeeeeffdgeefffffggghhhhfiggghhhiiigghhiiiii"


@pytest.mark.parametrize("options,args", [
    ({}, []),
    ({"trace": True, "max_trace_lines": 40}, ["--trace", "--max-trace-lines", "40"]),
    ({"explain": True}, ["--explain"]),
    ({"explain": "every"}, ["--explain=every"]),
    ({"explain": "start", "scale": "se"}, ["--explain=start", "--scale", "se"]),
    ({"algorithm": "logic"}, ["--algorithm", "logic"]),
    ({"max_solutions": 1, "algorithm": "random", "seed": 3},
     ["--max-solutions", "1", "--algorithm", "random", "--seed", "3"]),
], ids=["plain", "trace", "explain", "every", "se", "logic", "random"])
def test_show_prints_what_the_command_line_prints(cli, options, args):
    for puzzle in (PUZZLE, puzzles_of(SHIPPED[-1])[0], "." * 81, "55" + PUZZLE[2:]):
        done = run_cli(cli, "show", puzzle, *args)
        assert sudoku_bulk.show(puzzle, **options) == done.stdout.decode(), (puzzle, options)


def test_show_on_a_jigsaw_layout_and_its_refusals(cli):
    puzzle = "." * 81
    done = run_cli(cli, "show", puzzle, "--regions", JIGSAW_LAYOUT)
    assert sudoku_bulk.show(puzzle, regions=JIGSAW_LAYOUT) == done.stdout.decode()
    for call, error, words in [
        (lambda: sudoku_bulk.show("1234"), ValueError, "puzzle: expected 81 cells, found 4"),
        (lambda: sudoku_bulk.show([PUZZLE]), TypeError, "puzzle: expected a str"),
        (lambda: sudoku_bulk.show(PUZZLE, explain="often"), ValueError, "explain: 'often'"),
        (lambda: sudoku_bulk.show(PUZZLE, max_trace_lines=10**7), ValueError, "is more than"),
        (lambda: sudoku_bulk.show(PUZZLE, scale="x"), ValueError, "scale: "),
        (lambda: sudoku_bulk.show(PUZZLE, regions="abc"), ValueError, "regions: "),
    ]:
        with pytest.raises(error) as raised:
            call()
        assert words in str(raised.value)


@pytest.mark.parametrize("scale", ["hodoku", "se"])
def test_rate_file_equals_the_command_line_on_files(cli, tmp_path, scale):
    # A Kaggle-style CSV (its solutions kept under another name) and a gzip line file, read as
    # one stream in small batches: the rows of `rate FILE... -o out.parquet`.
    kaggle = str(DATA / "kaggle_sample.csv")
    hard = tmp_path / "some.txt.gz"
    with gzip.open(hard, "wt") as out:
        out.write("# 17-clue puzzles\n" + "\n".join(puzzles_of(SHIPPED[0])[:200]) + "\n")
    hard = str(hard)
    for paths, keep in [([kaggle, hard], None), ([kaggle], ["solutions=kaggle_solution"])]:
        args = ["--keep-columns", ",".join(keep)] if keep else []
        expected = cli_table(cli, tmp_path, "rate", *paths, "--scale", scale, *args)
        batches = sudoku_bulk.rate_file(paths, scale=scale, batch_size=300, keep_columns=keep)
        got = pa.Table.from_batches(list(batches), schema=batches.schema)
        assert got.schema == expected.schema, paths
        assert got.equals(expected), paths
    assert max(b.num_rows for b in sudoku_bulk.rate_file(kaggle, batch_size=300)) == 300


@pytest.mark.parametrize("function,command,options,args", [
    ("verify_file", "verify", {"unique": True}, ["--unique"]),
    ("canon_file", "canon", {}, []),
    ("canon_file", "canon", {"dedupe": True}, ["--dedupe"]),
    ("augment_file", "augment", {"copies": 2, "seed": 4, "solutions": True},
     ["--copies", "2", "--seed", "4", "--solutions"]),
    ("augment_file", "augment", {"copies": 3, "distinct": True}, ["--copies", "3", "--distinct"]),
], ids=["verify", "canon", "dedupe", "augment", "distinct"])
def test_the_file_functions_equal_the_command_line_on_a_kaggle_file(
        cli, tmp_path, function, command, options, args):
    # The Kaggle layout: a header, then quizzes,solutions; lines are the file's, as the
    # command line's (augment draws its copies from them).
    kaggle = str(DATA / "kaggle_sample.csv")
    expected = cli_table(cli, tmp_path, command, kaggle, *args)
    batches = getattr(sudoku_bulk, function)(kaggle, batch_size=128, **options)
    got = pa.Table.from_batches(list(batches), schema=batches.schema)
    assert got.schema == expected.schema
    assert got.equals(expected)


def test_the_file_functions_refuse_as_the_command_line_does(tmp_path):
    kaggle = str(DATA / "kaggle_sample.csv")
    with pytest.raises(ValueError) as raised:
        sudoku_bulk.augment_file(kaggle, solution_column="solutions")
    assert "only with solutions=True" in str(raised.value)
    with pytest.raises(FileNotFoundError):
        sudoku_bulk.verify_file(str(tmp_path / "missing.csv"))
    with pytest.raises(ValueError) as raised:
        sudoku_bulk.canon_file(kaggle, exact=True)
    assert "only with dedupe=True" in str(raised.value)
