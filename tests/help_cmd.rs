//! Help that teaches, a man page and shell completions, all made from the one clap definition:
//! through the binary, as a user meets them.

use crate::workdir::Workdir;

#[test]
fn solve_help_groups_its_options_and_shows_examples() {
    let dir = Workdir::new();
    let long = dir.run(&["solve", "--help"]);
    assert_eq!(long.code, Some(0), "{}", long.stderr);
    for heading in [
        "\nInput:\n",
        "\nOutput:\n",
        "\nRun:\n",
        "\nSearch:\n",
        "\nExamples:\n",
    ] {
        assert!(long.stdout.contains(heading), "{heading}: {}", long.stdout);
    }
    assert!(
        long.stdout
            .contains("sudoku-bulk solve puzzles.txt -o results.csv")
    );
    let short = dir.run(&["solve", "-h"]);
    assert_eq!(short.code, Some(0));
    assert!(short.stdout.len() < long.stdout.len(), "{}", short.stdout);
    assert!(short.stdout.contains("\nExamples:\n"), "{}", short.stdout);
}

#[test]
fn the_man_page_renders_without_warnings() {
    let dir = Workdir::new();
    for args in [&["man"][..], &["man", "solve"], &["man", "stats"]] {
        let run = dir.run(args);
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
        assert!(run.stdout.contains("\n.TH "), "{args:?}: {}", run.stdout);
        dir.write("page.1", &run.stdout);
        // groff with every warning on, output thrown away: a page that does not parse warns.
        let rendered = std::process::Command::new("groff")
            .args(["-man", "-Tutf8", "-ww", "-z"])
            .arg(dir.path("page.1"))
            .output()
            .expect("groff, which renders man pages, is installed (apt-get install groff)");
        assert!(rendered.status.success(), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&rendered.stderr), "", "{args:?}");
    }
    let page = dir.run(&["man", "solve"]).stdout;
    assert!(page.contains("\\-\\-keep\\-columns"), "{page}");
}

#[test]
fn bash_completion_offers_the_commands_and_their_options() {
    let dir = Workdir::new();
    let run = dir.run(&["completions", "bash"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    dir.write("sudoku-bulk.bash", &run.stdout);
    // Completes as bash does on TAB: COMP_WORDS and COMP_CWORD set, the function the script
    // registers for sudoku-bulk (`complete -F _sudoku__bulk`) called.
    assert!(
        run.stdout.contains("complete -F _sudoku__bulk "),
        "{}",
        run.stdout
    );
    let complete = |words: &[&str]| -> Vec<String> {
        let script = format!(
            "source ./sudoku-bulk.bash\nCOMP_WORDS=({})\nCOMP_CWORD={}\nCOMP_LINE=\"${{COMP_WORDS[*]}}\"\n\
             COMP_POINT=${{#COMP_LINE}}\n_sudoku__bulk sudoku-bulk \"${{COMP_WORDS[COMP_CWORD]}}\" \
             \"${{COMP_WORDS[COMP_CWORD-1]}}\"\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
            words
                .iter()
                .map(|w| format!("'{w}'"))
                .collect::<Vec<_>>()
                .join(" "),
            words.len() - 1
        );
        let out = std::process::Command::new("bash")
            .arg("--norc")
            .arg("-c")
            .arg(script)
            .current_dir(dir.path(""))
            .output()
            .expect("bash");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    };
    let commands = complete(&["sudoku-bulk", ""]);
    for command in [
        "solve",
        "verify",
        "rate",
        "stats",
        "canon",
        "completions",
        "man",
    ] {
        assert!(
            commands.iter().any(|c| c == command),
            "{command}: {commands:?}"
        );
    }
    let options = complete(&["sudoku-bulk", "solve", "--keep"]);
    assert_eq!(options, ["--keep-columns"]);
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let run = dir.run(&["completions", shell]);
        assert_eq!(run.code, Some(0), "{shell}");
        assert!(run.stdout.contains("solve"), "{shell}");
    }
}
