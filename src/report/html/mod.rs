//! The summary as one self-contained HTML page with charts: the output of `stats --html FILE`.
//!
//! The page needs nothing but a browser: styles are inline, every chart is an SVG element
//! written into the page, and a few lines of inline script only make tables sortable (the page
//! reads the same without them); no font, image or network request. It shows:
//! - a header: the inputs (what each holds, its size, when it was written), the run each
//!   summary document records (tool version, command, options, its inputs with their sizes and
//!   digests), the grouping and its bins, and when the report was made;
//! - the key figures, the status shares, a table of every counter and histograms of
//!   `recursions`, `max_depth`, `guesses` and `givens`, every bucket labelled with its range
//!   and its count;
//! - the hardest puzzles: where each is, its counters, its puzzle and the `show` command that
//!   explains it;
//! - for a grouped summary ([`groups`]): a table of the groups with their names whole, their
//!   status shares and recursion percentiles, and their recursion distributions; the 20
//!   largest groups and `other` when there are more.
//!
//! - [`page`](self): the frame, the header and the tables;
//! - `groups`: the groups' section;
//! - `charts`: the SVG charts; `svg`: the SVG writer and the placing of labels.

mod charts;
mod groups;
mod page;
mod rating;
mod se;
mod svg;

use std::fmt::Write as _;
use std::time::SystemTime;

use crate::stats::document::RunInfo;
use crate::stats::grouping::{InputRead, Summarised};
use crate::stats::{Counter, Summary};
use charts::{Chart, HALF, histogram_chart, status_chart};
use page::{SORTING, STYLE, SearchOptions, counter_table, escape, key_figures, status_table};

pub use groups::GROUPS_SHOWN;

/// A chart that could not be drawn. (The charts are written directly and cannot fail; the
/// type stays for the callers that name it.)
#[derive(Debug, thiserror::Error)]
#[error("drawing the chart '{chart}': {message}")]
pub struct ChartError {
    /// The chart's caption.
    pub chart: String,
    /// What went wrong.
    pub message: String,
}

/// What a report was made from, for its header.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct About {
    /// The inputs, in order.
    pub inputs: Vec<AboutInput>,
    /// What `stats` chose on its own (automatic bins).
    pub note: Option<String>,
    /// When the report was made, as shown.
    pub made: Option<String>,
}

/// One input of a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AboutInput {
    /// The input as read.
    pub read: InputRead,
    /// Its size in bytes, for a file.
    pub bytes: Option<u64>,
    /// When it was last written, as shown, for a file.
    pub modified: Option<String>,
}

impl About {
    /// What `read` was made from: each input's size and modification time from the file
    /// system, and `now` as the time the report is made.
    pub fn of(read: &Summarised, now: SystemTime) -> About {
        let inputs = read
            .inputs
            .iter()
            .map(|input| {
                let meta = (input.path.as_os_str() != "-")
                    .then(|| std::fs::metadata(&input.path).ok())
                    .flatten();
                AboutInput {
                    read: input.clone(),
                    bytes: meta.as_ref().map(|m| m.len()),
                    modified: meta.and_then(|m| m.modified().ok()).map(utc),
                }
            })
            .collect();
        About {
            inputs,
            note: read.note.clone(),
            made: Some(utc(now)),
        }
    }

    /// The distinct runs the inputs record, each with the file that records it.
    fn recorded_runs(&self) -> Vec<(&RunInfo, &std::path::Path)> {
        let mut runs: Vec<(&RunInfo, &std::path::Path)> = Vec::new();
        for input in &self.inputs {
            let Some(run) = &input.read.run else { continue };
            let from = input.read.run_from.as_deref().unwrap_or(&input.read.path);
            let same = |(other, _): &(&RunInfo, &std::path::Path)| {
                other.inputs == run.inputs
                    && other.options == run.options
                    && other.tool_version == run.tool_version
            };
            if !runs.iter().any(same) {
                runs.push((run, from));
            }
        }
        runs
    }

    /// The distinct runs the inputs record.
    fn runs(&self) -> Vec<&RunInfo> {
        self.recorded_runs()
            .into_iter()
            .map(|(run, _)| run)
            .collect()
    }

    /// The one input of the one run recorded, if that is what the report describes.
    fn single_input(&self) -> Option<&str> {
        match self.runs()[..] {
            [run] if run.inputs.len() == 1 => Some(&run.inputs[0].name),
            _ => None,
        }
    }

