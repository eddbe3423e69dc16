//! The summary as plain-text tables for a terminal: the default output of `stats`.
//!
//! ```text
//! records: 4000
//!
//! status                   count    share
//! solved                    3998   99.95%
//! ...
//! solved without guessing   1234   30.85%
//!
//! counter         count  min   mean  p50  p90  p99   max
//! recursions       3998    1  25.13   12   54  210  1890
//! ...
//! ```
//!
//! Then the five hardest records (where each is, its counters and its puzzle). A grouped
//! summary is one compact table ([`compact`]): a row per group and one for them all, their
//! sizes, status shares and recursion percentiles side by side (saying how the groups were
//! made when they are bins); [`render`] with `detail` gives the tables above for the whole and
//! for every group, and [`csv`] the compact table as CSV.

use std::fmt::Write as _;
use std::io;

use super::{PERCENTILES, mean, percent, value};
use crate::row::{SolveStatus, Status};
use crate::stats::{Counter, Summary};

/// The summary as text, ending with a newline: for a grouped summary the compact table of the
/// groups unless `detail` asks for every table of the whole and of each group.
pub fn render(summary: &Summary, detail: bool) -> String {
    if summary.by().is_some() && !detail {
        return compact(summary);
    }
    let mut out = String::new();
    whole(&mut out, summary);
    hardest(&mut out, summary);
    super::se::hardest(&mut out, summary);
    if let Some(forms) = summary.canonical() {
        let _ = writeln!(
            out,
            "\ndistinct canonical forms: {} among {} puzzles with a form",
            forms.distinct(),
            forms.puzzles()
        );
    }
    if let Some(column) = summary.by() {
        let groups = summary.groups_in_order();
        let bins = summary
            .bins()
            .map_or(String::new(), |b| format!(" ({})", b.describe()));
        let _ = writeln!(
            out,
            "\nby {column}: {} group{}{bins}\n",
            groups.len(),
            if groups.len() == 1 { "" } else { "s" }
        );
        out.push_str(&groups_table(summary).render());
        for (key, group) in groups {
            let _ = writeln!(out, "\n== {column} = {} ==", shown(key));
            whole(&mut out, group);
        }
    }
    out
}

/// Writes [`render`] (with `detail`) to `out`.
pub fn write(out: &mut impl io::Write, summary: &Summary, detail: bool) -> io::Result<()> {
    out.write_all(render(summary, detail).as_bytes())
}

/// A grouped summary in one table: the groups as rows and a last row `(all)` for them all,
/// then where the rest is.
fn compact(summary: &Summary) -> String {
    let groups = summary.groups().len();
    let bins = summary
        .bins()
        .map_or(String::new(), |b| format!(" ({})", b.describe()));
    let mut out = format!(
        "records: {}, by {}: {groups} group{}{bins}\n\n",
        summary.records(),
        summary.by().unwrap_or("group"),
        if groups == 1 { "" } else { "s" }
    );
    out.push_str(&groups_table(summary).render());
    out.push_str(
        "\nevery table for the whole and each group: --detail; this table as CSV: --csv\n",
    );
    out
}

/// The table of the groups side by side (a single row `(all)` for a summary without groups)
/// as CSV: the same columns, shares as percentages (`_pct` columns), `-` as an empty field.
pub fn csv(summary: &Summary) -> String {
    groups_table(summary).csv()
}

/// The groups side by side, then `(all)`: rating figures for the rows of `rate`, search
/// figures otherwise.
fn groups_table(summary: &Summary) -> Table {
    match (summary.rating(), summary.se_rating()) {
        _ if !summary.rate_rows_only() => comparison(summary),
        (Some(_), _) => super::rating::comparison(summary),
        _ => super::se::comparison(summary),
    }
}

/// The name of the row of a whole summary in a table of its groups.
pub(super) const ALL: &str = "(all)";

/// The groups of `summary` with their names as shown, then the whole as [`ALL`].
pub(super) fn rows_of(summary: &Summary) -> Vec<(String, &Summary)> {
    summary
        .groups_in_order()
        .into_iter()
        .map(|(key, group)| (shown(key), group))
        .chain(std::iter::once((ALL.to_string(), summary)))
        .collect()
}

