//! The groups' part of the page: a table of every group shown, their status shares and their
//! recursion percentiles as bars in HTML (so that a group's name is shown whole, wrapping as
//! needed), and their recursion distributions as lines.
//!
//! A summary with more than [`GROUPS_SHOWN`] + 1 groups shows its [`GROUPS_SHOWN`] largest, in
//! group order, and the others merged into one line, `other (K groups)`: exact, since
//! summaries merge exactly.

use std::fmt::Write as _;

use super::charts::{GROUP_COLOURS, Line, NO_GUESS, distribution_chart, status_colour};
use super::page::{breakable, escape, group_label};
use crate::report::{PERCENTILES, mean, percent, value};
use crate::row::{SolveStatus, Status};
use crate::stats::{Counter, Summary};

/// Groups shown one by one; the others are merged into `other`.
pub const GROUPS_SHOWN: usize = 20;

/// A group as shown: its name and its summary.
pub(super) struct Shown<'a> {
    /// The name as shown.
    pub name: String,
    /// The group's summary.
    pub group: std::borrow::Cow<'a, Summary>,
}

/// The groups shown one by one, in group order, and the rest merged, if any.
pub(super) fn shown_groups(summary: &Summary) -> (Vec<Shown<'_>>, Option<Shown<'static>>) {
    let groups = summary.groups_in_order();
    let mut order: Vec<usize> = (0..groups.len()).collect();
    // The largest first, ties in group order (a stable sort).
    order.sort_by_key(|&i| std::cmp::Reverse(groups[i].1.records()));
    // An `other` of a single group would hide it for nothing: then every group is shown.
    let shown_count = if groups.len() <= GROUPS_SHOWN + 1 {
        groups.len()
    } else {
        GROUPS_SHOWN
    };
    let mut kept = vec![false; groups.len()];
    for &i in order.iter().take(shown_count) {
        kept[i] = true;
    }
    let mut shown = Vec::new();
    let mut rest = Summary::new();
    let mut merged = 0;
    for (i, (key, group)) in groups.into_iter().enumerate() {
        if kept[i] {
            shown.push(Shown {
                name: group_label(key),
                group: std::borrow::Cow::Borrowed(group),
            });
        } else {
            rest.merge(group).expect("groups are not grouped");
            merged += 1;
        }
    }
    let other = (merged > 0).then(|| Shown {
        name: format!("other ({merged} groups)"),
        group: std::borrow::Cow::Owned(rest),
    });
    (shown, other)
}

/// The section of the groups.
pub(super) fn section(page: &mut String, summary: &Summary) {
    let Some(column) = summary.by() else { return };
    let (shown, other) = shown_groups(summary);
    let count = summary.groups().len();
    let _ = writeln!(
        page,
        "<section>\n<h2>By <code>{}</code>: {count} group{}</h2>",
        escape(column),
        if count == 1 { "" } else { "s" }
    );
    if let Some(other) = &other {
        let _ = writeln!(
            page,
            "<p class=\"muted\">The {GROUPS_SHOWN} largest groups are shown one by one, in \
             order; the {} others together as <em>{}</em>.</p>",
            count - shown.len(),
            escape(&other.name)
        );
    }
    table(page, summary, &shown, other.as_ref());
    status_bars(page, &shown, other.as_ref());
    percentile_bars(page, summary, &shown, other.as_ref());
    distributions(page, summary, &shown, other.as_ref());
    page.push_str("</section>\n");
}

