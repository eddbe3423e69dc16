//! The charts of the page, each an SVG string: status shares, the histogram of a counter, and
//! for grouped summaries the groups' status shares, recursion percentiles and distributions.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::ChartError;
use super::page::{bucket_label, group_label};
use super::plot::*;
use crate::report::percent;
use crate::row::{SolveStatus, Status};
use crate::stats::{Buckets, Counter, Summary};

/// Bars of the status counts, one per status, as a share of the records.
pub(super) fn status_chart(summary: &Summary) -> Result<String, ChartError> {
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
pub(super) fn histogram_chart(
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
pub(super) const STATUS_PARTS: usize = SolveStatus::ALL.len() + 1;

pub(super) fn status_part(part: usize) -> (&'static str, RGBColor) {
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

/// One bar per group, 100% wide, split by status (solved split by whether it guessed).
pub(super) fn group_status_chart(summary: &Summary) -> Result<String, ChartError> {
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
pub(super) fn group_percentile_chart(summary: &Summary) -> Result<String, ChartError> {
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
pub(super) struct Line {
    name: String,
    points: Vec<(f64, f64)>,
    colour: RGBColor,
}

/// Each group's recursions histogram as the share of its searched records per power-of-two
/// bucket, one line per group (the ten largest when there are more).
pub(super) fn group_distribution_chart(summary: &Summary) -> Result<String, ChartError> {
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