/// The tables of one summary, groups aside.
fn whole(out: &mut String, summary: &Summary) {
    let _ = writeln!(out, "records: {}\n", summary.records());
    // Rate rows have tables of their own; solve tables only when there are solve rows too.
    if let Some(rating) = summary.rating() {
        super::rating::tables(out, rating);
    }
    if let Some(se) = summary.se_rating() {
        super::se::tables(out, se);
    }
    if summary.rate_rows_only() {
        return;
    }
    if summary.rating().is_some() || summary.se_rating().is_some() {
        out.push('\n');
    }

    let mut status = Table::new(&["status", "count", "share"]);
    for s in SolveStatus::ALL {
        let count = summary.status().get(*s);
        status.row(vec![
            s.name().to_string(),
            count.to_string(),
            percent(summary.share(count)),
        ]);
    }
    let without = summary.solved_without_guess();
    status.row(vec![
        "solved without guessing".to_string(),
        without.to_string(),
        percent(summary.share(without)),
    ]);
    out.push_str(&status.render());
    out.push('\n');

    let mut header = vec!["counter", "count", "min", "mean"];
    header.extend(PERCENTILES.iter().map(|(_, name)| *name));
    header.push("max");
    let mut counters = Table::new(&header);
    for counter in Counter::ALL {
        let d = summary.counter(counter);
        let mut row = vec![
            counter.name().to_string(),
            d.count().to_string(),
            value(d.min()),
            mean(d.mean()),
        ];
        row.extend(PERCENTILES.iter().map(|&(p, _)| value(d.percentile(p))));
        row.push(value(d.max()));
        counters.row(row);
    }
    out.push_str(&counters.render());
}

/// How many of the hardest records the text lists.
pub(super) const HARDEST_SHOWN: usize = 5;

/// The hardest records: where each is, its status, recursions and guesses, and its puzzle.
fn hardest(out: &mut String, summary: &Summary) {
    let records = summary.hardest().records();
    if records.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nhardest {} (of {} in --json and --html)\n",
        records.len().min(HARDEST_SHOWN),
        records.len()
    );
    let mut table = Table::new(&["record", "status", "recursions", "guesses", "puzzle"]);
    table.left = vec![true, true, false, false, true];
    for record in records.iter().take(HARDEST_SHOWN) {
        let place = match &record.file {
            Some(file) => format!("{}:{}", shown(file), record.line),
            None => format!("line {}", record.line),
        };
        table.row(vec![
            place,
            record.status.name().to_string(),
            record.counters.recursions.to_string(),
            record.counters.guesses.to_string(),
            shown(&record.puzzle),
        ]);
    }
    out.push_str(&table.render());
}

/// One line per group, and one for them all: its size and the headline numbers side by side:
/// the share of each status that some record has (`solved` always), of those solved without a
/// guess, and the recursion percentiles.
fn comparison(summary: &Summary) -> Table {
    let statuses: Vec<SolveStatus> = SolveStatus::ALL
        .iter()
        .copied()
        .filter(|&s| s == SolveStatus::Solved || summary.status().get(s) > 0)
        .collect();
    let mut header = vec![summary.by().unwrap_or("group"), "records", "share"];
    header.extend(statuses.iter().map(|s| s.name()));
    header.extend(["no guess", "recursions mean", "p50", "p90", "p99", "max"]);
    let mut table = Table::new(&header).naming_in_csv(&[
        ("p50", "recursions_p50"),
        ("p90", "recursions_p90"),
        ("p99", "recursions_p99"),
        ("max", "recursions_max"),
    ]);
    for (name, group) in rows_of(summary) {
        let r = group.counter(Counter::Recursions);
        let mut row = vec![
            name,
            group.records().to_string(),
            percent(summary.share(group.records())),
        ];
        row.extend(
            statuses
                .iter()
                .map(|&s| percent(group.share(group.status().get(s)))),
        );
        row.extend([
            percent(group.share(group.solved_without_guess())),
            mean(r.mean()),
        ]);
        row.extend(PERCENTILES.iter().map(|&(p, _)| value(r.percentile(p))));
        row.push(value(r.max()));
        table.row(row);
    }
    table
}

/// A group value as printed: control characters escaped, `(empty)` for the empty string.
pub(super) fn shown(key: &str) -> String {
    if key.is_empty() {
        "(empty)".to_string()
    } else {
        key.chars().flat_map(char::escape_default).collect()
    }
}

