//! The summary as one self-contained HTML page with charts: the output of `stats --html FILE`.
//!
//! The page needs nothing but a browser: styles are inline, and every chart is an SVG drawn
//! by plotters' SVG backend and embedded in the page (no script, font, image or network
//! request). It shows the key figures, the status shares, a table of every counter and
//! histograms of `recursions`, `max_depth`, `guesses` and `givens`; a grouped summary adds a
//! table of the groups, their status shares, their recursion percentiles and their recursion
//! distributions side by side.

use std::error::Error;
use std::fmt::Write as _;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{PERCENTILES, mean, percent, value};
use crate::row::{SolveStatus, Status};
use crate::stats::{Bucket, Buckets, Counter, Summary};

/// A chart that plotters could not draw.
#[derive(Debug, thiserror::Error)]
#[error("drawing the chart '{chart}': {message}")]
pub struct ChartError {
    /// The chart's caption.
    pub chart: String,
    /// What plotters reported.
    pub message: String,
}

/// The page for `summary`; `title` heads it (for example the names of the inputs).
pub fn render(summary: &Summary, title: &str) -> Result<String, ChartError> {
    let mut page = String::with_capacity(256 * 1024);
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n\
         <header><h1>Solver statistics</h1><p class=\"inputs\">{title}</p></header>\n",
        title = escape(title),
    );
    key_figures(&mut page, summary);

    page.push_str("<section>\n<h2>Status</h2>\n<div class=\"pair\">\n");
    page.push_str(&status_chart(summary)?);
    status_table(&mut page, summary);
    page.push_str("</div>\n</section>\n");

    page.push_str("<section>\n<h2>Search counters</h2>\n");
    counter_table(&mut page, summary);
    page.push_str("<div class=\"charts\">\n");
    for (counter, colour) in [
        (Counter::Recursions, BLUE_700),
        (Counter::MaxDepth, TEAL_700),
        (Counter::Guesses, INDIGO_400),
        (Counter::Givens, BROWN_400),
    ] {
        page.push_str(&histogram_chart(summary, counter, colour)?);
    }
    page.push_str("</div>\n</section>\n");

    if let Some(column) = summary.by() {
        let _ = writeln!(
            page,
            "<section>\n<h2>By <code>{}</code>: {} groups</h2>",
            escape(column),
            summary.groups().len()
        );
        group_table(&mut page, summary);
        page.push_str(&group_status_chart(summary)?);
        page.push_str(&group_percentile_chart(summary)?);
        page.push_str(&group_distribution_chart(summary)?);
        page.push_str("</section>\n");
    }

    let _ = write!(
        page,
        "<footer><p>Made by sudoku-bulk {version}. Quantiles are exact, by the nearest-rank \
         rule: the p-th percentile is the smallest value v such that at least ceil(p&middot;n/100) \
         of the n values are &le; v. Counters describe the records that were searched (all but \
         <em>invalid</em>). Histograms of recursions and guesses use power-of-two buckets \
         ([0], [1], [2,3], [4,7], &hellip;), those of depth and givens one bucket per \
         value.</p></footer>\n</main>\n</body>\n</html>\n",
        version = env!("CARGO_PKG_VERSION"),
    );
    Ok(page)
}

const STYLE: &str = "
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

/// The colour of each status in every chart.
fn status_colour(status: SolveStatus) -> RGBColor {
    match status {
        SolveStatus::Solved => RGBColor(0x2e, 0x7d, 0x32),
        SolveStatus::Multiple => RGBColor(0x19, 0x76, 0xd2),
        SolveStatus::Unsolvable => RGBColor(0xef, 0x6c, 0x00),
        SolveStatus::Invalid => RGBColor(0xc6, 0x28, 0x28),
        SolveStatus::GaveUp => RGBColor(0x6a, 0x1b, 0x9a),
        SolveStatus::Stuck => RGBColor(0x75, 0x75, 0x75),
    }
}

