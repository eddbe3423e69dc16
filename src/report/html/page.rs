//! The page's frame and its tables: the style sheet, the key figures, the status, counter and
//! group tables, and the escaping of text.

use std::fmt::Write as _;

use crate::report::{PERCENTILES, mean, percent, value};
use crate::row::{SolveStatus, Status};
use crate::stats::{Bucket, Counter, Summary};

pub(super) const STYLE: &str = "
body { margin: 0; background: #f4f5f7; color: #1d2330;
  font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
main { max-width: 1140px; margin: 0 auto; padding: 24px; }
header h1 { margin: 0; font-size: 26px; }
.inputs { margin: 4px 0 18px; color: #5b6475; word-break: break-all; }
section { background: #fff; border-radius: 8px; padding: 16px 20px; margin: 0 0 18px;
  box-shadow: 0 1px 3px rgba(0,0,0,.08); }
h2 { margin: 0 0 12px; font-size: 19px; }
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(160px, 1fr));
  gap: 12px; margin: 0 0 18px; }
.figure { background: #fff; border-radius: 8px; padding: 12px 16px;
  box-shadow: 0 1px 3px rgba(0,0,0,.08); }
.figure b { display: block; font-size: 24px; }
.figure span { color: #5b6475; font-size: 13px; }
.pair { display: grid; grid-template-columns: 1fr auto; gap: 20px; align-items: start; }
.charts { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; margin-top: 14px; }
svg { display: block; max-width: 100%; height: auto; margin: 8px 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; text-align: right; border-bottom: 1px solid #e3e6eb; }
th { background: #f0f2f5; font-weight: 600; }
th:first-child, td:first-child { text-align: left; }
.wide { overflow-x: auto; }
footer { color: #5b6475; font-size: 13px; }
@media (max-width: 900px) { .pair, .charts { grid-template-columns: 1fr; } }
";

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
    page.push_str(
        "<div class=\"wide\"><table>\n<tr><th>counter</th><th>count</th><th>min</th><th>mean</th>",
    );
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
    page.push_str("</table></div>\n");
}

pub(super) fn group_table(page: &mut String, summary: &Summary) {
    let _ = write!(
        page,
        "<div class=\"wide\"><table>\n<tr><th>{}</th><th>records</th><th>share</th>\
         <th>solved</th><th>no guess</th><th>recursions mean</th>",
        escape(summary.by().unwrap_or("group"))
    );
    for (_, name) in PERCENTILES {
        let _ = write!(page, "<th>{name}</th>");
    }
    page.push_str("<th>max</th><th>depth mean</th><th>depth max</th><th>guesses mean</th></tr>\n");
    for (key, group) in summary.groups_in_order() {
        let r = group.counter(Counter::Recursions);
        let depth = group.counter(Counter::MaxDepth);
        let _ = write!(
            page,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
            escape(&group_label(key)),
            group.records(),
            percent(summary.share(group.records())),
            percent(group.share(group.status().get(SolveStatus::Solved))),
            percent(group.share(group.solved_without_guess())),
            mean(r.mean()),
        );
        for (p, _) in PERCENTILES {
            let _ = write!(page, "<td>{}</td>", value(r.percentile(p)));
        }
        let _ = writeln!(
            page,
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            value(r.max()),
            mean(depth.mean()),
            value(depth.max()),
            mean(group.counter(Counter::Guesses).mean()),
        );
    }
    page.push_str("</table></div>\n");
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

/// A group value as shown: `(empty)` for the empty string, cut after 24 characters.
pub(super) fn group_label(key: &str) -> String {
    if key.is_empty() {
        return "(empty)".to_string();
    }
    let mut label: String = key.chars().take(24).collect();
    if key.chars().nth(24).is_some() {
        label.push('…');
    }
    label
}

/// A bucket's label: `7` or `8–15`.
pub(super) fn bucket_label(bucket: &Bucket) -> String {
    if bucket.from == bucket.to {
        bucket.from.to_string()
    } else {
        format!("{}–{}", bucket.from, bucket.to)
    }
}