/// Columns padded to their widest cell: the first left-aligned, the others right-aligned
/// unless `left` says otherwise.
pub(super) struct Table {
    rows: Vec<Vec<String>>,
    /// Which columns are left-aligned.
    pub(super) left: Vec<bool>,
    /// Header names written otherwise in CSV (`p50` as `recursions_p50`).
    csv_names: Vec<(&'static str, &'static str)>,
}

impl Table {
    pub(super) fn new(header: &[&str]) -> Self {
        Table {
            rows: vec![header.iter().map(|h| h.to_string()).collect()],
            left: (0..header.len()).map(|c| c == 0).collect(),
            csv_names: Vec::new(),
        }
    }

    /// Writes the columns named `name` as `csv_name` in CSV: a text table's `p50` beside
    /// `recursions mean` needs no more, a CSV column needs the counter's name.
    pub(super) fn naming_in_csv(mut self, names: &[(&'static str, &'static str)]) -> Self {
        self.csv_names.extend_from_slice(names);
        self
    }

    pub(super) fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// The table as CSV: names with blanks as `_`, a column of percentages as numbers with
    /// `_pct` added to its name, `-` (nothing to show) as an empty field.
    pub(super) fn csv(&self) -> String {
        let columns = self.rows[0].len();
        let data = &self.rows[1..];
        let percent: Vec<bool> = (0..columns)
            .map(|c| {
                data.iter().any(|r| r[c].ends_with('%'))
                    && data.iter().all(|r| r[c].ends_with('%') || r[c] == "-")
            })
            .collect();
        let field = |text: &str| {
            if text.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", text.replace('"', "\"\""))
            } else {
                text.to_string()
            }
        };
        let mut out = String::new();
        let header: Vec<String> = self.rows[0]
            .iter()
            .zip(&percent)
            .map(|(name, &pct)| {
                let name = match self.csv_names.iter().find(|(n, _)| n == name) {
                    Some((_, csv_name)) => csv_name.to_string(),
                    None => name.replace(' ', "_"),
                };
                field(&if pct { format!("{name}_pct") } else { name })
            })
            .collect();
        out.push_str(&header.join(","));
        out.push('\n');
        for row in data {
            let cells: Vec<String> = row
                .iter()
                .map(|cell| match cell.as_str() {
                    "-" => String::new(),
                    cell => field(cell.strip_suffix('%').unwrap_or(cell)),
                })
                .collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }

