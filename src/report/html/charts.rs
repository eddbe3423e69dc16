//! The charts of the page, each an SVG drawn by [`super::svg`]: status shares, the histogram of
//! a counter, and the recursion distributions of the groups as lines. Every bucket of a
//! histogram has its label and its count, placed by [`super::svg::categories`] so that no two
//! overlap: the chart grows instead.

use super::page::bucket_label;
use super::svg::{self, Anchor, Svg, categories, label_layout, text_width, tick_label, ticks};
use crate::report::percent;
use crate::row::{SolveStatus, Status};
use crate::stats::{Bucket, Buckets, Counter, Summary};

/// A chart and the width it was drawn at.
pub(super) struct Chart {
    /// The SVG element.
    pub svg: String,
    /// Its width in pixels: the page gives a wide chart the whole width.
    pub width: f64,
}

/// The colour of each status.
pub(super) fn status_colour(status: SolveStatus) -> &'static str {
    match status {
        SolveStatus::Solved => "#2e7d32",
        SolveStatus::Multiple => "#1976d2",
        SolveStatus::Unsolvable => "#ef6c00",
        SolveStatus::Invalid => "#c62828",
        SolveStatus::GaveUp => "#6a1b9a",
        SolveStatus::Stuck => "#757575",
    }
}

/// Solved without a guess: a lighter green than solved.
pub(super) const NO_GUESS: &str = "#9cd69f";

/// Colours of the groups' lines, in order (Tableau 10).
pub(super) const GROUP_COLOURS: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];

const INK: &str = "#1d2330";
const GRID: &str = "#e3e6eb";

/// The width a half-page chart is drawn at.
pub(super) const HALF: f64 = 520.0;

/// The width a whole-page chart is drawn at.
pub(super) const WHOLE: f64 = 1060.0;

/// Bars of the status counts, one per status, as a share of the records.
pub(super) fn status_chart(summary: &Summary) -> Chart {
    let statuses = SolveStatus::ALL;
    let size = 13.0;
    let label_width = statuses
        .iter()
        .map(|s| text_width(s.name(), size))
        .fold(0.0, f64::max)
        + 10.0;
    let texts: Vec<String> = statuses
        .iter()
        .map(|&s| {
            let count = summary.status().get(s);
            format!("{count} · {}", percent(summary.share(count)))
        })
        .collect();
    let text_room = texts
        .iter()
        .map(|t| text_width(t, 12.0))
        .fold(0.0, f64::max)
        + 8.0;
    let bars = 300.0;
    let row = 30.0;
    let width = label_width + bars + text_room;
    let mut chart = Svg::new(width, row * statuses.len() as f64 + 8.0);
    for (i, (&status, text)) in statuses.iter().zip(&texts).enumerate() {
        let y = 4.0 + row * i as f64;
        let share = summary.share(summary.status().get(status)).unwrap_or(0.0);
        chart.text(
            (label_width - 8.0, y + row * 0.62),
            status.name(),
            size,
            Anchor::End,
            false,
        );
        chart.rect(label_width, y + 5.0, bars, row - 10.0, "#f0f2f5", None);
        chart.rect(
            label_width,
            y + 5.0,
            bars * share,
            row - 10.0,
            status_colour(status),
            Some(text),
        );
        chart.text(
            (label_width + bars * share + 6.0, y + row * 0.62),
            text,
            12.0,
            Anchor::Start,
            false,
        );
    }
    Chart {
        svg: chart.finish("Records per status"),
        width,
    }
}

/// The histogram of one counter over the whole summary: one bar per bucket, each labelled
/// with its range under the axis and its count above the bar.
pub(super) fn histogram_chart(summary: &Summary, counter: Counter, colour: &str) -> Chart {
    let buckets = summary.counter(counter).histogram(counter.buckets());
    let what = format!("{counter}: {}", bucket_kind(&buckets));
    let labels: Vec<String> = buckets.iter().map(bucket_label).collect();
    let counts: Vec<String> = buckets.iter().map(|b| b.count.to_string()).collect();
    bars(&labels, &counts, &buckets, colour, &what)
}

/// In words, how `buckets` divide the values.
pub(super) fn bucket_kind(buckets: &[Bucket]) -> &'static str {
    if buckets.iter().all(|b| b.from == b.to) {
        "one bar per value"
    } else {
        "power-of-two buckets"
    }
}

