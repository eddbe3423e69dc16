//! The drawing plumbing shared by the charts: the palette, an SVG canvas with a caption and a
//! legend, and an axis of named categories.

use std::error::Error;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::ChartError;
use crate::row::SolveStatus;

/// The colour of each status in every chart.
pub(super) fn status_colour(status: SolveStatus) -> RGBColor {
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
pub(super) const NO_GUESS: RGBColor = RGBColor(0x9c, 0xd6, 0x9f);
pub(super) const BLUE_700: RGBColor = RGBColor(0x1f, 0x5f, 0xa8);
pub(super) const TEAL_700: RGBColor = RGBColor(0x00, 0x79, 0x6b);
pub(super) const INDIGO_400: RGBColor = RGBColor(0x5c, 0x6b, 0xc0);
pub(super) const BROWN_400: RGBColor = RGBColor(0x8d, 0x6e, 0x63);
pub(super) const INK: RGBColor = RGBColor(0x1d, 0x23, 0x30);

/// Colours of the groups, in order (Tableau 10).
pub(super) const GROUP_COLOURS: [RGBColor; 10] = [
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
pub(super) const MAX_LINES: usize = GROUP_COLOURS.len();

pub(super) const FONT: &str = "sans-serif";

/// Width of the legend column at the right of the group charts.
pub(super) const LEGEND_WIDTH: u32 = 200;

/// How a legend entry is marked.
#[derive(Debug, Clone, Copy)]
pub(super) enum Swatch {
    /// A filled square, for bars.
    Block,
    /// A short thick line, for lines.
    Line,
}

/// Draws `caption` over `root` and a legend of `entries` in a column at its right, where it
/// cannot hide data; returns the area left for the plot.
pub(super) fn titled_with_legend<'a>(
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
pub(super) fn svg(
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
pub(super) struct Categories {
    n: f64,
    ticks: Vec<f64>,
}

impl Categories {
    pub(super) fn new(n: usize, max: usize) -> Self {
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
pub(super) fn centres(n: usize, max: usize) -> Vec<f64> {
    let step = n.div_ceil(max.max(1)).max(1);
    (0..n).step_by(step).map(|i| i as f64 + 0.5).collect()
}

/// The label of the category whose centre is `x`.
pub(super) fn label_at(labels: &[String], x: f64) -> String {
    if x < 0.0 {
        return String::new();
    }
    labels.get(x as usize).cloned().unwrap_or_default()
}

pub(super) fn caption_style() -> TextStyle<'static> {
    TextStyle::from((FONT, 17).into_font()).color(&INK)
}

pub(super) fn small(size: u32) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font()).color(&INK)
}