/// Solved without a guess: a lighter green than solved.
const NO_GUESS: RGBColor = RGBColor(0x9c, 0xd6, 0x9f);
const BLUE_700: RGBColor = RGBColor(0x1f, 0x5f, 0xa8);
const TEAL_700: RGBColor = RGBColor(0x00, 0x79, 0x6b);
const INDIGO_400: RGBColor = RGBColor(0x5c, 0x6b, 0xc0);
const BROWN_400: RGBColor = RGBColor(0x8d, 0x6e, 0x63);
const INK: RGBColor = RGBColor(0x1d, 0x23, 0x30);

/// Colours of the groups, in order (Tableau 10).
const GROUP_COLOURS: [RGBColor; 10] = [
    RGBColor(0x4e, 0x79, 0xa7),
    RGBColor(0xf2, 0x8e, 0x2b),
    RGBColor(0xe1, 0x57, 0x59),
    RGBColor(0x76, 0xb7, 0xb2),
    RGBColor(0x59, 0xa1, 0x4f),
    RGBColor(0xed, 0xc9, 0x48),
    RGBColor(0xb0, 0x7a, 0xa1),
    RGBColor(0xff, 0x9d, 0xa7),
    RGBColor(0x9c, 0x75, 0x5f),
    RGBColor(0xba, 0xb0, 0xac),
];

/// Groups drawn as separate lines; more would be unreadable.
const MAX_LINES: usize = GROUP_COLOURS.len();

const FONT: &str = "sans-serif";

