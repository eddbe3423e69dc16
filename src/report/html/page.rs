//! The page's frame and its tables: the style sheet, the header with what the report was made
//! from, the key figures, the status, counter and hardest-records tables, and the escaping of
//! text.

use std::fmt::Write as _;

use super::About;
use crate::identity::options;
use crate::report::{PERCENTILES, mean, percent, value};
use crate::row::{SolveStatus, Status};
use crate::stats::document::RunInfo;
use crate::stats::grouping::InputRead;
use crate::stats::hardest::HardRecord;
use crate::stats::read::Content;
use crate::stats::{Bucket, Counter, Summary};

pub(super) const STYLE: &str = "
body { margin: 0; background: #f4f5f7; color: #1d2330;
  font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
main { max-width: 1140px; margin: 0 auto; padding: 24px; }
header h1 { margin: 0 0 10px; font-size: 26px; }
dl.about { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0 0 18px;
  font-size: 14px; }
dl.about dt { color: #5b6475; }
dl.about dd { margin: 0; overflow-wrap: anywhere; }
dl.about ul { margin: 0; padding-left: 18px; }
.muted { color: #5b6475; }
section { background: #fff; border-radius: 8px; padding: 16px 20px; margin: 0 0 18px;
  box-shadow: 0 1px 3px rgba(0,0,0,.08); }
h2 { margin: 0 0 12px; font-size: 19px; }
h3 { margin: 12px 0 4px; font-size: 15px; font-weight: 600; }
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(160px, 1fr));
  gap: 12px; margin: 0 0 18px; }
.figure { background: #fff; border-radius: 8px; padding: 12px 16px;
  box-shadow: 0 1px 3px rgba(0,0,0,.08); }
.figure b { display: block; font-size: 24px; }
.figure span { color: #5b6475; font-size: 13px; }
.pair { display: grid; grid-template-columns: auto auto; gap: 20px; align-items: start;
  justify-content: start; }
.charts { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; margin-top: 14px; }
.charts .whole { grid-column: 1 / -1; }
svg { display: block; max-width: 100%; height: auto; margin: 4px 0; font-family: system-ui,
  -apple-system, 'Segoe UI', Roboto, sans-serif; fill: #1d2330; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 14px; }
table.full { width: 100%; }
th, td { padding: 4px 8px; text-align: right; border-bottom: 1px solid #e3e6eb;
  vertical-align: top; }
th { background: #f0f2f5; font-weight: 600; }
th:first-child, td:first-child, th.name, td.name { text-align: left; }
td.name { overflow-wrap: anywhere; min-width: 8em; }
tfoot td { font-style: italic; }
table.sortable th { cursor: pointer; }
code { font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace; font-size: 13px;
  overflow-wrap: anywhere; }
table.hardest td { border-bottom: none; }
table.hardest tr.puzzle td { border-bottom: 1px solid #e3e6eb; padding-top: 0; text-align: left; }
table.hardest tr.puzzle code { display: block; }
table.hardest tr.puzzle code.command { color: #5b6475; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 6px 0; font-size: 13px; }
.legend span { display: inline-flex; align-items: center; gap: 6px; overflow-wrap: anywhere; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; flex: none; }
.bar { display: flex; height: 16px; background: #f0f2f5; border-radius: 3px; overflow: hidden;
  min-width: 2px; }
.bar i { display: block; height: 100%; }
td.count { color: #5b6475; font-size: 12px; white-space: nowrap; }
.levels { min-width: 300px; }
.level { display: flex; align-items: center; gap: 6px; height: 15px; font-size: 12px; }
.level i { display: block; height: 10px; border-radius: 2px; flex: none; }
footer { color: #5b6475; font-size: 13px; }
@media (max-width: 900px) { .pair, .charts { grid-template-columns: 1fr; } }
";

/// Sorts a table with class `sortable` by the column whose header is clicked (numbers by
/// value); the page reads the same without it.
pub(super) const SORTING: &str = "
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('thead th').forEach(function (th) {
    th.title = 'sort';
    th.addEventListener('click', function () {
      var body = table.tBodies[0];
      var up = th.getAttribute('data-order') !== 'up';
      var key = function (row) {
        var text = row.cells[th.cellIndex].textContent;
        var number = parseFloat(text);
        return isNaN(number) ? text : number;
      };
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var order = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0)
          : (typeof x === 'number' ? -1 : 1);
        return up ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
      th.setAttribute('data-order', up ? 'up' : 'down');
    });
  });
});
";

/// The header: the title and what the report was made from.
pub(super) fn header(page: &mut String, summary: &Summary, about: &About) {
    let _ = write!(
        page,
        "<header>\n<h1>{}</h1>\n<dl class=\"about\">\n",
        super::Made::of(summary).title()
    );
    let _ = write!(
        page,
        "<dt>input{}</dt><dd><ul>",
        if about.inputs.len() == 1 { "" } else { "s" }
    );
    for input in &about.inputs {
        let _ = write!(
            page,
            "<li><code>{}</code> <span class=\"muted\">{}</span></li>",
            escape(&input.read.path.display().to_string()),
            escape(&describe_input(input))
        );
    }
    page.push_str("</ul></dd>\n");
    let runs = about.recorded_runs();
    if runs.is_empty() {
        page.push_str(&format!(
            "<dt>run</dt><dd class=\"muted\">not recorded: result rows do not say how they \
                 were made; the summary a run writes beside them (<code>{} -o RESULTS --summary \
                 RESULTS.summary.json</code>) does</dd>\n",
            super::Made::of(summary).command()
        ));
    }
    for (run, from) in runs {
        run_item(page, run, from);
    }
    if let Some(column) = summary.by() {
        let bins = summary
            .bins()
            .map_or(String::new(), |b| format!(", {}", b.describe()));
        let _ = writeln!(
            page,
            "<dt>grouped by</dt><dd><code>{}</code>{}</dd>",
            escape(column),
            escape(&bins)
        );
    }
    if let Some(note) = &about.note {
        let _ = writeln!(page, "<dt>note</dt><dd>{}</dd>", escape(note));
    }
    let _ = writeln!(
        page,
        "<dt>report</dt><dd>made{} by sudoku-bulk {}</dd>\n</dl>\n</header>",
        about
            .made
            .as_ref()
            .map_or(String::new(), |m| format!(" {}", escape(m))),
        env!("CARGO_PKG_VERSION")
    );
}

/// An input as the header describes it: what it holds, its size and when it was written.
fn describe_input(input: &super::AboutInput) -> String {
    let InputRead { content, .. } = &input.read;
    let kind = match content {
        Content::Rows(format) => format!("results ({})", format.name()),
        Content::Parquet => "results (parquet)".to_string(),
        Content::Document => "summary".to_string(),
    };
    let mut parts = vec![kind];
    if let Some(bytes) = input.bytes {
        parts.push(size(bytes));
    }
    if let Some(modified) = &input.modified {
        parts.push(format!("written {modified}"));
    }
    parts.join(", ")
}

/// One run's line of the header: version, command, options and inputs, and where it is
/// recorded.
fn run_item(page: &mut String, run: &RunInfo, from: &std::path::Path) {
    let shown: Vec<String> = run
        .options
        .iter()
        .filter(|(name, _)| name.as_str() != "command")
        .map(|(name, v)| format!("{name} {}", options::shown(Some(v))))
        .collect();
    let command = run
        .options
        .get("command")
        .and_then(|c| c.as_str())
        .unwrap_or("solve");
    let shard = run.shard.map_or(String::new(), |s| {
        format!(", shard {} of {}", s.index, s.count)
    });
    let _ = write!(
        page,
        "<dt>run</dt><dd>sudoku-bulk {} {command}{shard}: {} <span class=\"muted\">(recorded in \
         <code>{}</code>)</span><ul>",
        escape(&run.tool_version),
        escape(&shown.join(" · ")),
        escape(&from.display().to_string())
    );
    for input in &run.inputs {
        let _ = write!(
            page,
            "<li><code>{}</code> <span class=\"muted\">{}, XXH3-128 {}</span></li>",
            escape(&input.name),
            size(input.bytes),
            input.digest
        );
    }
    page.push_str("</ul></dd>\n");
}

/// A size in bytes as people read it: bytes below 1 KiB, then KiB, MiB or GiB with one
/// decimal (binary units, as `ls -lh` shows them).
pub(super) fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} byte{}", if bytes == 1 { "" } else { "s" });
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

pub(super) fn key_figures(page: &mut String, summary: &Summary) {
    let recursions = summary.counter(Counter::Recursions);
    let figures = [
        (summary.records().to_string(), "records"),
        (
            percent(summary.share(summary.status().get(SolveStatus::Solved))),
            "solved",
        ),
        (
            percent(summary.share(summary.solved_without_guess())),
            "solved without guessing",
        ),
        (value(recursions.percentile(50)), "median recursions"),
        (value(recursions.percentile(99)), "p99 recursions"),
        (
            value(summary.counter(Counter::MaxDepth).max()),
            "deepest search",
        ),
    ];
    page.push_str("<div class=\"figures\">\n");
    for (number, label) in figures {
        let _ = writeln!(
            page,
            "<div class=\"figure\"><b>{number}</b><span>{label}</span></div>"
        );
    }
    page.push_str("</div>\n");
}

pub(super) fn status_table(page: &mut String, summary: &Summary) {
    page.push_str("<table>\n<tr><th>status</th><th>count</th><th>share</th></tr>\n");
    for status in SolveStatus::ALL {
        let count = summary.status().get(*status);
        let _ = writeln!(
            page,
            "<tr><td>{}</td><td>{count}</td><td>{}</td></tr>",
            status.name(),
            percent(summary.share(count))
        );
    }
    let without = summary.solved_without_guess();
    let _ = writeln!(
        page,
        "<tr><td>solved without guessing</td><td>{without}</td><td>{}</td></tr>\n</table>",
        percent(summary.share(without))
    );
}

pub(super) fn counter_table(page: &mut String, summary: &Summary) {
    page.push_str("<table>\n<tr><th>counter</th><th>count</th><th>min</th><th>mean</th>");
    for (_, name) in PERCENTILES {
        let _ = write!(page, "<th>{name}</th>");
    }
    page.push_str("<th>max</th></tr>\n");
    for counter in Counter::ALL {
        let d = summary.counter(counter);
        let _ = write!(
            page,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            counter.name(),
            d.count(),
            value(d.min()),
            mean(d.mean())
        );
        for (p, _) in PERCENTILES {
            let _ = write!(page, "<td>{}</td>", value(d.percentile(p)));
        }
        let _ = writeln!(page, "<td>{}</td></tr>", value(d.max()));
    }
    page.push_str("</table>\n");
}

/// The table of the hardest records: where each is, its counters, its puzzle and the `show`
/// command that explains it (with the run's search options when the report knows them).
pub(super) fn hardest_table(page: &mut String, summary: &Summary, about: &About) {
    let records = summary.hardest().records();
    let _ = writeln!(
        page,
        "<section>\n<h2>The hardest puzzles</h2>\n<p class=\"muted\">The {} records that needed \
         the most recursions (then guesses), from the hardest; <em>line</em> is the record's \
         line in the input it was solved from{}. Run the command under a puzzle to see it \
         solved, with <code>--trace</code> for every step.</p>",
        records.len(),
        about.single_input().map_or(String::new(), |name| format!(
            " (<code>{}</code>)",
            escape(name)
        ))
    );
    if records.is_empty() {
        page.push_str(
            "<p>No record is listed: the results name no puzzle and line, or none was \
             searched.</p>\n</section>\n",
        );
        return;
    }
    let files = records.iter().any(|r| r.file.is_some());
    page.push_str("<table class=\"full hardest\">\n<thead><tr><th>#</th>");
    if files {
        page.push_str("<th class=\"name\">input</th>");
    }
    page.push_str(
        "<th>line</th><th>status</th><th>recursions</th><th>guesses</th><th>backtracks</th>\
         <th>max depth</th><th>givens</th></tr></thead>\n<tbody>\n",
    );
    let search = about.search_options();
    let columns = if files { 8 } else { 7 };
    for (rank, record) in records.iter().enumerate() {
        let _ = write!(page, "<tr><td>{}</td>", rank + 1);
        if files {
            let _ = write!(
                page,
                "<td class=\"name\">{}</td>",
                breakable(record.file.as_deref().unwrap_or("-"))
            );
        }
        let c = &record.counters;
        let _ = writeln!(
            page,
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            record.line,
            record.status.name(),
            c.recursions,
            c.guesses,
            c.backtracks,
            c.max_depth,
            c.givens,
        );
        let _ = writeln!(
            page,
            "<tr class=\"puzzle\"><td></td><td colspan=\"{columns}\"><code>{}</code>\
             <code class=\"command\">{}</code></td></tr>",
            escape(&record.puzzle),
            escape(&show_command(record, search.as_ref()))
        );
    }
    page.push_str("</tbody>\n</table>\n</section>\n");
}

/// The search options of the run the report describes, when it knows them: what `show` needs
/// to repeat a record's search.
pub(super) struct SearchOptions {
    pub algorithm: String,
    pub max_solutions: u64,
    pub max_recursions: u64,
    pub seed: u64,
}

/// The command that shows `record` solved step by step: `sudoku-bulk show PUZZLE`, with the
/// record's regions and the run's search options when known.
pub(super) fn show_command(record: &HardRecord, search: Option<&SearchOptions>) -> String {
    let mut command = format!("sudoku-bulk show {}", shell_word(&record.puzzle));
    if let Some(regions) = &record.regions {
        let _ = write!(command, " --regions {}", shell_word(regions));
    }
    if let Some(search) = search {
        let _ = write!(
            command,
            " --algorithm {} --max-solutions {}",
            search.algorithm, search.max_solutions
        );
        if search.seed != 0 {
            let _ = write!(command, " --seed {}", search.seed);
        }
        if record.status == SolveStatus::GaveUp {
            let _ = write!(command, " --max-recursions {}", search.max_recursions);
        }
    }
    command
}

/// `word` as a POSIX shell reads it back: as it is when it holds only safe characters, else in
/// single quotes.
pub(super) fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `&`, `<`, `>`, `"` and `'` escaped for HTML text and attributes.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// `text` escaped, with a chance to break the line after each `/`, `_` and `.` (a file name
/// wraps at its parts before it wraps anywhere).
pub(super) fn breakable(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        out.push_str(&escape(c.encode_utf8(&mut [0; 4])));
        if matches!(c, '/' | '_' | '.') {
            out.push_str("<wbr>");
        }
    }
    out
}

/// A group value as shown: `(empty)` for the empty string, otherwise whole.
pub(super) fn group_label(key: &str) -> String {
    if key.is_empty() {
        "(empty)".to_string()
    } else {
        key.to_string()
    }
}

/// A bucket's label: `7` or `8–15`.
pub(super) fn bucket_label(bucket: &Bucket) -> String {
    if bucket.from == bucket.to {
        bucket.from.to_string()
    } else {
        format!("{}–{}", bucket.from, bucket.to)
    }
}