/// A bar chart of `buckets`, labelled `labels` below and `counts` above.
pub(super) fn bars(
    labels: &[String],
    counts: &[String],
    buckets: &[Bucket],
    colour: &str,
    what: &str,
) -> Chart {
    let (left, right) = (52.0, 12.0);
    let (pitch, layout) = categories(labels, HALF - left - right, 11.0);
    // The counts above the bars: across when they fit, else upright, at most 10 px.
    let count_layout = label_layout(counts, pitch, 10.0)
        .or_else(|| label_layout(counts, pitch, svg::MIN_LABEL_SIZE))
        .unwrap_or(layout);
    let headroom = if count_layout.upright {
        count_layout.depth
    } else {
        count_layout.size * svg::LINE_HEIGHT + 4.0
    };
    let plot_width = pitch * labels.len().max(1) as f64;
    let plot_height = 190.0;
    let top = 8.0 + headroom;
    let bottom = top + plot_height;
    let width = left + plot_width + right;
    let height = bottom + layout.depth + 22.0;
    let mut chart = Svg::new(width, height);
    let highest = buckets.iter().map(|b| b.count).max().unwrap_or(0) as f64;
    let steps = ticks(highest);
    let scale = plot_height / steps.last().copied().unwrap_or(1.0);
    for &tick in &steps {
        let y = bottom - tick * scale;
        chart.line((left, y), (left + plot_width, y), GRID, 1.0);
        chart.text(
            (left - 6.0, y + 4.0),
            &tick_label(tick),
            11.0,
            Anchor::End,
            false,
        );
    }
    for (i, ((bucket, label), count)) in buckets.iter().zip(labels).zip(counts).enumerate() {
        let x = left + pitch * i as f64;
        let centre = x + pitch / 2.0;
        let h = bucket.count as f64 * scale;
        let gap = (pitch * 0.12).min(4.0);
        chart.rect(
            x + gap,
            bottom - h,
            pitch - 2.0 * gap,
            h,
            colour,
            Some(&format!("{label}: {count}")),
        );
        if bucket.count > 0 {
            let base = bottom - h - 3.0;
            if count_layout.upright {
                let at = (centre + count_layout.size * 0.35, base);
                chart.text(at, count, count_layout.size, Anchor::Start, true);
            } else {
                chart.text(
                    (centre, base),
                    count,
                    count_layout.size,
                    Anchor::Middle,
                    false,
                );
            }
        }
        if layout.upright {
            let at = (centre + layout.size * 0.35, bottom + 6.0);
            chart.text(at, label, layout.size, Anchor::End, true);
        } else {
            let at = (centre, bottom + layout.size + 3.0);
            chart.text(at, label, layout.size, Anchor::Middle, false);
        }
    }
    chart.line((left, bottom), (left + plot_width, bottom), INK, 1.0);
    captioned(chart, what, left + plot_width / 2.0, width, height)
}

/// One group's line: its name and colour, and its share of records per bucket.
pub(super) struct Line<'a> {
    /// The group's name as shown.
    pub name: String,
    /// The group.
    pub group: &'a Summary,
    /// Its colour.
    pub colour: &'static str,
}

/// Each group's recursions as the share of its searched records per power-of-two bucket of the
/// whole, one line per group.
pub(super) fn distribution_chart(summary: &Summary, lines: &[Line<'_>]) -> Chart {
    let whole = summary
        .counter(Counter::Recursions)
        .histogram(Buckets::PowersOfTwo);
    let labels: Vec<String> = whole.iter().map(bucket_label).collect();
    let (left, right) = (52.0, 12.0);
    let (pitch, layout) = categories(&labels, WHOLE - left - right, 12.0);
    let plot_width = pitch * labels.len().max(1) as f64;
    let (top, plot_height) = (10.0, 230.0);
    let bottom = top + plot_height;
    let width = left + plot_width + right;
    let height = bottom + layout.depth + 22.0;
    let shares: Vec<Vec<f64>> = lines
        .iter()
        .map(|line| {
            let d = line.group.counter(Counter::Recursions);
            let total = d.count().max(1) as f64;
            let mut counts = vec![0u64; whole.len()];
            for b in d.histogram(Buckets::PowersOfTwo) {
                if let Some(i) = whole.iter().position(|w| w.from == b.from) {
                    counts[i] += b.count;
                }
            }
            counts.iter().map(|&c| c as f64 / total * 100.0).collect()
        })
        .collect();
    let highest = shares.iter().flatten().copied().fold(0.0, f64::max);
    let steps: Vec<f64> = ticks(highest.ceil())
        .into_iter()
        .filter(|t| *t <= 100.0)
        .collect();
    let scale = plot_height / steps.last().copied().unwrap_or(1.0).max(highest);
    let mut chart = Svg::new(width, height);
    for &tick in &steps {
        let y = bottom - tick * scale;
        chart.line((left, y), (left + plot_width, y), GRID, 1.0);
        chart.text(
            (left - 6.0, y + 4.0),
            &format!("{tick:.0}%"),
            11.0,
            Anchor::End,
            false,
        );
    }
    for (i, label) in labels.iter().enumerate() {
        let centre = left + pitch * (i as f64 + 0.5);
        if layout.upright {
            let at = (centre + layout.size * 0.35, bottom + 6.0);
            chart.text(at, label, layout.size, Anchor::End, true);
        } else {
            let at = (centre, bottom + layout.size + 3.0);
            chart.text(at, label, layout.size, Anchor::Middle, false);
        }
    }
    chart.line((left, bottom), (left + plot_width, bottom), INK, 1.0);
    for (line, shares) in lines.iter().zip(&shares) {
        let points: Vec<(f64, f64)> = shares
            .iter()
            .enumerate()
            .map(|(i, share)| (left + pitch * (i as f64 + 0.5), bottom - share * scale))
            .collect();
        chart.polyline(&points, line.colour);
    }
    let what = "recursions (power-of-two buckets): share of each group's searched records";
    captioned(chart, what, left + plot_width / 2.0, width, height)
}

/// The chart with `what` as its caption, centred on `centre` along the bottom, and as the
/// SVG's title.
fn captioned(mut chart: Svg, what: &str, centre: f64, width: f64, height: f64) -> Chart {
    chart.text((centre, height - 6.0), what, 12.0, Anchor::Middle, false);
    Chart {
        svg: chart.finish(what),
        width,
    }
}
