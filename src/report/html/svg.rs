//! A small SVG writer for the page's charts, and the geometry that keeps their labels apart:
//! every category of an axis gets its label, drawn across when it fits the space of its
//! category and turned upright when it does not, and the chart grows to make room.
//!
//! Text is measured by an estimate, not a font: [`CHAR_WIDTH`] of the font size per
//! character (wider than the digits and most letters of common sans-serif fonts) and
//! [`LINE_HEIGHT`] across; the page sets the font, so the estimate only errs on the side of
//! space.

use std::fmt::Write as _;

use super::page::escape;

/// The width of one character, as a share of the font size (an upper estimate).
pub(super) const CHAR_WIDTH: f64 = 0.62;

/// The height of a line of text, as a share of the font size.
pub(super) const LINE_HEIGHT: f64 = 1.25;

/// The estimated width of `text` at `size` pixels.
pub(super) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * CHAR_WIDTH * size
}

/// Where a text is anchored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Anchor {
    /// At its start.
    Start,
    /// At its middle.
    Middle,
    /// At its end.
    End,
}

impl Anchor {
    fn name(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// An SVG drawing, built element by element.
pub(super) struct Svg {
    width: f64,
    height: f64,
    body: String,
}

impl Svg {
    /// An empty drawing of `width` by `height` pixels.
    pub fn new(width: f64, height: f64) -> Self {
        Svg {
            width: width.ceil(),
            height: height.ceil(),
            body: String::new(),
        }
    }

    /// A filled rectangle; `title` shows on hover.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, title: Option<&str>) {
        let _ = write!(
            self.body,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\"",
            w.max(0.0),
            h.max(0.0)
        );
        match title {
            Some(title) => {
                let _ = writeln!(self.body, "><title>{}</title></rect>", escape(title));
            }
            None => self.body.push_str("/>\n"),
        }
    }

    /// A straight line.
    pub fn line(&mut self, from: (f64, f64), to: (f64, f64), stroke: &str, width: f64) {
        let _ = writeln!(
            self.body,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{stroke}\" \
             stroke-width=\"{width}\"/>",
            from.0, from.1, to.0, to.1
        );
    }

    /// A line through `points`, with a dot at each.
    pub fn polyline(&mut self, points: &[(f64, f64)], stroke: &str) {
        let path: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            self.body,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"2\"/>",
            path.join(" ")
        );
        for (x, y) in points {
            let _ = writeln!(
                self.body,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3\" fill=\"{stroke}\"/>"
            );
        }
    }

    /// A text with its baseline's anchor at `(x, y)`; `upright` turns it a quarter to the
    /// left, reading upwards (its anchor then at its bottom end for [`Anchor::End`]).
    pub fn text(
        &mut self,
        (x, y): (f64, f64),
        text: &str,
        size: f64,
        anchor: Anchor,
        upright: bool,
    ) {
        let turn = if upright {
            format!(" transform=\"rotate(-90 {x:.1} {y:.1})\"")
        } else {
            String::new()
        };
        let _ = writeln!(
            self.body,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size}\" text-anchor=\"{}\"{turn}>{}</text>",
            anchor.name(),
            escape(text)
        );
    }

    /// The drawing as an SVG element, labelled `label` for screen readers.
    pub fn finish(self, label: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
             role=\"img\" aria-label=\"{label}\">\n{body}</svg>\n",
            w = self.width,
            h = self.height,
            label = escape(label),
            body = self.body
        )
    }
}

/// How the labels of an axis of categories are drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct LabelLayout {
    /// The font size.
    pub size: f64,
    /// Whether the labels are upright (turned a quarter), one per category.
    pub upright: bool,
    /// The space the labels take below the axis.
    pub depth: f64,
}

/// The smallest font size of an axis label.
pub(super) const MIN_LABEL_SIZE: f64 = 9.0;

