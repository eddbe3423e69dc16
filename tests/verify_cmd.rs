//! `sudoku-bulk verify`: right, corrupted and unreadable solutions; `--unique`; exit codes; and
//! checking the output of `solve`.

use crate::workdir::{Workdir, csv_header, csv_rows, puzzles};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// (line, status, error) of every row.
fn outline(csv: &str) -> Vec<(String, String, String)> {
    csv_rows(csv)
        .into_iter()
        .map(|r| (r["line"].clone(), r["status"].clone(), r["error"].clone()))
        .collect()
}

fn row(line: u64, status: &str, error: &str) -> (String, String, String) {
    (line.to_string(), status.to_string(), error.to_string())
}

/// `SOLUTION` with the digits at two cells swapped.
fn swapped(a: usize, b: usize) -> String {
    let mut s = SOLUTION.as_bytes().to_vec();
    s.swap(a, b);
    String::from_utf8(s).unwrap()
}

#[test]
fn corrupted_solutions_are_caught_and_exit_1() {
    let dir = Workdir::new();
    let text = [
        format!("{PUZZLE} {SOLUTION}\n"),                           // 1: ok
        format!("{PUZZLE},{}\n", swapped(2, 3)),                    // 2: r1c3 and r1c4 swapped
        format!("{PUZZLE}:1:{}\n", swapped(0, 2)),                  // 3: moves the given at r1c1
        format!("{PUZZLE} {}\n", &SOLUTION[..80]),                  // 4: no 81-digit field
        format!("{} {SOLUTION}\n", &PUZZLE[..80]),                  // 5: puzzle unreadable
        format!("55{} {SOLUTION}\n", &PUZZLE[2..]),                 // 6: givens conflict
        format!("{PUZZLE} {}\r\n", SOLUTION.replacen('4', "0", 1)), // 7: a blank cell
    ]
    .concat();
    dir.write("claims.txt", text);
    let run = dir.run(&["verify", "claims.txt"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(
        csv_header(&run.stdout),
        ["line", "status", "error", "puzzle"]
    );
    // The puzzle, normalised, where it could be read.
    let puzzles: Vec<String> = csv_rows(&run.stdout)
        .into_iter()
        .map(|r| r["puzzle"].clone())
        .collect();
    let clash = format!("55{}", &PUZZLE[2..]);
    assert_eq!(
        puzzles,
        [PUZZLE, PUZZLE, PUZZLE, PUZZLE, "", &clash, PUZZLE].map(|p| p.replace('0', "."))
    );
    assert_eq!(
        outline(&run.stdout),
        vec![
            row(1, "ok", ""),
            row(2, "wrong", "column 3 has two 6s"),
            row(3, "wrong", "changes the given at r1c1"),
            row(
                4,
                "invalid",
                "no solution (no 81-digit field after the puzzle)"
            ),
            row(5, "invalid", "puzzle: expected 81 cells, found 80"),
            row(
                6,
                "invalid",
                "puzzle: digit 5 twice in row 1: r1c1 and r1c2"
            ),
            row(7, "wrong", "r1c3 is empty"),
        ]
    );
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines[0], "claims.txt:2: column 3 has two 6s");
    assert!(
        lines[6].ends_with("1 ok, 3 wrong, 3 invalid"),
        "{}",
        run.stderr
    );
}

#[test]
fn all_right_exits_0() {
    let dir = Workdir::new();
    dir.write("claims.txt", format!("{PUZZLE} {SOLUTION}\n\n# done\n"));
    let run = dir.run(&["verify", "claims.txt"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(outline(&run.stdout), vec![row(1, "ok", "")]);
}

#[test]
fn unique_requires_the_only_solution() {
    let dir = Workdir::new();
    let empty = ".".repeat(81);
    dir.write(
        "claims.txt",
        format!("{PUZZLE} {SOLUTION}\n{empty} {SOLUTION}\n"),
    );
    let run = dir.run(&["verify", "claims.txt"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = dir.run(&["verify", "--unique", "claims.txt"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        outline(&run.stdout),
        vec![row(1, "ok", ""), row(2, "wrong", "not the unique solution")]
    );
}

#[test]
fn csv_solution_column_by_name_with_kept_columns() {
    let dir = Workdir::new();
    dir.write(
        "k.csv",
        format!(
            "id,quizzes,solutions\n1,{PUZZLE},{SOLUTION}\n2,{PUZZLE},{}\n3,{PUZZLE},\n",
            swapped(2, 3)
        ),
    );
    let run = dir.run(&["verify", "k.csv", "--keep-columns", "id"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(csv_header(&run.stdout), ["line", "status", "error", "id"]);
    let got: Vec<(String, String)> = csv_rows(&run.stdout)
        .into_iter()
        .map(|r| (r["id"].clone(), r["status"].clone()))
        .collect();
    assert_eq!(
        got,
        [("1", "ok"), ("2", "wrong"), ("3", "invalid")]
            .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    dir.write("named.csv", format!("grid,answer\n{PUZZLE},{SOLUTION}\n"));
    let run = dir.run(&["verify", "named.csv", "--puzzle-column", "grid"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = dir.run(&[
        "verify",
        "named.csv",
        "--puzzle-column",
        "grid",
        "--solution-column",
        "other",
    ]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("no solution column (looked for other;"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_output_of_solve_verifies_and_a_tampered_row_is_named() {
    let dir = Workdir::new();
    let mut text = puzzles("puzzles3_magictour_top1465.txt.gz", 300).join("\n");
    text.push('\n');
    dir.write("p.txt", text);
    let run = dir.run(&["solve", "p.txt", "-o", "solved.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = dir.run(&["verify", "--unique", "solved.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(csv_rows(&run.stdout).len(), 300);
    assert!(csv_rows(&run.stdout).iter().all(|r| r["status"] == "ok"));

    // Swap two solution digits in the row of record 117 (CSV line 118).
    let solved = dir.read("solved.csv");
    let mut lines: Vec<String> = solved.lines().map(String::from).collect();
    let fields: Vec<&str> = lines[117].split(',').collect();
    let mut solution = fields[2].as_bytes().to_vec();
    let (a, b) = (0..81)
        .flat_map(|a| (a + 1..81).map(move |b| (a, b)))
        .find(|&(a, b)| {
            let puzzle = fields[1].as_bytes();
            puzzle[a] == b'.' && puzzle[b] == b'.' && solution[a] != solution[b]
        })
        .unwrap();
    solution.swap(a, b);
    let mut tampered: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
    tampered[2] = String::from_utf8(solution).unwrap();
    lines[117] = tampered.join(",");
    dir.write("tampered.csv", lines.join("\n") + "\n");
    let run = dir.run(&["verify", "tampered.csv"]);
    assert_eq!(run.code, Some(1));
    let bad: Vec<(String, String, String)> = outline(&run.stdout)
        .into_iter()
        .filter(|(_, status, _)| status != "ok")
        .collect();
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].0, "118");
    assert_eq!(bad[0].1, "wrong");
    assert!(
        run.stderr.starts_with("tampered.csv:118: "),
        "{}",
        run.stderr
    );
}

#[test]
fn grid_input_has_no_solutions_to_verify() {
    let dir = Workdir::new();
    dir.write("g.txt", "53..7....\n");
    let run = dir.run(&["verify", "g.txt"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "sudoku-bulk: error: g.txt: the grid format holds no solutions: verify reads line, CSV, JSON lines or Parquet input (give --input-format line for one puzzle and its solution a line, if the first line made this input look like grids)\n"
    );
}

/// `(file, line) -> puzzle` of every puzzle line of the inputs, as `solve` numbers lines.
fn puzzles_by_place(
    inputs: &[(&str, &str)],
) -> std::collections::BTreeMap<(String, String), String> {
    let mut places = std::collections::BTreeMap::new();
    for (name, text) in inputs {
        for (i, line) in text.lines().enumerate() {
            places.insert((name.to_string(), (i + 1).to_string()), line.to_string());
        }
    }
    places
}

#[test]
fn verify_rows_of_a_solve_output_join_back_to_the_original_input() {
    let dir = Workdir::new();
    let all = puzzles("puzzles6_forum_hardest_1106.txt.gz", 60);
    // Comments and blank lines make the lines of the inputs differ from the rows' order.
    let a = format!(
        "# first\n{}\n\n{}\n",
        all[..20].join("\n"),
        all[20..30].join("\n")
    );
    let b = format!("\n\n{}\n", all[30..].join("\n"));
    dir.write("a.txt", &a);
    dir.write("b.txt", &b);
    let run = dir.run(&["solve", "a.txt", "b.txt", "-o", "solved.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = dir.run(&["verify", "solved.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        csv_header(&run.stdout),
        [
            "line",
            "status",
            "error",
            "puzzle",
            "original_file",
            "original_line"
        ]
    );
    let places = puzzles_by_place(&[("a.txt", &a), ("b.txt", &b)]);
    let rows = csv_rows(&run.stdout);
    assert_eq!(rows.len(), 60);
    for row in &rows {
        let place = (row["original_file"].clone(), row["original_line"].clone());
        assert_eq!(places[&place], row["puzzle"], "{row:?}");
        assert_eq!(row["status"], "ok");
    }
    // The rows' own lines are those of solved.csv, as before.
    assert_eq!(rows[0]["line"], "2");

    // A solve output of one input has no file column: the line alone joins, in JSON lines too.
    let run = dir.run(&[
        "solve",
        "b.txt",
        "-o",
        "b.jsonl",
        "--output-format",
        "jsonl",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = dir.run(&["verify", "b.jsonl", "--output-format", "jsonl"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 30);
    // Keys in column order (a JSON map here sorts them: look at the text).
    let first = run.stdout.lines().next().unwrap();
    let keys = ["line", "status", "error", "puzzle", "original_line"];
    let at: Vec<usize> = keys
        .iter()
        .map(|k| first.find(&format!("\"{k}\":")).unwrap())
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{first}");
    for row in &rows {
        assert_eq!(row.as_object().unwrap().len(), keys.len());
        let place = (
            "b.txt".to_string(),
            row["original_line"].as_str().unwrap().to_string(),
        );
        assert_eq!(places[&place], row["puzzle"].as_str().unwrap());
    }

    // Kept columns replace the puzzle; a dataset with a line column of its own but no status
    // is not a solve output.
    dir.write(
        "d.csv",
        format!("id,line,puzzle,solution\n7,99,{PUZZLE},{SOLUTION}\n"),
    );
    let run = dir.run(&["verify", "d.csv", "--keep-columns", "id"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(csv_header(&run.stdout), ["line", "status", "error", "id"]);
    let run = dir.run(&["verify", "d.csv"]);
    assert_eq!(
        csv_header(&run.stdout),
        ["line", "status", "error", "puzzle"]
    );
}

#[test]
fn every_output_format_reads_back_into_every_command() {
    let dir = Workdir::new();
    let mut text = puzzles("puzzles3_magictour_top1465.txt.gz", 40).join("\n");
    text.push_str("\n12345\n");
    dir.write("p.txt", &text);
    for format in ["csv", "jsonl"] {
        let solved = format!("solved.{format}");
        let run = dir.run(&["solve", "p.txt", "-o", &solved, "--output-format", format]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        // verify reads the solutions back: 40 ok, the short line invalid.
        let checked = format!("checked.{format}");
        let run = dir.run(&["verify", &solved, "-o", &checked, "--output-format", format]);
        assert_eq!(run.code, Some(1), "{}", run.stderr);
        assert!(
            run.stderr.contains(": 40 ok, 0 wrong, 1 invalid"),
            "{}",
            run.stderr
        );
        // stats reads the results; show reads the first record of either.
        let run = dir.run(&["stats", &solved, "--json"]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let summary: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(summary["records"], 41);
        assert_eq!(summary["status"]["solved"], 40);
        for input in [&solved, &checked] {
            let run = dir.run_with_stdin(&["show", "-"], dir.read(input));
            assert_eq!(run.code, Some(0), "{input}: {}", run.stderr);
            assert!(run.stdout.contains("status: solved"), "{}", run.stdout);
        }
        // solve reads verify's output (its puzzle column): the same rows as from the input.
        let run = dir.run(&["solve", &checked, "-o", &format!("again.{format}")]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let strip = |name: &str| -> Vec<(String, String)> {
            csv_rows(&dir.read(name))
                .into_iter()
                .map(|r| (r["puzzle"].clone(), r["recursions"].clone()))
                .collect()
        };
        if format == "csv" {
            assert_eq!(strip("again.csv"), strip("solved.csv"));
        }
    }
}

#[test]
fn concatenated_csv_files_read_as_one() {
    let dir = Workdir::new();
    let all = puzzles("puzzles2_17_clue.txt.gz", 20);
    for (name, part) in [("a.txt", &all[..12]), ("b.txt", &all[12..])] {
        dir.write(name, part.join("\n") + "\n");
    }
    for name in ["a", "b"] {
        let run = dir.run(&[
            "solve",
            &format!("{name}.txt"),
            "-o",
            &format!("{name}.csv"),
        ]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    let both = dir.read("a.csv") + &dir.read("b.csv");
    dir.write("both.csv", &both);
    // verify and solve skip the second header: no invalid record.
    let run = dir.run(&["verify", "both.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(csv_rows(&run.stdout).len(), 20);
    let run = dir.run(&["solve", "both.csv", "--strict"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // The second file's rows keep their lines in the concatenation (the header is line 14).
    let lines: Vec<String> = csv_rows(&run.stdout)
        .iter()
        .map(|r| r["line"].clone())
        .collect();
    assert_eq!(lines[11..13], ["13".to_string(), "15".to_string()]);
    // stats over the concatenation, through stdin too, equals stats over the two files.
    let two = dir.run(&["stats", "a.csv", "b.csv", "--json"]);
    let joined = dir.run_with_stdin(&["stats", "-", "--json"], both);
    assert_eq!(two.code, Some(0), "{}", two.stderr);
    assert_eq!(joined.code, Some(0), "{}", joined.stderr);
    let json = |text: &str| -> serde_json::Value { serde_json::from_str(text).unwrap() };
    assert_eq!(json(&two.stdout), json(&joined.stdout));
    assert_eq!(json(&two.stdout)["records"], 20);
}
