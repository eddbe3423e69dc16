//! The summary as one self-contained HTML page with charts: the output of `stats --html FILE`.
//!
//! The page needs nothing but a browser: styles are inline, and every chart is an SVG drawn
//! by plotters' SVG backend and embedded in the page (no script, font, image or network
//! request). It shows the key figures, the status shares, a table of every counter and
//! histograms of `recursions`, `max_depth`, `guesses` and `givens`; a grouped summary adds a
//! table of the groups, their status shares, their recursion percentiles and their recursion
//! distributions side by side.

//!
//! - [`page`](self): the page's frame and its tables;
//! - `plot`: the drawing plumbing shared by the charts (palette, SVG canvas, legends, axes of
//!   categories);
//! - `charts`: the six charts.

mod charts;
mod page;
mod plot;

use std::fmt::Write as _;

use crate::stats::{Counter, Summary};
use charts::{
    group_distribution_chart, group_percentile_chart, group_status_chart, histogram_chart,
    status_chart,
};
use page::{STYLE, counter_table, escape, group_table, key_figures, status_table};
use plot::{BLUE_700, BROWN_400, INDIGO_400, TEAL_700};

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
#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::SolveStatus;
    use crate::solver::SearchStats;
    use crate::stats::Row;
    use plot::{centres, label_at};

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