fn key_figures(page: &mut String, summary: &Summary) {
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

fn status_table(page: &mut String, summary: &Summary) {
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

fn counter_table(page: &mut String, summary: &Summary) {
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

fn group_table(page: &mut String, summary: &Summary) {
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
fn escape(text: &str) -> String {
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
fn group_label(key: &str) -> String {
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
fn bucket_label(bucket: &Bucket) -> String {
    if bucket.from == bucket.to {
        bucket.from.to_string()
    } else {
        format!("{}–{}", bucket.from, bucket.to)
    }
}

/// Width of the legend column at the right of the group charts.
const LEGEND_WIDTH: u32 = 200;

/// How a legend entry is marked.
#[derive(Debug, Clone, Copy)]
enum Swatch {
    /// A filled square, for bars.
    Block,
    /// A short thick line, for lines.
    Line,
}

/// Draws `caption` over `root` and a legend of `entries` in a column at its right, where it
/// cannot hide data; returns the area left for the plot.
fn titled_with_legend<'a>(
    root: &Area<'a>,
    caption: &str,
    entries: &[(String, RGBColor)],
    swatch: Swatch,
) -> Result<Area<'a>, Box<dyn Error>> {
    let body = root.titled(caption, caption_style())?;
    let width = body.dim_in_pixel().0;
    let (plot, legend) = body.split_horizontally(width.saturating_sub(LEGEND_WIDTH));
    for (i, (name, colour)) in entries.iter().enumerate() {
        let y = 24 + 22 * i as i32;
        match swatch {
            Swatch::Block => {
                legend.draw(&Rectangle::new([(8, y - 6), (20, y + 6)], colour.filled()))?
            }
            Swatch::Line => {
                legend.draw(&PathElement::new([(4, y), (24, y)], colour.stroke_width(3)))?
            }
        }
        legend.draw(&Text::new(
            name.clone(),
            (30, y),
            small(12).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(plot)
}

type Drawn = Result<(), Box<dyn Error>>;
type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Runs `draw` on a white SVG canvas of `size` and returns the SVG text.
fn svg(
    caption: &str,
    size: (u32, u32),
    draw: impl FnOnce(&Area<'_>) -> Drawn,
) -> Result<String, ChartError> {
    let failed = |e: Box<dyn Error>| ChartError {
        chart: caption.to_string(),
        message: e.to_string(),
    };
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(e.into()))?;
        draw(&root).map_err(failed)?;
        root.present().map_err(|e| failed(e.into()))?;
    }
    out.push('\n');
    Ok(out)
}

/// A category axis: categories `0..n` occupy `i..i + 1` of the value range `0.0..n`, and the
/// tick marks (and labels) sit at the centres of at most `max` of them.
struct Categories {
    n: f64,
    ticks: Vec<f64>,
}

impl Categories {
    fn new(n: usize, max: usize) -> Self {
        Categories {
            n: n as f64,
            ticks: centres(n, max),
        }
    }
}

impl Ranged for Categories {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = f64::from(limit.1 - limit.0);
        (f64::from(limit.0) + value / self.n * span).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        0.0..self.n
    }
}

/// Centres of the categories `0..n` on an axis `0.0..n`, keeping at most `max` of them
/// (every k-th) so that labels do not overlap.
fn centres(n: usize, max: usize) -> Vec<f64> {
    let step = n.div_ceil(max.max(1)).max(1);
    (0..n).step_by(step).map(|i| i as f64 + 0.5).collect()
}

/// The label of the category whose centre is `x`.
fn label_at(labels: &[String], x: f64) -> String {
    if x < 0.0 {
        return String::new();
    }
    labels.get(x as usize).cloned().unwrap_or_default()
}

fn caption_style() -> TextStyle<'static> {
    TextStyle::from((FONT, 17).into_font()).color(&INK)
}

fn small(size: u32) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font()).color(&INK)
}

/// Bars of the status counts, one per status, as a share of the records.
fn status_chart(summary: &Summary) -> Result<String, ChartError> {
    let caption = "Records per status";
    let statuses = SolveStatus::ALL;
    let n = statuses.len();
    // The first status on top: category i is drawn at n - 1 - i.
    let labels: Vec<String> = statuses
        .iter()
        .rev()
        .map(|s| s.name().to_string())
        .collect();
    svg(caption, (680, 300), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(caption, caption_style())
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(96)
            .build_cartesian_2d(0f64..125f64, Categories::new(n, n))?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(INK.mix(0.12))
            .x_labels(6)
            .x_label_formatter(&|x| {
                if *x <= 100.0 {
                    format!("{x:.0}%")
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| label_at(&labels, *y))
            .label_style(small(13))
            .x_desc("share of records")
            .draw()?;
        for (i, &status) in statuses.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            let count = summary.status().get(status);
            let share = summary.share(count).unwrap_or(0.0) * 100.0;
            let mut bar = Rectangle::new(
                [(0.0, y + 0.18), (share, y + 0.82)],
                status_colour(status).filled(),
            );
            bar.set_margin(0, 0, 0, 0);
            chart.draw_series(std::iter::once(bar))?;
            chart.draw_series(std::iter::once(Text::new(
                format!("{count} · {}", percent(summary.share(count))),
                (share + 1.0, y + 0.5),
                small(12).pos(Pos::new(HPos::Left, VPos::Center)),
            )))?;
        }
        Ok(())
    })
}

/// The histogram of one counter over the whole summary.
fn histogram_chart(
    summary: &Summary,
    counter: Counter,
    colour: RGBColor,
) -> Result<String, ChartError> {
    let buckets = summary.counter(counter).histogram(counter.buckets());
    // Per-value buckets fall back to powers of two over a wide span: say what was drawn.
    let kind = if buckets.iter().all(|b| b.from == b.to) {
        "one bar per value"
    } else {
        "power-of-two buckets"
    };
    let caption = format!("{counter} ({kind})");
    let labels: Vec<String> = buckets.iter().map(bucket_label).collect();
    let n = buckets.len().max(1);
    let widest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    // About 7 px per character at 11 px, plus a gap, over the 460 px of plot.
    let fit = 460 / (widest * 7 + 8);
    let top = buckets.iter().map(|b| b.count).max().unwrap_or(0).max(1);
    svg(&caption, (540, 320), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(&caption, caption_style())
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(Categories::new(n, fit), 0u64..top + top / 6 + 1)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(INK.mix(0.12))
            .x_label_formatter(&|x| label_at(&labels, *x))
            .y_label_formatter(&|y| y.to_string())
            .label_style(small(11))
            .x_desc(counter.name())
            .y_desc("records")
            .draw()?;
        chart.draw_series(buckets.iter().enumerate().map(|(i, b)| {
            let x = i as f64;
            Rectangle::new([(x + 0.1, 0), (x + 0.9, b.count)], colour.filled())
        }))?;
        if buckets.len() <= 24 {
            chart.draw_series(buckets.iter().enumerate().filter(|(_, b)| b.count > 0).map(
                |(i, b)| {
                    Text::new(
                        b.count.to_string(),
                        (i as f64 + 0.5, b.count),
                        small(10).pos(Pos::new(HPos::Center, VPos::Bottom)),
                    )
                },
            ))?;
        }
        Ok(())
    })
}

/// The parts of a group's status bar: solved split by whether it guessed, then the other
/// statuses.
const STATUS_PARTS: usize = SolveStatus::ALL.len() + 1;

fn status_part(part: usize) -> (&'static str, RGBColor) {
    match part {
        0 => ("solved, no guess", NO_GUESS),
        1 => ("solved with guessing", status_colour(SolveStatus::Solved)),
        k => (
            SolveStatus::ALL[k - 1].name(),
            status_colour(SolveStatus::ALL[k - 1]),
        ),
    }
}

fn status_part_count(group: &Summary, part: usize) -> u64 {
    match part {
        0 => group.solved_without_guess(),
        1 => group.status().get(SolveStatus::Solved) - group.solved_without_guess(),
        k => group.status().get(SolveStatus::ALL[k - 1]),
    }
}

/// One bar per group, 100% wide, split by status (solved split by whether it guessed).
fn group_status_chart(summary: &Summary) -> Result<String, ChartError> {
    let caption = "Status shares per group";
    let groups = summary.groups_in_order();
    let n = groups.len().max(1);
    // The first group on top: group i is drawn at n - 1 - i.
    let labels: Vec<String> = groups.iter().rev().map(|(k, _)| group_label(k)).collect();
    let present: Vec<usize> = (0..STATUS_PARTS)
        .filter(|&part| groups.iter().any(|(_, g)| status_part_count(g, part) > 0))
        .collect();
    let legend: Vec<(String, RGBColor)> = present
        .iter()
        .map(|&part| {
            let (name, colour) = status_part(part);
            (name.to_string(), colour)
        })
        .collect();
    let height = 110 + 30 * n as u32;
    svg(caption, (1080, height.max(260)), |root| {
        let plot = titled_with_legend(root, caption, &legend, Swatch::Block)?;
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(150)
            .build_cartesian_2d(0f64..100f64, Categories::new(n, 40))?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(INK.mix(0.12))
            .x_labels(11)
            .x_label_formatter(&|x| format!("{x:.0}%"))
            .y_label_formatter(&|y| label_at(&labels, *y))
            .label_style(small(12))
            .x_desc("share of the group's records")
            .draw()?;
        for (i, (_, g)) in groups.iter().enumerate() {
            let records = g.records() as f64;
            let y = (n - 1 - i) as f64;
            let mut before = 0u64;
            for &part in &present {
                let count = status_part_count(g, part);
                let from = before as f64 / records * 100.0;
                before += count;
                let to = before as f64 / records * 100.0;
                if count > 0 {
                    chart.draw_series(std::iter::once(Rectangle::new(
                        [(from, y + 0.15), (to, y + 0.85)],
                        status_part(part).1.filled(),
                    )))?;
                }
            }
        }
        Ok(())
    })
}

/// Median, p90, p99 and maximum recursions per group: four bars per group, on a log scale.
fn group_percentile_chart(summary: &Summary) -> Result<String, ChartError> {
    let caption = "Recursions per group: p50, p90, p99 and max (log scale)";
    let groups = summary.groups_in_order();
    let n = groups.len().max(1);
    let labels: Vec<String> = groups.iter().map(|(k, _)| group_label(k)).collect();
    let top = summary
        .counter(Counter::Recursions)
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    // p100 is the maximum under the nearest-rank rule.
    let series = [
        ("p50", 50, GROUP_COLOURS[0]),
        ("p90", 90, GROUP_COLOURS[1]),
        ("p99", 99, GROUP_COLOURS[2]),
        ("max", 100, GROUP_COLOURS[8]),
    ];
    let bar = 0.8 / series.len() as f64;
    let widest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    let fit = 960 / (widest * 7 + 10);
    let legend: Vec<(String, RGBColor)> = series
        .iter()
        .map(|&(name, _, colour)| (name.to_string(), colour))
        .collect();
    svg(caption, (1080, 380), |root| {
        let plot = titled_with_legend(root, caption, &legend, Swatch::Block)?;
        // Bars rise from 0.5 so that a value of 1 still shows.
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(Categories::new(n, fit), (0.5f64..top * 3.0).log_scale())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(INK.mix(0.12))
            .x_label_formatter(&|x| label_at(&labels, *x))
            .y_label_formatter(&|y| {
                if *y >= 1.0 {
                    format!("{y:.0}")
                } else {
                    String::new()
                }
            })
            .label_style(small(12))
            .x_desc(summary.by().unwrap_or("group"))
            .y_desc("recursions")
            .draw()?;
        for (k, &(_, p, colour)) in series.iter().enumerate() {
            let bars: Vec<(f64, u64)> = groups
                .iter()
                .enumerate()
                .filter_map(|(i, (_, g))| {
                    let v = g.counter(Counter::Recursions).percentile(p)?;
                    Some((i as f64 + 0.1 + k as f64 * bar, v))
                })
                .collect();
            chart.draw_series(bars.iter().map(|&(x, v)| {
                Rectangle::new([(x, 0.5), (x + bar * 0.9, v as f64)], colour.filled())
            }))?;
            if n * series.len() <= 48 {
                chart.draw_series(bars.iter().map(|&(x, v)| {
                    Text::new(
                        v.to_string(),
                        (x + bar * 0.45, v as f64),
                        small(10).pos(Pos::new(HPos::Center, VPos::Bottom)),
                    )
                }))?;
            }
        }
        Ok(())
    })
}

/// One group's line in a chart.
struct Line {
    name: String,
    points: Vec<(f64, f64)>,
    colour: RGBColor,
}

/// Each group's recursions histogram as the share of its searched records per power-of-two
/// bucket, one line per group (the ten largest when there are more).
fn group_distribution_chart(summary: &Summary) -> Result<String, ChartError> {
    // Groups with searched records; beyond ten lines, the largest ten, in group order.
    let mut groups: Vec<(&str, &Summary)> = summary
        .groups_in_order()
        .into_iter()
        .filter(|(_, g)| !g.counter(Counter::Recursions).is_empty())
        .collect();
    let caption = if groups.len() > MAX_LINES {
        // The largest first, ties in group order (a stable sort); then back to group order.
        let mut kept: Vec<usize> = (0..groups.len()).collect();
        kept.sort_by_key(|&i| std::cmp::Reverse(groups[i].1.counter(Counter::Recursions).count()));
        kept.truncate(MAX_LINES);
        kept.sort_unstable();
        groups = kept.into_iter().map(|i| groups[i]).collect();
        format!("Recursions distribution per group (the {MAX_LINES} largest groups)")
    } else {
        "Recursions distribution per group".to_string()
    };
    let whole = summary
        .counter(Counter::Recursions)
        .histogram(Buckets::PowersOfTwo);
    let labels: Vec<String> = whole.iter().map(bucket_label).collect();
    let n = whole.len().max(1);
    let lines: Vec<Line> = groups
        .iter()
        .zip(GROUP_COLOURS)
        .map(|((key, g), colour)| {
            let d = g.counter(Counter::Recursions);
            let total = d.count().max(1) as f64;
            let mut counts = vec![0u64; whole.len()];
            for b in d.histogram(Buckets::PowersOfTwo) {
                if let Some(i) = whole.iter().position(|w| w.from == b.from) {
                    counts[i] += b.count;
                }
            }
            let points = counts
                .iter()
                .enumerate()
                .map(|(i, &c)| (i as f64 + 0.5, c as f64 / total * 100.0))
                .collect();
            Line {
                name: group_label(key),
                points,
                colour,
            }
        })
        .collect();
    let top = lines
        .iter()
        .flat_map(|line| line.points.iter().map(|p| p.1))
        .fold(1.0f64, f64::max);
    let widest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    let fit = 960 / (widest * 7 + 10);
    let legend: Vec<(String, RGBColor)> = lines
        .iter()
        .map(|line| (line.name.clone(), line.colour))
        .collect();
    svg(&caption, (1080, 380), |root| {
        let plot = titled_with_legend(root, &caption, &legend, Swatch::Line)?;
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(60)
            .build_cartesian_2d(Categories::new(n, fit), 0f64..(top * 1.1).min(100.0))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(INK.mix(0.12))
            .x_label_formatter(&|x| label_at(&labels, *x))
            .y_label_formatter(&|y| format!("{y:.0}%"))
            .label_style(small(12))
            .x_desc("recursions (power-of-two buckets)")
            .y_desc("share of the group's records")
            .draw()?;
        for line in &lines {
            let colour = line.colour;
            chart.draw_series(LineSeries::new(line.points.clone(), colour.stroke_width(2)))?;
            chart.draw_series(
                line.points
                    .iter()
                    .map(|&p| Circle::new(p, 3, colour.filled())),
            )?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SearchStats;
    use crate::stats::Row;

    fn sample(by: Option<&str>) -> Summary {
        let mut s = by.map_or_else(Summary::new, Summary::grouped_by);
        for i in 0..200u64 {
            let group = if i % 2 == 0 { "<easy>" } else { "hard & co" };
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
            });
        }
        s.add(&Row::invalid().with_group("<easy>"));
        s
    }

    fn svgs(page: &str) -> usize {
        page.matches("<svg").count()
    }

    #[test]
    fn the_page_is_self_contained() {
        let page = render(&sample(Some("source")), "a.csv & <b>.csv").unwrap();
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.trim_end().ends_with("</html>"));
        assert_eq!(svgs(&page), 8);
        // The SVG namespace is a name, not a request.
        let without_namespace = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
        for forbidden in ["<script", "<link", "<img", "src=", "url(", "http", "//"] {
            assert!(
                !without_namespace.contains(forbidden),
                "the page contains {forbidden}"
            );
        }
        // User text is escaped everywhere, in the page and inside the charts.
        assert!(page.contains("a.csv &amp; &lt;b&gt;.csv"));
        assert!(!page.contains("<easy>"));
        assert!(page.contains("&lt;easy&gt;"));
    }

    #[test]
    fn ungrouped_and_empty_summaries_render() {
        let page = render(&sample(None), "x").unwrap();
        assert_eq!(svgs(&page), 5);
        assert!(!page.contains("Status shares per group"));
        let empty = render(&Summary::new(), "nothing").unwrap();
        assert_eq!(svgs(&empty), 5);
        let empty_grouped = render(&Summary::grouped_by("givens"), "nothing").unwrap();
        assert_eq!(svgs(&empty_grouped), 8);
    }

    #[test]
    fn tables_show_the_numbers() {
        let s = sample(None);
        let page = render(&s, "x").unwrap();
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
    fn the_distribution_chart_keeps_the_ten_largest_groups() {
        let mut s = Summary::grouped_by("k");
        for g in 0..12u64 {
            // Groups 3 and 7 hold one record each; the others 5 + g.
            let size = if g == 3 || g == 7 { 1 } else { 5 + g };
            for r in 0..size {
                let key = format!("group{g}");
                s.add(&Row {
                    status: SolveStatus::Solved,
                    counters: Some(SearchStats {
                        recursions: 1 + r,
                        givens: 17,
                        ..SearchStats::default()
                    }),
                    group: Some(&key),
                });
            }
        }
        let page = render(&s, "x").unwrap();
        let last = page.rsplit("<svg").next().unwrap();
        assert!(last.contains("the 10 largest groups"));
        for g in 0..12 {
            let shown = last.contains(&format!(">group{g}\n<"))
                || last.contains(&format!(">\ngroup{g}\n<"));
            assert_eq!(shown, g != 3 && g != 7, "group{g}");
        }
    }

    #[test]
    fn category_centres_thin_out() {
        assert_eq!(centres(3, 10), [0.5, 1.5, 2.5]);
        assert_eq!(centres(5, 2), [0.5, 3.5]);
        assert_eq!(label_at(&["a".to_string(), "b".to_string()], 1.5), "b");
        assert_eq!(label_at(&["a".to_string()], 3.5), "");
    }
}