/// Every group shown with its size and headline numbers; `other` last, in the table's foot.
fn table(page: &mut String, summary: &Summary, shown: &[Shown<'_>], other: Option<&Shown<'_>>) {
    let _ = write!(
        page,
        "<table class=\"full sortable\">\n<thead><tr><th>{}</th><th>records</th><th>share</th>\
         <th>solved</th><th>no guess</th><th>recursions mean</th>",
        escape(summary.by().unwrap_or("group"))
    );
    for (_, name) in PERCENTILES {
        let _ = write!(page, "<th>{name}</th>");
    }
    page.push_str(
        "<th>max</th><th>depth mean</th><th>depth max</th><th>guesses mean</th></tr></thead>\n\
         <tbody>\n",
    );
    for group in shown {
        table_row(page, summary, group);
    }
    page.push_str("</tbody>\n");
    if let Some(other) = other {
        page.push_str("<tfoot>\n");
        table_row(page, summary, other);
        page.push_str("</tfoot>\n");
    }
    page.push_str("</table>\n");
}

fn table_row(page: &mut String, summary: &Summary, shown: &Shown<'_>) {
    let group = &*shown.group;
    let r = group.counter(Counter::Recursions);
    let depth = group.counter(Counter::MaxDepth);
    let _ = write!(
        page,
        "<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
        breakable(&shown.name),
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

/// The parts of a group's status bar: solved split by whether it guessed, then the other
/// statuses.
pub(super) const STATUS_PARTS: usize = SolveStatus::ALL.len() + 1;

pub(super) fn status_part(part: usize) -> (&'static str, &'static str) {
    match part {
        0 => ("solved, no guess", NO_GUESS),
        1 => ("solved with guessing", status_colour(SolveStatus::Solved)),
        k => (
            SolveStatus::ALL[k - 1].name(),
            status_colour(SolveStatus::ALL[k - 1]),
        ),
    }
}

pub(super) fn status_part_count(group: &Summary, part: usize) -> u64 {
    match part {
        0 => group.solved_without_guess(),
        1 => group.status().get(SolveStatus::Solved) - group.solved_without_guess(),
        k => group.status().get(SolveStatus::ALL[k - 1]),
    }
}

/// One bar per group, split by status (solved split by whether it guessed), as long as the
/// group is large beside the largest (at least a sliver), its records counted after it: a group
/// of 2 records does not look like one of 49,000.
fn status_bars(page: &mut String, shown: &[Shown<'_>], other: Option<&Shown<'_>>) {
    let all: Vec<&Shown<'_>> = shown.iter().chain(other).collect();
    let largest = all
        .iter()
        .map(|s| s.group.records())
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let present: Vec<usize> = (0..STATUS_PARTS)
        .filter(|&part| all.iter().any(|s| status_part_count(&s.group, part) > 0))
        .collect();
    page.push_str(
        "<h3>Status shares per group</h3>\n<p class=\"muted\">Each bar is as long as its group \
         is large beside the largest; its parts are the group's shares.</p>\n\
         <div class=\"legend\">",
    );
    for &part in &present {
        let (name, colour) = status_part(part);
        let _ = write!(
            page,
            "<span><i class=\"swatch\" style=\"background:{colour}\"></i>{name}</span>"
        );
    }
    page.push_str("</div>\n<table class=\"full\">\n");
    for s in all {
        let records = s.group.records().max(1) as f64;
        let _ = write!(
            page,
            "<tr><td class=\"name\">{}</td><td style=\"width:65%\"><div class=\"bar\" \
             style=\"width:{:.3}%\">",
            breakable(&s.name),
            (s.group.records() as f64 / largest * 100.0).max(0.5)
        );
        for &part in &present {
            let count = status_part_count(&s.group, part);
            if count > 0 {
                let (name, colour) = status_part(part);
                let _ = write!(
                    page,
                    "<i style=\"width:{:.3}%;background:{colour}\" title=\"{name}: {count} \
                     ({})\"></i>",
                    count as f64 / records * 100.0,
                    percent(s.group.share(count))
                );
            }
        }
        let _ = writeln!(
            page,
            "</div></td><td class=\"count\">{} record{}</td></tr>",
            s.group.records(),
            if s.group.records() == 1 { "" } else { "s" }
        );
    }
    page.push_str("</table>\n");
}

/// The recursion percentiles of each group as four bars on a log scale, with their values.
fn percentile_bars(
    page: &mut String,
    summary: &Summary,
    shown: &[Shown<'_>],
    other: Option<&Shown<'_>>,
) {
    // p100 is the maximum under the nearest-rank rule.
    let series = [
        ("p50", 50, GROUP_COLOURS[0]),
        ("p90", 90, GROUP_COLOURS[1]),
        ("p99", 99, GROUP_COLOURS[2]),
        ("max", 100, GROUP_COLOURS[8]),
    ];
    let top = summary
        .counter(Counter::Recursions)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    // Bars rise from 1/2, so that a value of 1 still shows: ln(2v) / ln(2 top).
    let width = |v: u64| (2.0 * v as f64).ln() / (2.0 * top).ln() * 80.0;
    page.push_str(
        "<h3>Recursions per group: p50, p90, p99 and max (log scale)</h3>\n<div class=\"legend\">",
    );
    for (name, _, colour) in series {
        let _ = write!(
            page,
            "<span><i class=\"swatch\" style=\"background:{colour}\"></i>{name}</span>"
        );
    }
    page.push_str("</div>\n<table class=\"full\">\n");
    for s in shown.iter().chain(other) {
        let d = s.group.counter(Counter::Recursions);
        let _ = write!(
            page,
            "<tr><td class=\"name\">{}</td><td class=\"levels\" style=\"width:65%\">",
            breakable(&s.name)
        );
        for (name, p, colour) in series {
            match d.percentile(p) {
                Some(v) => {
                    let _ = write!(
                        page,
                        "<div class=\"level\"><i style=\"width:{:.2}%;background:{colour}\"></i>\
                         {v}</div>",
                        width(v)
                    );
                }
                None => {
                    let _ = write!(page, "<div class=\"level muted\">{name}: -</div>");
                }
            }
        }
        page.push_str("</td></tr>\n");
    }
    page.push_str("</table>\n");
}

/// Lines drawn at most: more would be unreadable.
pub(super) const MAX_LINES: usize = GROUP_COLOURS.len();

/// The recursion distribution of each group shown (the ten largest when there are more) as
/// lines, with a legend of full names.
fn distributions(
    page: &mut String,
    summary: &Summary,
    shown: &[Shown<'_>],
    other: Option<&Shown<'_>>,
) {
    let mut candidates: Vec<&Shown<'_>> = shown
        .iter()
        .chain(other)
        .filter(|s| !s.group.counter(Counter::Recursions).is_empty())
        .collect();
    let caption = if candidates.len() > MAX_LINES {
        let mut order: Vec<usize> = (0..candidates.len()).collect();
        order.sort_by_key(|&i| {
            std::cmp::Reverse(candidates[i].group.counter(Counter::Recursions).count())
        });
        order.truncate(MAX_LINES);
        order.sort_unstable();
        candidates = order.into_iter().map(|i| candidates[i]).collect();
        format!("Recursions distribution per group (the {MAX_LINES} largest)")
    } else {
        "Recursions distribution per group".to_string()
    };
    let lines: Vec<Line<'_>> = candidates
        .iter()
        .zip(GROUP_COLOURS)
        .map(|(s, colour)| Line {
            name: s.name.clone(),
            group: &s.group,
            colour,
        })
        .collect();
    let _ = writeln!(page, "<h3>{caption}</h3>");
    page.push_str(&distribution_chart(summary, &lines).svg);
    page.push_str("<div class=\"legend\">");
    for line in &lines {
        let _ = write!(
            page,
            "<span><i class=\"swatch\" style=\"background:{}\"></i>{}</span>",
            line.colour,
            breakable(&line.name)
        );
    }
    page.push_str("</div>\n");
}