/// How labels of `size` pixels fit under categories `pitch` pixels apart: across when the
/// widest fits its category with a gap, else upright when a line fits, else `None`.
pub(super) fn label_layout(labels: &[String], pitch: f64, size: f64) -> Option<LabelLayout> {
    let widest = labels
        .iter()
        .map(|l| text_width(l, size))
        .fold(0.0, f64::max);
    if widest + 6.0 <= pitch {
        Some(LabelLayout {
            size,
            upright: false,
            depth: size * LINE_HEIGHT + 4.0,
        })
    } else if size * LINE_HEIGHT <= pitch {
        Some(LabelLayout {
            size,
            upright: true,
            depth: widest + 8.0,
        })
    } else {
        None
    }
}

/// The pitch of `n` categories: at least what labels of [`MIN_LABEL_SIZE`] need upright, and
/// `width / n` when that is more. Returns the pitch and the layout of the labels, trying sizes
/// from `size` down to [`MIN_LABEL_SIZE`].
pub(super) fn categories(labels: &[String], width: f64, size: f64) -> (f64, LabelLayout) {
    let n = labels.len().max(1) as f64;
    let mut pitch = width / n;
    let mut trying = size;
    loop {
        if let Some(layout) = label_layout(labels, pitch, trying) {
            return (pitch, layout);
        }
        if trying > MIN_LABEL_SIZE {
            trying = (trying - 1.0).max(MIN_LABEL_SIZE);
        } else {
            // The chart grows: every category gets room for an upright label.
            pitch = MIN_LABEL_SIZE * LINE_HEIGHT;
        }
    }
}

/// About five round steps from 0 to at least `top`: 1, 2 or 5 times a power of ten.
pub(super) fn ticks(top: f64) -> Vec<f64> {
    let top = top.max(1.0);
    let rough = top / 5.0;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| *s >= rough)
        .unwrap_or(power * 10.0)
        .max(1.0);
    let mut out = vec![0.0];
    while *out.last().expect("not empty") < top {
        out.push(out.len() as f64 * step);
    }
    out
}

/// A tick value as text: whole numbers without decimals, large ones with `k` or `M`.
pub(super) fn tick_label(value: f64) -> String {
    if value >= 1e6 && (value / 1e6).fract() == 0.0 {
        format!("{}M", value / 1e6)
    } else if value >= 1e4 && (value / 1e3).fract() == 0.0 {
        format!("{}k", value / 1e3)
    } else if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn labels_go_across_when_they_fit_and_upright_when_they_do_not() {
        let short = labels(&["1", "2", "3"]);
        let (pitch, layout) = categories(&short, 300.0, 11.0);
        assert_eq!(pitch, 100.0);
        assert!(!layout.upright);
        let long = labels(&["1024–2047", "2048–4095", "4096–8191"]);
        let (pitch, layout) = categories(&long, 60.0, 11.0);
        assert!(layout.upright);
        assert!(layout.size * LINE_HEIGHT <= pitch);
        assert!(layout.depth >= text_width("1024–2047", layout.size));
    }

    #[test]
    fn a_crowded_axis_grows_rather_than_overlap() {
        let many: Vec<String> = (0..300).map(|i| i.to_string()).collect();
        let (pitch, layout) = categories(&many, 600.0, 11.0);
        assert_eq!(layout.size, MIN_LABEL_SIZE);
        assert!(layout.upright);
        assert!(pitch * 300.0 > 600.0);
        assert!(layout.size * LINE_HEIGHT <= pitch);
    }

    #[test]
    fn ticks_are_round_and_reach_the_top() {
        assert_eq!(ticks(10.0), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(1234.0), [0.0, 500.0, 1000.0, 1500.0]);
        assert_eq!(ticks(0.0), [0.0, 1.0]);
        assert_eq!(tick_label(20000.0), "20k");
        assert_eq!(tick_label(3_000_000.0), "3M");
        assert_eq!(tick_label(1500.0), "1500");
    }

    #[test]
    fn text_is_escaped() {
        let mut svg = Svg::new(10.0, 10.0);
        svg.text((1.0, 2.0), "a<b & c", 10.0, Anchor::Start, false);
        let out = svg.finish("x \"y\"");
        assert!(out.contains(">a&lt;b &amp; c</text>"), "{out}");
        assert!(out.contains("aria-label=\"x &quot;y&quot;\""), "{out}");
    }
}
