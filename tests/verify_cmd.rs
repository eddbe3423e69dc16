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
    assert_eq!(csv_header(&run.stdout), ["line", "status", "error"]);
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
        "sudoku-bulk: error: g.txt: the grid format holds no solutions: verify reads line or CSV input\n"
    );
}
