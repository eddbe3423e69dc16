//! The house stays as drawn: every import in `src/` goes to a layer of a lower rank than its own,
//! as the table in ARCHITECTURE.md says (test code excepted).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The rank of each top-level module, read from the table in ARCHITECTURE.md.
fn ranks() -> BTreeMap<String, u32> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut ranks = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | rank | modules | owns | I/O? |
        let (Some(rank), Some(modules)) = (cells.get(1), cells.get(2)) else {
            continue;
        };
        let Ok(rank) = rank.parse::<u32>() else {
            continue;
        };
        for module in modules.split(',') {
            let name = module.trim().trim_matches('`').to_string();
            assert!(
                ranks.insert(name.clone(), rank).is_none(),
                "{name} is in the table twice"
            );
        }
    }
    ranks
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`src/pipeline/feed.rs` -> `pipeline`),
/// or `None` for the crate root and the binary.
fn module_of(path: &Path) -> Option<String> {
    let relative = path.strip_prefix(root().join("src")).unwrap();
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main" | "cli" | "test_data")).then(|| name.to_string())
}

/// The top-level modules named by `crate::NAME` or `use crate::{A, B::C}` in the code of
/// `text` (comments and test modules left out), with the line of each.
fn imports(text: &str) -> Vec<(usize, String)> {
    let code: String = text
        .split("#[cfg(test)]")
        .next()
        .unwrap_or("")
        .lines()
        .map(|line| match line.trim_start().starts_with("//") {
            true => "\n".to_string(),
            false => format!("{line}\n"),
        })
        .collect();
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let line = code[..at].matches('\n').count() + 1;
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The names at the top of the group: split at commas outside inner braces.
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        found.push((line, ident(&group[start..i])));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.push((line, ident(&group[start..i])));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            found.push((line, ident(rest)));
        }
    }
    found.retain(|(_, name)| !name.is_empty());
    found
}

#[test]
fn every_import_goes_to_a_lower_layer() {
    let ranks = ranks();
    assert!(ranks.len() >= 10, "the table was not found: {ranks:?}");
    let mut files = Vec::new();
    sources(&root().join("src"), &mut files);
    let mut broken = Vec::new();
    for path in &files {
        let Some(module) = module_of(path) else {
            continue;
        };
        // A test module kept in its own file (`#[cfg(test)] mod tests;`) is test code.
        if path.file_name().is_some_and(|name| name == "tests.rs") {
            continue;
        }
        let Some(&own) = ranks.get(&module) else {
            broken.push(format!(
                "{}: module {module} is not in ARCHITECTURE.md",
                path.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(path).unwrap();
        for (line, used) in imports(&text) {
            if used == module || used == "test_data" {
                continue;
            }
            // Names the crate root re-exports (`crate::Grid`) belong to their modules.
            let used = match used.as_str() {
                "Grid" => "grid".to_string(),
                "Layout" => "layout".to_string(),
                _ => used,
            };
            match ranks.get(&used) {
                Some(&rank) if rank < own => {}
                Some(&rank) => broken.push(format!(
                    "{}:{line}: {module} (rank {own}) uses {used} (rank {rank})",
                    path.display()
                )),
                None => broken.push(format!(
                    "{}:{line}: {module} uses {used}, which is not in ARCHITECTURE.md",
                    path.display()
                )),
            }
        }
    }
    assert!(
        broken.is_empty(),
        "imports against the layers:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_checker_sees_imports_in_every_form() {
    let text = "use crate::solver::{self, Status};\nuse crate::{grid, layout::Layout};\n\
                // crate::report in a comment\nlet x = crate::stats::Summary::new();\n\
                use crate::{\n    files::{Input, Output},\n    row,\n};\n\
                #[cfg(test)]\nuse crate::command;";
    let found = imports(text);
    let names: Vec<&str> = found.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["solver", "grid", "layout", "stats", "files", "row"]);
    assert_eq!(found[3].0, 4);
}
