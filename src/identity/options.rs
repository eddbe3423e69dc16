//! The options of a run that change the bytes of its output: one list, recorded by checkpoints
//! and by shards' summaries, and compared by `--resume` and `merge`. Threads, the chunk size and
//! the messages change nothing and are left out.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::pipeline::{Job, Settings};

/// Options by name (`algorithm`, `max_solutions`, ...), with their values.
pub type Options = BTreeMap<String, Value>;

/// The options of `settings` that change the bytes of the output, and the command.
pub fn of(settings: &Settings) -> Options {
    let columns = &settings.columns;
    let mut options: Options = [
        ("command", json!(settings.job.name())),
        (
            "input_format",
            json!(settings.input_format.map_or("(detected)", |f| f.name())),
        ),
        ("puzzle_column", json!(columns.puzzle)),
        // `SOURCE=NAME` for a renamed column: a run without renaming records what it always did.
        ("keep_columns", json!(columns.kept_as_given())),
        ("regions_column", json!(columns.regions)),
        ("output_format", json!(settings.output_format.name())),
        (
            "layout",
            json!(if settings.layout.is_standard() {
                "standard".to_string()
            } else {
                settings.layout.to_line()
            }),
        ),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_string(), value))
    .collect();
    let job: Vec<(&str, Value)> = match settings.job {
        Job::Solve(solve) => vec![
            ("algorithm", json!(solve.algorithm.name())),
            ("max_solutions", json!(solve.max_solutions)),
            ("max_recursions", json!(solve.max_recursions)),
            ("seed", json!(solve.seed)),
        ],
        Job::Verify(verify) => vec![
            ("solution_column", json!(columns.solution)),
            ("unique", json!(verify.unique)),
            ("max_recursions", json!(verify.max_recursions)),
        ],
        // The scale is named only when it is not the default, so that a run of HoDoKu's scale
        // keeps the identity it had before there was a choice.
        Job::Rate(rate) => {
            let mut options = vec![("max_recursions", json!(rate.max_recursions))];
            if rate.scale != crate::pipeline::Scale::Hodoku {
                options.push(("scale", json!(rate.scale.name())));
            }
            if rate.invariant {
                options.push(("invariant", json!(true)));
            }
            options
        }
        Job::Canon(canon) => vec![
            ("dedupe", json!(canon.dedupe.is_some())),
            ("max_classes", json!(canon.dedupe.map(|d| d.max_classes))),
        ],
        Job::Augment(augment) => vec![
            ("copies", json!(augment.copies)),
            ("seed", json!(augment.seed)),
            ("distinct", json!(augment.distinct)),
            ("solutions", json!(augment.solutions)),
            ("solution_column", json!(columns.solution)),
        ],
    };
    options.extend(job.into_iter().map(|(n, v)| (n.to_string(), v)));
    // A Parquet output's codec, listed only when it is not the default (Snappy), as above.
    if settings.output_format == crate::format::OutputFormat::Parquet
        && settings.parquet_compression != Default::default()
    {
        options.insert(
            "parquet_compression".to_string(),
            json!(settings.parquet_compression.name()),
        );
    }
    // Listed only when on, as `canonical` below.
    if let Job::Canon(canon) = settings.job
        && canon.dedupe.is_some_and(|d| d.exact)
    {
        options.insert("exact".to_string(), json!(true));
    }
    if let Job::Canon(canon) = settings.job
        && canon.dedupe.is_some_and(|d| d.as_input)
    {
        options.insert("as_input".to_string(), json!(true));
    }
    // Counting canonical forms changes the summary; listed only when on, so that runs made
    // before the option existed compare equal to runs without it.
    if settings.canonical {
        options.insert("canonical".to_string(), json!(true));
    }
    options
}

/// One option that differs: its name, and its value in each list (`None`: not in it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change<'a> {
    /// The option's name.
    pub name: &'a str,
    /// Its value in the first list.
    pub was: Option<&'a Value>,
    /// Its value in the second list.
    pub now: Option<&'a Value>,
}