    pub(super) fn render(&self) -> String {
        let columns = self.rows[0].len();
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                self.rows
                    .iter()
                    .map(|r| r[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for row in &self.rows {
            let mut line = String::new();
            for (c, cell) in row.iter().enumerate() {
                let width = widths[c];
                let gap = if c == 0 { "" } else { "  " };
                if self.left[c] {
                    let _ = write!(line, "{gap}{cell:<width$}");
                } else {
                    let _ = write!(line, "{gap}{cell:>width$}");
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SearchStats;
    use crate::stats::Row;

    fn row(recursions: u64, guesses: u64) -> Row<'static> {
        Row {
            status: SolveStatus::Solved,
            counters: Some(SearchStats {
                recursions,
                max_depth: 2,
                guesses,
                backtracks: 0,
                naked_singles: 40,
                hidden_singles: 24,
                givens: 17,
            }),
            group: None,
            record: None,
        }
    }

    #[test]
    fn tables_line_up_and_show_every_status() {
        let mut s = Summary::new();
        s.add(&row(1, 0));
        s.add(&row(1000, 12));
        s.add(&Row::invalid());
        let text = render(&s, true);
        let expected = "\
records: 3

status                   count   share
solved                       2  66.67%
multiple                     0   0.00%
unsolvable                   0   0.00%
invalid                      1  33.33%
gave_up                      0   0.00%
stuck                        0   0.00%
solved without guessing      1  33.33%

counter         count  min    mean  p50   p90   p99   max
recursions          2    1  500.50    1  1000  1000  1000
max_depth           2    2    2.00    2     2     2     2
guesses             2    0    6.00    0    12    12    12
backtracks          2    0    0.00    0     0     0     0
naked_singles       2   40   40.00   40    40    40    40
hidden_singles      2   24   24.00   24    24    24    24
givens              2   17   17.00   17    17    17    17
";
        assert_eq!(text, expected);
    }

    #[test]
    fn groups_get_a_comparison_and_their_own_tables() {
        let mut s = Summary::grouped_by("source");
        s.add(&row(1, 0).with_group("easy"));
        s.add(&row(64, 9).with_group("hard\u{1b}"));
        let text = render(&s, true);
        assert!(text.contains("\nby source: 2 groups\n"), "{text}");
        assert!(
            text.contains("\n== source = easy ==\nrecords: 1\n"),
            "{text}"
        );
        assert!(text.contains("\n== source = hard\\u{1b} ==\n"), "{text}");
        let comparison = text
            .lines()
            .find(|l| l.starts_with("easy "))
            .expect("a comparison line for easy");
        assert_eq!(
            comparison.split_whitespace().collect::<Vec<_>>(),
            [
                "easy", "1", "50.00%", "100.00%", "100.00%", "1.00", "1", "1", "1", "1"
            ]
        );
    }

    #[test]
    fn groups_are_one_compact_table_with_a_row_for_all_and_as_csv() {
        let mut s = Summary::grouped_by("givens");
        s.add(&row(1, 0).with_group("17"));
        s.add(&row(64, 9).with_group("17"));
        s.add(&row(3, 1).with_group("30, or more"));
        s.add(&Row::invalid().with_group("30, or more"));
        let text = render(&s, false);
        let expected = "\
records: 4, by givens: 2 groups

givens       records    share   solved  invalid  no guess  recursions mean  p50  p90  p99  max
17                 2   50.00%  100.00%    0.00%    50.00%            32.50    1   64   64   64
30, or more        2   50.00%   50.00%   50.00%     0.00%             3.00    3    3    3    3
(all)              4  100.00%   75.00%   25.00%    25.00%            22.67    3   64   64   64

every table for the whole and each group: --detail; this table as CSV: --csv
";
        assert_eq!(text, expected);
        assert_eq!(
            csv(&s),
            "givens,records,share_pct,solved_pct,invalid_pct,no_guess_pct,recursions_mean,recursions_p50,recursions_p90,recursions_p99,recursions_max\n\
             17,2,50.00,100.00,0.00,50.00,32.50,1,64,64,64\n\
             \"30, or more\",2,50.00,50.00,50.00,0.00,3.00,3,3,3,3\n\
             (all),4,100.00,75.00,25.00,25.00,22.67,3,64,64,64\n"
        );
        assert!(render(&s, true).contains("\n== givens = 17 ==\nrecords: 2\n"));
    }

    #[test]
    fn the_hardest_records_are_listed_with_where_they_are() {
        let mut s = Summary::new();
        for (line, recursions) in [(3, 40), (9, 700), (4, 2)] {
            let puzzle = format!("{line:.>81}");
            s.add(
                &row(recursions, recursions - 1).about(crate::stats::RecordRef {
                    file: (line == 9).then_some("b\u{1b}.txt"),
                    line,
                    puzzle: &puzzle,
                    regions: None,
                }),
            );
        }
        let text = render(&s, true);
        let table: Vec<&str> = text
            .split("hardest 3 (of 3 in --json and --html)\n\n")
            .nth(1)
            .expect("a list of the hardest")
            .lines()
            .take(4)
            .collect();
        // The record column is as wide as its widest cell, `b\u{1b}.txt:9` (13 characters).
        assert_eq!(
            table[0],
            "record         status  recursions  guesses  puzzle"
        );
        let puzzle = |line: u64| format!("{line:.>81}");
        assert_eq!(
            table[1],
            format!(
                "b\\u{{1b}}.txt:9  solved         700      699  {}",
                puzzle(9)
            )
        );
        assert_eq!(
            table[2],
            format!("line 3         solved          40       39  {}", puzzle(3))
        );
        assert!(table[3].starts_with("line 4 "));
    }

    #[test]
    fn an_empty_summary_prints_dashes() {
        let text = render(&Summary::new(), false);
        assert!(
            text.contains("solved                       0      -\n"),
            "{text}"
        );
        assert!(
            text.contains("recursions          0    -     -    -    -    -    -\n"),
            "{text}"
        );
    }
}
