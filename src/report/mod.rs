//! Renderings of a [`Summary`](crate::stats::Summary): a text table for the terminal, a JSON
//! document that reads back and merges, and a self-contained HTML page with charts.
//!
//! Each format is one module with the same shape: a function from a summary to the rendered
//! text (`text::render`, `json::to_string`, `html::render`).

pub mod html;
mod rating;
pub(crate) mod se;
pub mod text;

/// `share` as a percentage with two decimals, or `-` when there is nothing to share.
pub(crate) fn percent(share: Option<f64>) -> String {
    share.map_or_else(|| "-".to_string(), |s| format!("{:.2}%", s * 100.0))
}

/// A mean with two decimals, or `-`.
pub(crate) fn mean(mean: Option<f64>) -> String {
    mean.map_or_else(|| "-".to_string(), |m| format!("{m:.2}"))
}

/// A value, or `-`.
pub(crate) fn value(value: Option<u64>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// The percentiles every rendering reports, with their column names.
pub(crate) const PERCENTILES: [(u32, &str); 3] = [(50, "p50"), (90, "p90"), (99, "p99")];