    /// The search options of the run, when one run (or several with the same options) is
    /// recorded.
    fn search_options(&self) -> Option<SearchOptions> {
        let runs = self.runs();
        let first = runs.first()?;
        if runs.iter().any(|r| r.options != first.options) {
            return None;
        }
        let options = &first.options;
        let number = |name: &str| options.get(name).and_then(|v| v.as_u64());
        Some(SearchOptions {
            algorithm: options.get("algorithm")?.as_str()?.to_string(),
            max_solutions: number("max_solutions")?,
            max_recursions: number("max_recursions")?,
            seed: number("seed").unwrap_or(0),
        })
    }
}

/// `time` as `YYYY-MM-DD HH:MM UTC`.
pub fn utc(time: SystemTime) -> String {
    let seconds = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    // Days to a civil date (proleptic Gregorian), after Howard Hinnant's `civil_from_days`.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60
    )
}

/// The page for `summary`, made from what `about` says.
pub fn render(summary: &Summary, about: &About) -> Result<String, ChartError> {
    let mut page = String::with_capacity(256 * 1024);
    let names: Vec<String> = about
        .inputs
        .iter()
        .map(|i| i.read.path.display().to_string())
        .collect();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n",
        Made::of(summary).title(),
        escape(&names.join(", ")),
    );
    page::header(&mut page, summary, about);
    rating::section(&mut page, summary);
    se::section(&mut page, summary);
    // Results of `rate` alone have no search counters, hardest searches or search groups to
    // show.
    if !summary.rate_rows_only() {
        search_sections(&mut page, summary);
        page::hardest_table(&mut page, summary, about);
        groups::section(&mut page, summary);
    }

    let made = Made::of(summary);
    let _ = write!(
        page,
        "<footer><p>Made by sudoku-bulk {version}. Quantiles are exact, by the nearest-rank \
         rule: the p-th percentile is the smallest value v such that at least ceil(p&middot;n/100) \
         of the n values are &le; v.",
        version = env!("CARGO_PKG_VERSION"),
    );
    if !matches!(made, Made::Rate | Made::RateSe) {
        page.push_str(
            " Counters describe the records that were searched (all but <em>invalid</em>). \
             Histograms of recursions and guesses use power-of-two buckets ([0], [1], [2,3], \
             [4,7], &hellip;), those of depth and givens one bucket per value.",
        );
    }
    if matches!(made, Made::Rate | Made::Both) {
        page.push_str(
            " Levels and scores are those of <code>rate</code> (HoDoKu's ladder of \
             techniques); level shares are of the rated puzzles, and score bands are 100 points \
             wide.",
        );
    }
    if made == Made::RateSe {
        page.push_str(
            " ER, EP and ED are Sudoku Explainer's (<code>rate --scale se</code>), counted over \
             the puzzles whose whole path was found; SE levels are bands of ER with the bounds \
             of Sudoku Explainer's generator (a puzzle whose path needs nested forcing chains \
             is diabolical), and level shares are of the rated puzzles.",
        );
    }
    let _ = write!(
        page,
        "</p></footer>\n</main>\n<script>{SORTING}</script>\n</body>\n</html>\n"
    );
    Ok(page)
}

/// The command that made the rows a page describes: it names the page and its notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Made {
    /// `solve` (search counters).
    Solve,
    /// `rate` (levels and scores) alone.
    Rate,
    /// `rate --scale se` (Sudoku Explainer's ratings) alone.
    RateSe,
    /// Both, merged from several inputs.
    Both,
}

impl Made {
    pub(super) fn of(summary: &Summary) -> Made {
        match (summary.rating(), summary.se_rating()) {
            (None, Some(_)) if summary.rate_rows_only() => Made::RateSe,
            (None, _) => Made::Solve,
            (Some(_), _) if summary.rate_rows_only() => Made::Rate,
            (Some(_), _) => Made::Both,
        }
    }

    /// The page's title.
    pub(super) fn title(self) -> &'static str {
        match self {
            Made::Solve => "Solver statistics",
            Made::Rate => "Rating statistics",
            Made::RateSe => "Sudoku Explainer rating statistics",
            Made::Both => "Solver and rating statistics",
        }
    }

    /// The command that writes such rows.
    pub(super) fn command(self) -> &'static str {
        match self {
            Made::Rate => "rate",
            Made::RateSe => "rate --scale se",
            Made::Solve | Made::Both => "solve",
        }
    }
}

