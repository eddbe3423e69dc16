//! `sudoku-bulk stats` and `solve --summary`, end to end through the binary.

use crate::workdir::{Workdir, puzzles};

/// A puzzle file mixing easy and hard puzzles with a few bad records.
fn mixed(dir: &Workdir, name: &str, offset: usize) -> String {
    let mut text = String::new();
    for p in puzzles("puzzles2_17_clue.txt.gz", 60)
        .iter()
        .skip(offset)
        .take(30)
    {
        text.push_str(p);
        text.push('\n');
    }
    for p in puzzles("puzzles5_forum_hardest_1905_11+.txt.gz", 40)
        .iter()
        .skip(offset)
        .take(20)
    {
        text.push_str(p);
        text.push('\n');
    }
    text.push_str("123\n");
    dir.write(name, &text);
    text
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn solve_summary_equals_stats_over_the_same_output() {
    let dir = Workdir::new();
    mixed(&dir, "in.txt", 0);
    let run = dir.run(&[
        "solve",
        "in.txt",
        "-o",
        "out.csv",
        "--summary",
        "s.json",
        "-q",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let stats = dir.run(&["stats", "out.csv", "--json"]);
    assert_eq!(stats.code, Some(0), "{}", stats.stderr);
    let mut from_solve = json(&dir.read("s.json"));
    // The summary of a run records what it was made from; stats of its rows cannot know.
    let run = from_solve
        .as_object_mut()
        .unwrap()
        .remove("run")
        .expect("a run field");
    assert_eq!(run["inputs"][0]["name"], "in.txt");
    assert_eq!(
        run["inputs"][0]["bytes"].as_u64(),
        Some(std::fs::metadata(dir.path("in.txt")).unwrap().len())
    );
    assert_eq!(run["options"]["algorithm"], "fast");
    assert!(run.get("shard").is_none());
    assert_eq!(from_solve, json(&stats.stdout));
    assert_eq!(from_solve["records"], 51);
    assert_eq!(from_solve["status"]["invalid"], 1);
    // The hardest records are the forum's, with their lines in in.txt.
    let hardest = from_solve["hardest"].as_array().unwrap();
    assert_eq!(hardest.len(), 20);
    let input = dir.read("in.txt");
    let lines: Vec<&str> = input.lines().collect();
    for record in hardest {
        let line = record["line"].as_u64().unwrap() as usize;
        assert!(line > 30, "{record}");
        assert_eq!(record["puzzle"], lines[line - 1].replace('0', "."));
    }
    // The same through JSON lines.
    let run = dir.run(&[
        "solve",
        "in.txt",
        "-o",
        "out.jsonl",
        "--output-format",
        "jsonl",
        "-q",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        json(&dir.run(&["stats", "out.jsonl", "--json"]).stdout),
        from_solve
    );
}

#[test]
fn stats_of_two_files_equals_stats_of_their_concatenation() {
    let dir = Workdir::new();
    mixed(&dir, "a.txt", 0);
    mixed(&dir, "b.txt", 30);
    for part in ["a", "b"] {
        let run = dir.run(&[
            "solve",
            &format!("{part}.txt"),
            "-o",
            &format!("{part}.csv"),
            "-q",
        ]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    let (a, b) = (dir.read("a.csv"), dir.read("b.csv"));
    let b_rows = b.split_once('\n').unwrap().1;
    dir.write("ab.csv", format!("{a}{b_rows}"));
    let parts = dir.run(&["stats", "a.csv", "b.csv", "--json"]);
    let whole = dir.run(&["stats", "ab.csv", "--json"]);
    assert_eq!(parts.code, Some(0), "{}", parts.stderr);
    assert_eq!(json(&parts.stdout), json(&whole.stdout));
    // Saved summaries merge to the same.
    std::fs::write(
        dir.path("a.json"),
        dir.run(&["stats", "a.csv", "--json"]).stdout,
    )
    .unwrap();
    std::fs::write(
        dir.path("b.json"),
        dir.run(&["stats", "b.csv", "--json"]).stdout,
    )
    .unwrap();
    let merged = dir.run(&["stats", "a.json", "b.json", "--json"]);
    assert_eq!(json(&merged.stdout), json(&whole.stdout));
}

#[test]
fn groups_by_givens_add_up_to_the_whole() {
    let dir = Workdir::new();
    mixed(&dir, "in.txt", 0);
    assert_eq!(
        dir.run(&["solve", "in.txt", "-o", "out.csv", "-q"]).code,
        Some(0)
    );
    let grouped = json(
        &dir.run(&["stats", "out.csv", "--by", "givens", "--json"])
            .stdout,
    );
    let whole = json(&dir.run(&["stats", "out.csv", "--json"]).stdout);
    let groups = grouped["groups"].as_object().expect("groups");
    assert!(groups.len() >= 3, "{groups:?}");
    let records: u64 = groups
        .values()
        .map(|g| g["records"].as_u64().unwrap())
        .sum();
    assert_eq!(records, whole["records"].as_u64().unwrap());
    for status in ["solved", "invalid"] {
        let sum: u64 = groups
            .values()
            .map(|g| g["status"][status].as_u64().unwrap())
            .sum();
        assert_eq!(sum, whole["status"][status].as_u64().unwrap(), "{status}");
    }
}

#[test]
fn table_and_html_report() {
    let dir = Workdir::new();
    mixed(&dir, "in.txt", 0);
    assert_eq!(
        dir.run(&["solve", "in.txt", "-o", "out.csv", "-q"]).code,
        Some(0)
    );
    let run = dir.run(&["stats", "out.csv", "--html", "report.html"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.starts_with("records: 51\n"), "{}", run.stdout);
    assert!(run.stdout.contains("recursions"));
    let page = dir.read("report.html");
    assert!(page.contains("<svg"), "no chart in the page");
    // One inline script (sorting tables), nothing fetched.
    assert_eq!(page.matches("<script").count(), 1);
    assert!(page.contains("<script>\n"));
    for fetch in ["<link", "src=", "url(http"] {
        assert!(!page.contains(fetch), "the page fetches something: {fetch}");
    }
    assert!(page.contains("<code>out.csv</code>"), "the input is named");
    assert!(page.contains("The hardest puzzles"));
    assert!(page.contains("<dt>run</dt><dd class=\"muted\">not recorded"));

    // The summary the run wrote beside its results tells the header what they were made from,
    // and is not counted twice.
    let run = dir.run(&[
        "solve",
        "in.txt",
        "-o",
        "out.csv",
        "--summary",
        "out.csv.summary.json",
        "--max-solutions",
        "1",
        "-q",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = dir.run(&["stats", "out.csv", "--html", "report.html"]);
    assert!(run.stdout.starts_with("records: 51\n"), "{}", run.stdout);
    let page = dir.read("report.html");
    assert!(
        page.contains("(recorded in <code>out.csv.summary.json</code>)"),
        "{page}"
    );
    assert!(page.contains("max_solutions 1"));
    assert!(page.contains("--algorithm fast --max-solutions 1</code>"));
    // A summary beside them that describes other rows is no record of them.
    mixed(&dir, "other.txt", 30);
    let run = dir.run(&[
        "solve",
        "other.txt",
        "-o",
        "other.csv",
        "--summary",
        "out.csv.summary.json",
        "-q",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = dir.run(&["stats", "out.csv", "--html", "report.html"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        dir.read("report.html")
            .contains("<dt>run</dt><dd class=\"muted\">not recorded")
    );
}

/// A 3M-style CSV (`id,puzzle,solution,clues,difficulty`) of `n` shipped puzzles with a
/// difficulty of one decimal (`k / 10` for k in 0..89), and its difficulties.
fn rated(dir: &Workdir, n: usize) -> Vec<f64> {
    let mut text = String::from("id,puzzle,solution,clues,difficulty\n");
    let mut difficulties = Vec::new();
    let all = [
        puzzles("puzzles2_17_clue.txt.gz", n / 2),
        puzzles("puzzles5_forum_hardest_1905_11+.txt.gz", n - n / 2),
    ]
    .concat();
    for (i, p) in all.iter().enumerate() {
        let difficulty = ((i * 37) % 89) as f64 / 10.0;
        difficulties.push(difficulty);
        let clues = p
            .bytes()
            .filter(u8::is_ascii_digit)
            .filter(|&b| b != b'0')
            .count();
        text.push_str(&format!("{i},{p},,{clues},{difficulty:.1}\n"));
    }
    dir.write("rated.csv", text);
    let run = dir.run(&[
        "solve",
        "rated.csv",
        "--keep-columns",
        "id,difficulty",
        "-o",
        "solved.csv",
        "-q",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    difficulties
}

/// The groups of a JSON summary: name -> records.
fn group_sizes(summary: &serde_json::Value) -> std::collections::BTreeMap<String, u64> {
    summary["groups"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, g)| (k.clone(), g["records"].as_u64().unwrap()))
        .collect()
}

#[test]
fn bins_at_given_edges_hold_exactly_the_values_in_them_and_add_up() {
    let dir = Workdir::new();
    let difficulties = rated(&dir, 300);
    let run = dir.run(&[
        "stats",
        "solved.csv",
        "--by",
        "difficulty",
        "--bins",
        "1,2.5,6",
        "--json",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let summary = json(&run.stdout);
    assert_eq!(
        summary["bins"]["edges"],
        serde_json::json!(["1", "2.5", "6"])
    );
    let count = |f: &dyn Fn(f64) -> bool| difficulties.iter().filter(|&&d| f(d)).count() as u64;
    let expected: std::collections::BTreeMap<String, u64> = [
        ("< 1", count(&|d| d < 1.0)),
        ("[1, 2.5]", count(&|d| (1.0..=2.5).contains(&d))),
        ("(2.5, 6]", count(&|d| d > 2.5 && d <= 6.0)),
        ("> 6", count(&|d| d > 6.0)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(group_sizes(&summary), expected);
    assert_eq!(expected.values().sum::<u64>(), 300);
    // The groups add up to the whole in every field (checked by reading the summary back).
    dir.write("binned.json", &run.stdout);
    let back = dir.run(&[
        "stats",
        "binned.json",
        "--by",
        "difficulty",
        "--bins",
        "1,2.5,6",
        "--json",
    ]);
    assert_eq!(back.code, Some(0), "{}", back.stderr);
    assert_eq!(json(&back.stdout), summary);
    // The text says how the groups were made.
    let text = dir.run(&[
        "stats",
        "solved.csv",
        "--by",
        "difficulty",
        "--bins",
        "1,2.5,6",
    ]);
    assert!(
        text.stdout
            .contains("by difficulty: 4 groups (bins at edges 1, 2.5, 6)"),
        "{}",
        text.stdout
    );
}

#[test]
fn quantile_bins_are_about_equal_and_automatic_ones_are_noted() {
    let dir = Workdir::new();
    let difficulties = rated(&dir, 300);
    let run = dir.run(&[
        "stats",
        "solved.csv",
        "--by",
        "difficulty",
        "--bins",
        "4",
        "--json",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let summary = json(&run.stdout);
    let sizes = group_sizes(&summary);
    assert_eq!(sizes.len(), 4, "{sizes:?}");
    assert_eq!(sizes.values().sum::<u64>(), 300);
    // Nearest rank over the sorted values: the k first bins hold at least ceil(k * 300 / 4).
    let mut sorted = difficulties.clone();
    sorted.sort_by(f64::total_cmp);
    let edges: Vec<f64> = summary["bins"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(edges.first(), sorted.first());
    assert_eq!(edges.last(), sorted.last());
    for (k, edge) in edges[1..edges.len() - 1].iter().enumerate() {
        let rank = ((k + 1) * 300).div_ceil(4);
        assert_eq!(*edge, sorted[rank - 1], "edge {k}");
    }

    // Without --bins: 89 distinct numbers, more than 30: ten quantile bins, and a note.
    let run = dir.run(&["stats", "solved.csv", "--by", "difficulty", "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("note: 'difficulty' has 89 distinct numbers, more than 30"),
        "{}",
        run.stderr
    );
    let summary = json(&run.stdout);
    assert_eq!(summary["bins"]["chosen"], "automatic");
    assert_eq!(group_sizes(&summary).len(), 10);
    assert_eq!(group_sizes(&summary).values().sum::<u64>(), 300);
    // --bins none keeps one group per value; a column that is not numeric is refused bins.
    let run = dir.run(&[
        "stats",
        "solved.csv",
        "--by",
        "difficulty",
        "--bins",
        "none",
        "--json",
    ]);
    assert_eq!(group_sizes(&json(&run.stdout)).len(), 89);
    let run = dir.run(&["stats", "solved.csv", "--by", "status", "--bins", "3"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("solved.csv:2: status: 'solved' is not a number"),
        "{}",
        run.stderr
    );
}

#[test]
fn two_files_grouped_by_input_equal_the_groups_of_one_run_over_both() {
    let dir = Workdir::new();
    mixed(&dir, "a.txt", 0);
    mixed(&dir, "b.txt", 30);
    for part in ["a", "b"] {
        let run = dir.run(&[
            "solve",
            &format!("{part}.txt"),
            "-o",
            &format!("{part}.csv"),
            "-q",
        ]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    let run = dir.run(&["solve", "a.txt", "b.txt", "-o", "both.csv", "-q"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let by_input = json(
        &dir.run(&["stats", "a.csv", "b.csv", "--by", "input", "--json"])
            .stdout,
    );
    let by_file = json(
        &dir.run(&["stats", "both.csv", "--by", "file", "--json"])
            .stdout,
    );
    assert_eq!(by_input["by"], "input");
    for (result, input) in [("a.csv", "a.txt"), ("b.csv", "b.txt")] {
        assert_eq!(
            by_input["groups"][result], by_file["groups"][input],
            "{result}"
        );
    }
    assert_eq!(by_input["groups"].as_object().unwrap().len(), 2);
    for field in ["records", "status", "counters"] {
        assert_eq!(by_input[field], by_file[field], "{field}");
    }
    // A saved summary is one input too; --by file without a file column says what to do.
    dir.write("a.json", dir.run(&["stats", "a.csv", "--json"]).stdout);
    let mixed = json(
        &dir.run(&["stats", "a.json", "b.csv", "--by", "input", "--json"])
            .stdout,
    );
    assert_eq!(mixed["groups"]["a.json"], by_file["groups"]["a.txt"]);
    let run = dir.run(&["stats", "a.csv", "--by", "file"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("--by input groups by the results files"),
        "{}",
        run.stderr
    );
}

#[test]
fn stats_errors_name_the_file_and_line() {
    let dir = Workdir::new();
    let header =
        "line,status,recursions,max_depth,guesses,backtracks,naked_singles,hidden_singles,givens";
    dir.write(
        "bad.csv",
        format!("{header}\n1,solved,1,1,0,0,0,64,17\n2,solved,x7,1,0,0,0,64,17\n"),
    );
    let run = dir.run(&["stats", "bad.csv"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("bad.csv:3"), "{}", run.stderr);
    dir.write("short.csv", "line,status,recursions\n2,solved,7\n");
    let run = dir.run(&["stats", "short.csv"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("short.csv: no column 'max_depth'"),
        "{}",
        run.stderr
    );
    let run = dir.run(&["stats", "missing.csv"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("missing.csv"), "{}", run.stderr);
}

#[test]
fn standard_input_with_too_many_distinct_numbers_to_hold_asks_for_edges() {
    let dir = Workdir::new();
    let mut text = String::from(
        "line,status,recursions,max_depth,guesses,backtracks,naked_singles,hidden_singles,givens,d\n",
    );
    for i in 0..1500 {
        text.push_str(&format!("{},solved,2,2,1,1,40,50,20,{}.5\n", i + 2, i));
    }
    dir.write("many.csv", &text);
    let run = dir.run_with_stdin(&["stats", "-", "--by", "d", "--bins", "4"], text.clone());
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains(
            "standard input can be read only once, but 'd' has more than 1000 distinct numbers"
        ),
        "{}",
        run.stderr
    );
    // From a file, read twice: four bins of 375 rows.
    let run = dir.run(&["stats", "many.csv", "--by", "d", "--bins", "4", "--json"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let sizes: Vec<u64> = group_sizes(&json(&run.stdout)).into_values().collect();
    assert_eq!(sizes, [375; 4]);
    // Edges need no second reading.
    let run = dir.run_with_stdin(
        &["stats", "-", "--by", "d", "--bins", "100,1000", "--json"],
        text,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(group_sizes(&json(&run.stdout))["[100, 1000]"], 900);
}

/// `stats` over the rows of `solve` and of `rate` together took the levels' shares over the rated
/// rows and the statuses' over all of them, one report of two different bases. A mix is refused,
/// naming the file that brought the other command's rows, in either order, and for saved
/// summaries as for rows.
#[test]
fn stats_over_rows_of_solve_and_of_rate_together_is_refused_naming_the_file() {
    let dir = Workdir::new();
    let puzzles = puzzles("puzzles2_17_clue.txt.gz", 5).join("\n");
    dir.write("in.txt", &puzzles);
    for (command, out) in [("solve", "solved.csv"), ("rate", "rated.csv")] {
        let run = dir.run(&[
            command,
            "-q",
            "in.txt",
            "-o",
            out,
            "--summary",
            &format!("{out}.json"),
        ]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    for (first, second, left, right) in [
        ("solved.csv", "rated.csv", "solve", "rate"),
        ("rated.csv", "solved.csv", "rate", "solve"),
        ("solved.csv.json", "rated.csv.json", "solve", "rate"),
    ] {
        let run = dir.run(&["stats", first, second]);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert_eq!(
            run.stderr,
            format!(
                "sudoku-bulk: error: {second}: cannot summarise rows of {left} together with \
                 rows of {right}: give the outputs of one command at a time\n"
            )
        );
    }
    // Each alone, and twice the same command, are summarised.
    for pair in [
        ["solved.csv", "solved.csv.json"],
        ["rated.csv", "rated.csv.json"],
    ] {
        let run = dir.run(&["stats", pair[0], pair[1]]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
}

#[test]
fn groups_side_by_side_in_one_table_as_text_and_csv() {
    let dir = Workdir::new();
    mixed(&dir, "in.txt", 0);
    assert_eq!(
        dir.run(&["solve", "in.txt", "-o", "out.csv", "-q"]).code,
        Some(0)
    );
    let run = dir.run(&["stats", "out.csv", "--by", "givens"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = run.stdout;
    assert!(text.starts_with("records: 51, by givens: "), "{text}");
    assert!(!text.contains("=="), "no per-group tables: {text}");
    assert!(text.lines().count() < 30, "compact: {text}");
    let header = text
        .lines()
        .nth(2)
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>();
    assert_eq!(header[..3], ["givens", "records", "share"], "{text}");
    assert!(text.contains("--detail"), "{text}");
    let detail = dir
        .run(&["stats", "out.csv", "--by", "givens", "--detail"])
        .stdout;
    assert!(detail.contains("\n== givens = 17 ==\n"), "{detail}");
    assert!(
        detail.lines().count() > 3 * text.lines().count(),
        "{detail}"
    );

    let run = dir.run(&["stats", "out.csv", "--by", "givens", "--csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows = crate::workdir::csv_rows(&run.stdout);
    let grouped = json(
        &dir.run(&["stats", "out.csv", "--by", "givens", "--json"])
            .stdout,
    );
    let groups = grouped["groups"].as_object().unwrap();
    assert_eq!(rows.len(), groups.len() + 1, "{}", run.stdout);
    for row in &rows[..groups.len()] {
        // The table shows the empty value as `(empty)`; the JSON keeps it as it is.
        let key = match row["givens"].as_str() {
            "(empty)" => "",
            key => key,
        };
        let group = &groups[key];
        assert_eq!(row["records"], group["records"].to_string(), "{row:?}");
    }
    let all = rows.last().unwrap();
    assert_eq!(all["givens"], "(all)");
    assert_eq!(all["records"], "51");
    assert_eq!(all["share_pct"], "100.00");
    // Without --by: the one row of the whole.
    let whole = crate::workdir::csv_rows(&dir.run(&["stats", "out.csv", "--csv"]).stdout);
    assert_eq!(whole.len(), 1);
    assert_eq!(whole[0]["group"], "(all)");
    assert_eq!(whole[0]["solved_pct"], all["solved_pct"]);
}

#[test]
fn a_file_of_puzzles_given_to_stats_is_told_with_the_command_that_makes_results() {
    let dir = Workdir::new();
    let puzzles = puzzles("puzzles2_17_clue.txt.gz", 3);
    dir.write(
        "kaggle.csv",
        format!("quizzes,solutions\n{},x\n", puzzles[0].replace('.', "0")),
    );
    dir.write("puzzles.txt", format!("{}\n{}\n", puzzles[1], puzzles[2]));
    for (file, what) in [
        (
            "kaggle.csv",
            "no column 'status'; its columns are quizzes, solutions",
        ),
        (
            "puzzles.txt",
            "its first line is a puzzle, and it has no column 'status'",
        ),
    ] {
        let run = dir.run(&["stats", file]);
        assert_eq!(run.code, Some(2), "{file}");
        assert_eq!(
            run.stderr,
            format!(
                "sudoku-bulk: error: {file}: this looks like a file of puzzles, not of results \
                 ({what}): stats summarises what solve or rate wrote; make results first with \
                 `sudoku-bulk solve {file} -o results.csv`, then run `sudoku-bulk stats \
                 results.csv`\n"
            )
        );
    }
}