impl Change<'_> {
    /// Its value in the first list, as a command line shows it ([`shown`]); an option listed
    /// only when it is not its default shows its default when it is not listed.
    pub fn was_shown(&self) -> String {
        shown_as(self.name, self.was)
    }

    /// Its value in the second list, as [`Change::was_shown`].
    pub fn now_shown(&self) -> String {
        shown_as(self.name, self.now)
    }

    /// The command-line flag of the option (`--max-solutions`; the layout is `regions`).
    pub fn flag(&self) -> String {
        match self.name {
            "layout" => "regions".to_string(),
            name => format!("--{}", name.replace('_', "-")),
        }
    }
}

/// Every option whose value differs between `was` and `now`, by name.
pub fn changes<'a>(was: &'a Options, now: &'a Options) -> Vec<Change<'a>> {
    let names: std::collections::BTreeSet<&String> = was.keys().chain(now.keys()).collect();
    names
        .into_iter()
        .filter_map(|name| {
            let (a, b) = (was.get(name), now.get(name));
            (a != b).then_some(Change {
                name,
                was: a,
                now: b,
            })
        })
        .collect()
}

/// The value of option `name` as shown, its default when it is one of the options [`of`] lists
/// only when they are not their default.
fn shown_as(name: &str, value: Option<&Value>) -> String {
    let default = match name {
        "scale" => Some(crate::pipeline::Scale::default().name()),
        "parquet_compression" => Some(crate::format::parquet::ParquetCompression::default().name()),
        "exact" | "as_input" | "canonical" => Some("false"),
        _ => None,
    };
    match (value, default) {
        (None, Some(default)) => default.to_string(),
        _ => shown(value),
    }
}

/// A value as a command line shows it: text as it is, lists comma-separated, `(default)` for
/// none, `(none)` when the option is absent.
pub fn shown(value: Option<&Value>) -> String {
    match value {
        None => "(none)".to_string(),
        Some(Value::Null) => "(default)".to_string(),
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(","),
        Some(other) => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{Algorithm, SolveOptions};

    #[test]
    fn an_option_listed_only_off_its_default_shows_its_default_when_unlisted() {
        let rating = |scale| {
            Job::Rate(crate::pipeline::RatingOptions {
                max_recursions: 1000,
                scale,
                invariant: false,
            })
        };
        let mut se = Settings::new(rating(crate::pipeline::Scale::Se), 1);
        let hodoku = of(&Settings::new(rating(crate::pipeline::Scale::Hodoku), 1));
        se.canonical = true;
        let se = of(&se);
        let changes = changes(&hodoku, &se);
        let shown: Vec<String> = changes
            .iter()
            .map(|c| format!("{} {} -> {}", c.flag(), c.was_shown(), c.now_shown()))
            .collect();
        assert_eq!(shown, ["--canonical false -> true", "--scale hodoku -> se"]);
    }

    #[test]
    fn only_options_that_shape_the_output_count() {
        let settings = crate::test_data::solve_settings(1);
        let mut more_threads = settings.clone();
        more_threads.threads = 8;
        assert_eq!(of(&settings), of(&more_threads));
        let mut other = settings.clone();
        other.job = Job::Solve(SolveOptions {
            algorithm: Algorithm::Naive,
            ..SolveOptions::default()
        });
        let (a, b) = (of(&settings), of(&other));
        let found = changes(&a, &b);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].flag(), "--algorithm");
        assert_eq!(
            (shown(found[0].was), shown(found[0].now)),
            ("fast".into(), "naive".into())
        );
        assert_eq!(shown(a.get("input_format")), "(detected)");
        assert_eq!(shown(a.get("puzzle_column")), "(default)");
    }

    #[test]
    fn renaming_a_kept_column_shapes_the_output() {
        let mut kept = crate::test_data::solve_settings(1);
        kept.columns.keep = vec!["solutions".into(), "id".into()];
        let mut renamed = kept.clone();
        renamed.columns.keep_as = vec![Some("kaggle".into())];
        let (a, b) = (of(&kept), of(&renamed));
        assert_eq!(shown(a.get("keep_columns")), "solutions,id");
        let found = changes(&a, &b);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].flag(), "--keep-columns");
        assert_eq!(shown(found[0].now), "solutions=kaggle,id");
    }
}