/// The key figures, the status shares and the search counters of the rows of `solve`.
fn search_sections(page: &mut String, summary: &Summary) {
    key_figures(page, summary);

    page.push_str("<section>\n<h2>Status</h2>\n<div class=\"pair\">\n");
    page.push_str(&status_chart(summary).svg);
    status_table(page, summary);
    page.push_str("</div>\n</section>\n");

    page.push_str("<section>\n<h2>Search counters</h2>\n");
    counter_table(page, summary);
    page.push_str("<div class=\"charts\">\n");
    for (counter, colour) in [
        (Counter::Recursions, "#1f5fa8"),
        (Counter::MaxDepth, "#00796b"),
        (Counter::Guesses, "#5c6bc0"),
        (Counter::Givens, "#8d6e63"),
    ] {
        let Chart { svg, width } = histogram_chart(summary, counter, colour);
        let class = if width > HALF + 1.0 {
            " class=\"whole\""
        } else {
            ""
        };
        let _ = writeln!(page, "<div{class}>{svg}</div>");
    }
    page.push_str("</div>\n</section>\n");
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::SolveStatus;
    use crate::solver::SearchStats;
    use crate::stats::bins::Bins;
    use crate::stats::read::Content;
    use crate::stats::{RecordRef, Row};

    fn sample(by: Option<&str>) -> Summary {
        let mut s = by.map_or_else(Summary::new, Summary::grouped_by);
        for i in 0..200u64 {
            let group = if i % 2 == 0 { "<easy>" } else { "hard & co" };
            let puzzle = format!("{i:.>81}");
            s.add(&Row {
                status: if i % 50 == 7 {
                    SolveStatus::Multiple
                } else {
                    SolveStatus::Solved
                },
                counters: Some(SearchStats {
                    recursions: 1 + (i % 2) * i * 3,
                    max_depth: 1 + i % 9,
                    guesses: (i % 2) * i,
                    backtracks: i / 3,
                    naked_singles: 40,
                    hidden_singles: 20,
                    givens: 17 + i % 5,
                }),
                group: Some(group),
                record: Some(RecordRef {
                    file: Some("in<1>.txt"),
                    line: i + 1,
                    puzzle: &puzzle,
                    regions: None,
                }),
            });
        }
        s.add(&Row::invalid().with_group("<easy>"));
        s
    }

    fn about(names: &[&str]) -> About {
        About {
            inputs: names
                .iter()
                .map(|name| AboutInput {
                    read: InputRead {
                        path: name.into(),
                        content: Content::Rows(crate::format::InputFormat::Csv),
                        run: None,
                        run_from: None,
                    },
                    bytes: Some(1234),
                    modified: Some("2024-05-06 07:08 UTC".into()),
                })
                .collect(),
            note: None,
            made: Some("2024-05-06 09:10 UTC".into()),
        }
    }

    fn svgs(page: &str) -> usize {
        page.matches("<svg").count()
    }

    #[test]
    fn the_title_and_notes_fit_the_command_that_made_the_rows() {
        let page = render(&sample(None), &about(&["r.csv"])).unwrap();
        assert!(page.contains("<title>Solver statistics: r.csv</title>"));
        assert!(page.contains("<h1>Solver statistics</h1>"));
        assert!(page.contains("power-of-two buckets") && !page.contains("HoDoKu"));
        let mut rated = Summary::new().rating_kept();
        let mut counts = [0; crate::rate::Technique::COUNT];
        counts[crate::rate::Technique::HiddenSingle.index()] = 50;
        rated.add_rated(&crate::stats::rating::RatedRow {
            status: crate::row::RateStatus::Rated,
            rated: Some(crate::stats::rating::Rated::from_counts(counts)),
            group: None,
        });
        let page = render(&rated, &about(&["rated.csv"])).unwrap();
        assert!(
            page.contains("<title>Rating statistics: rated.csv</title>"),
            "{page}"
        );
        assert!(page.contains("<h1>Rating statistics</h1>"));
        assert!(page.contains("<code>rate -o RESULTS --summary"), "{page}");
        let footer = page.split("<footer>").nth(1).unwrap();
        assert!(
            footer.contains("score bands are 100 points wide"),
            "{footer}"
        );
        assert!(!footer.contains("Histograms"), "{footer}");
    }

    #[test]
    fn sizes_are_in_human_units() {
        assert_eq!(page::size(1), "1 byte");
        assert_eq!(page::size(1023), "1023 bytes");
        assert_eq!(page::size(1536), "1.5 KiB");
        assert_eq!(page::size(5 << 20), "5.0 MiB");
        assert_eq!(page::size(3 << 30), "3.0 GiB");
    }

    #[test]
    fn a_small_group_gets_a_short_bar() {
        let mut s = Summary::grouped_by("givens");
        for i in 0..400u64 {
            let group = if i < 2 { "small" } else { "large" };
            s.add(&Row {
                status: SolveStatus::Solved,
                counters: Some(SearchStats {
                    recursions: 1 + i,
                    givens: 17,
                    ..SearchStats::default()
                }),
                group: Some(group),
                record: None,
            });
        }
        let page = render(&s, &about(&["r.csv"])).unwrap();
        let bars = page
            .split("<h3>Status shares per group</h3>")
            .nth(1)
            .unwrap();
        let bar = |name: &str| {
            let row = bars
                .split(&format!("<td class=\"name\">{name}</td>"))
                .nth(1)
                .unwrap();
            row.split("style=\"width:")
                .nth(2)
                .unwrap()
                .split('%')
                .next()
                .unwrap()
                .to_string()
        };
        assert_eq!(bar("large"), "100.000");
        assert_eq!(bar("small"), "0.503");
        assert!(
            bars.contains("<td class=\"count\">2 records</td>"),
            "{bars}"
        );
    }

    #[test]
    fn the_page_is_self_contained() {
        let page = render(&sample(Some("source")), &about(&["a.csv & <b>.csv"])).unwrap();
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.trim_end().ends_with("</html>"));
        // Status, four histograms, the groups' distributions.
        assert_eq!(svgs(&page), 6);
        // The SVG namespace is a name, not a request; the one script is inline.
        let without_namespace = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
        assert_eq!(page.matches("<script").count(), 1);
        assert!(page.contains("<script>\ndocument.querySelectorAll"));
        for forbidden in ["<link", "<img", "src=", "url(", "http", "//", "import"] {
            assert!(
                !without_namespace.contains(forbidden),
                "the page contains {forbidden}"
            );
        }
        // User text is escaped everywhere, in the page and inside the charts.
        assert!(page.contains("a.csv &amp; &lt;b&gt;.csv"));
        assert!(!page.contains("<easy>"));
        assert!(page.contains("&lt;easy&gt;"));
        assert!(page.contains("in&lt;1&gt;.<wbr>txt"));
    }

    #[test]
    fn the_header_says_what_the_report_was_made_from() {
        let mut about = about(&["r.csv"]);
        let page = render(&sample(None), &about).unwrap();
        assert!(page.contains("<code>r.csv</code> <span class=\"muted\">results (csv), 1.2 KiB, written 2024-05-06 07:08 UTC</span>"), "{page}");
        assert!(page.contains("made 2024-05-06 09:10 UTC by sudoku-bulk"));
        assert!(page.contains("<dt>run</dt><dd class=\"muted\">not recorded"));
        about.inputs[0].read.content = Content::Document;
        about.inputs[0].read.run = Some(RunInfo {
            tool_version: "9.9.9".into(),
            inputs: vec![crate::files::digest::Prefix {
                name: "data/x.txt".into(),
                bytes: 12,
                digest: crate::files::digest::of(b"twelve bytes"),
            }],
            options: [
                ("command".to_string(), serde_json::json!("solve")),
                ("algorithm".to_string(), serde_json::json!("naive")),
                ("max_solutions".to_string(), serde_json::json!(1)),
                ("max_recursions".to_string(), serde_json::json!(5000)),
                ("seed".to_string(), serde_json::json!(0)),
            ]
            .into(),
            shard: None,
        });
        about.note = Some("'d' has 81 distinct numbers".into());
        let page = render(&sample(None), &about).unwrap();
        assert!(page.contains("<dt>run</dt><dd>sudoku-bulk 9.9.9 solve: algorithm naive · max_recursions 5000 · max_solutions 1 · seed 0 <span class=\"muted\">(recorded in <code>r.csv</code>)</span><ul><li><code>data/x.txt</code> <span class=\"muted\">12 bytes, XXH3-128 "), "{page}");
        assert!(page.contains("<dt>note</dt><dd>&#39;d&#39; has 81 distinct numbers</dd>"));
        // The show commands repeat the run's search.
        let command = format!(
            "sudoku-bulk show {:.>81} --algorithm naive --max-solutions 1</code>",
            199
        );
        assert!(page.contains(&command), "{page}");
        assert!(page.contains("line in the input it was solved from (<code>data/x.txt</code>)"));
    }

    #[test]
    fn the_hardest_puzzles_are_listed_hardest_first() {
        let s = sample(None);
        let page = render(&s, &about(&["r.csv"])).unwrap();
        let table = &page[page.find("The hardest puzzles").unwrap()..];
        // Odd i: recursions 1 + 3i; the hardest is i = 199 (line 200), then i = 197.
        let name = page::breakable("in<1>.txt");
        let first = table
            .find(&format!(
                "<td>1</td><td class=\"name\">{name}</td><td>200</td><td>solved</td><td>598</td><td>199</td>"
            ))
            .unwrap();
        let second = table
            .find(&format!(
                "<td>2</td><td class=\"name\">{name}</td><td>198</td>"
            ))
            .unwrap();
        assert!(first < second);
        assert_eq!(table.matches("sudoku-bulk show ").count(), 20);
    }

    #[test]
    fn tables_show_the_numbers() {
        let s = sample(None);
        let page = render(&s, &about(&["x"])).unwrap();
        let r = s.counter(Counter::Recursions);
        let row = format!(
            "<tr><td>recursions</td><td>{}</td><td>{}</td><td>{:.2}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            r.count(),
            r.min().unwrap(),
            r.mean().unwrap(),
            r.percentile(50).unwrap(),
            r.percentile(90).unwrap(),
            r.percentile(99).unwrap(),
            r.max().unwrap()
        );
        assert!(page.contains(&row), "{row}");
        assert!(page.contains("<tr><td>multiple</td><td>4</td><td>1.99%</td></tr>"));
    }

    #[test]
    fn ungrouped_empty_and_binned_summaries_render() {
        let page = render(&sample(None), &about(&["x"])).unwrap();
        assert_eq!(svgs(&page), 5);
        assert!(!page.contains("Status shares per group"));
        let empty = render(&Summary::new(), &About::default()).unwrap();
        assert_eq!(svgs(&empty), 5);
        assert!(empty.contains("No record is listed"));
        let empty_grouped = render(&Summary::grouped_by("givens"), &About::default()).unwrap();
        assert_eq!(svgs(&empty_grouped), 6);
        let mut binned = Summary::binned_by("d", Bins::given(&["0", "2.5", "5"]).unwrap());
        for d in ["0", "1", "3", "9", ""] {
            let row = Row {
                status: SolveStatus::Solved,
                counters: Some(SearchStats::default()),
                group: Some(d),
                record: None,
            };
            binned.add(&row);
        }
        let page = render(&binned, &About::default()).unwrap();
        assert!(
            page.contains("<dt>grouped by</dt><dd><code>d</code>, bins at edges 0, 2.5, 5</dd>")
        );
        let order: Vec<usize> = ["(empty)", "[0, 2.5]", "(2.5, 5]", "> 5"]
            .iter()
            .map(|name| {
                let name = page::breakable(name);
                page.find(&format!("<td class=\"name\">{name}</td>"))
                    .unwrap()
            })
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    }

    #[test]
    fn many_groups_show_the_largest_and_other_with_full_names() {
        let mut s = Summary::grouped_by("file");
        let long = "data/a-very-long-directory-name/puzzles5_forum_hardest_1905_11+.txt.gz";
        for g in 0..30u64 {
            // Groups 3 and 7 hold one record each; the others 5 + g.
            let size = if g == 3 || g == 7 { 1 } else { 5 + g };
            let key = format!("{long}/{g:02}");
            for r in 0..size {
                s.add(&Row {
                    status: SolveStatus::Solved,
                    counters: Some(SearchStats {
                        recursions: 1 + r,
                        givens: 17,
                        ..SearchStats::default()
                    }),
                    group: Some(&key),
                    record: None,
                });
            }
        }
        let page = render(&s, &about(&["x"])).unwrap();
        let groups = &page[page.find("By <code>file</code>: 30 groups").unwrap()..];
        // The 20 largest are 10..=29; the others, ten of them, are merged.
        for g in 0..30 {
            let row = format!(
                "<tr><td class=\"name\">{}</td>",
                page::breakable(&format!("{long}/{g:02}"))
            );
            assert_eq!(groups.contains(&row), g >= 10, "group {g}");
        }
        let other: u64 = (0..10)
            .map(|g| if g == 3 || g == 7 { 1 } else { 5 + g })
            .sum();
        assert!(
            groups.contains(&format!(
                "<tfoot>\n<tr><td class=\"name\">other (10 groups)</td><td>{other}</td>"
            )),
            "{groups}"
        );
        assert!(groups.contains("the 10 largest"));
    }

    #[test]
    fn utc_dates() {
        let at = |s: u64| utc(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01 00:00 UTC");
        assert_eq!(at(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(at(1_709_210_096), "2024-02-29 12:34 UTC");
    }
}
