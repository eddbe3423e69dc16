//! The page's section on the rows of `rate` ([`crate::stats::rating`]): key figures, bars of
//! the rated puzzles per level and per score band, a table of the statuses and of the score
//! and steps, and a table of technique usage.

use std::fmt::Write as _;

use super::charts::{Chart, HALF, bars};
use super::page::escape;
use crate::rate::{LADDER, Level};
use crate::report::{PERCENTILES, mean, percent, value};
use crate::row::{RateStatus, Status, Tally};
use crate::stats::Bucket;
use crate::stats::Summary;
use crate::stats::rating::RatingSummary;

/// The colour of the level bars (of either scale) and of the score (or ER) bands.
pub(super) const LEVEL_COLOUR: &str = "#6d4c9f";
pub(super) const SCORE_COLOUR: &str = "#c0622f";

/// Appends the section, when `summary` counted rows of `rate`.
pub(super) fn section(page: &mut String, summary: &Summary) {
    let Some(rating) = summary.rating() else {
        return;
    };
    page.push_str("<section>\n<h2>Ratings (HoDoKu's levels and scores)</h2>\n");
    let score = rating.score();
    let figures = [
        (rating.rated().to_string(), "rated"),
        (
            percent(rating.share_of_rated(rating.levels().get(Level::Easy))),
            "easy",
        ),
        (
            percent(rating.share_of_rated(rating.levels().get(Level::Extreme))),
            "extreme",
        ),
        (value(score.percentile(50)), "median score"),
        (value(score.max()), "highest score"),
    ];
    figures_and_charts(page, &figures, [level_chart(rating), score_chart(rating)]);
    tables(page, rating);
    page.push_str("</section>\n");
}

/// Rated puzzles per level.
fn level_chart(rating: &RatingSummary) -> Chart {
    let levels = Level::ALL.map(|l| (l.name(), rating.levels().get(l)));
    count_chart(&levels, LEVEL_COLOUR, "rated puzzles per level")
}

/// Bars of named counts, one per name, in order: the rated puzzles per level of a scale.
pub(super) fn count_chart(counts: &[(&str, u64)], colour: &str, what: &str) -> Chart {
    let labels: Vec<String> = counts.iter().map(|(name, _)| name.to_string()).collect();
    let buckets: Vec<Bucket> = (0u64..)
        .zip(counts)
        .map(|(i, &(_, count))| Bucket {
            from: i,
            to: i,
            count,
        })
        .collect();
    let shown: Vec<String> = buckets.iter().map(|b| b.count.to_string()).collect();
    bars(&labels, &shown, &buckets, colour, what)
}

/// The key figures of a rating section, then its two charts.
pub(super) fn figures_and_charts(
    page: &mut String,
    figures: &[(String, &str)],
    charts: [Chart; 2],
) {
    page.push_str("<div class=\"figures\">\n");
    for (number, label) in figures {
        let _ = writeln!(
            page,
            "<div class=\"figure\"><b>{number}</b><span>{label}</span></div>"
        );
    }
    page.push_str("</div>\n<div class=\"charts\">\n");
    for Chart { svg, width } in charts {
        let class = if width > HALF + 1.0 {
            " class=\"whole\""
        } else {
            ""
        };
        let _ = writeln!(page, "<div{class}>{svg}</div>");
    }
    page.push_str("</div>\n");
}

/// The table of the rows per status of `rate`, and the opening of the figures table beside it
/// (its header: count, min, mean, the percentiles, max).
pub(super) fn status_and_figures_header(page: &mut String, status: &Tally<RateStatus>) {
    let records = status.records();
    page.push_str(
        "<div class=\"pair\">\n<table>\n<tr><th>rate status</th><th>count</th><th>share</th></tr>\n",
    );
    for &s in RateStatus::ALL {
        let count = status.get(s);
        let share = (records > 0).then(|| count as f64 / records as f64);
        let _ = writeln!(
            page,
            "<tr><td>{}</td><td>{count}</td><td>{}</td></tr>",
            s.name(),
            percent(share)
        );
    }
    page.push_str("</table>\n<table>\n<tr><th></th><th>count</th><th>min</th><th>mean</th>");
    for (_, name) in PERCENTILES {
        let _ = write!(page, "<th>{name}</th>");
    }
    page.push_str("<th>max</th></tr>\n");
}

/// Rated puzzles per score band.
fn score_chart(rating: &RatingSummary) -> Chart {
    let buckets = rating.score_histogram();
    let labels: Vec<String> = buckets
        .iter()
        .map(|b| format!("{}-{}", b.from, b.to))
        .collect();
    let counts: Vec<String> = buckets.iter().map(|b| b.count.to_string()).collect();
    bars(
        &labels,
        &counts,
        &buckets,
        SCORE_COLOUR,
        "score: bands of 100 below 2000, then doubling",
    )
}

/// The statuses, the score and steps, and every technique used.
fn tables(page: &mut String, rating: &RatingSummary) {
    status_and_figures_header(page, rating.status());
    for (name, d) in [("score", rating.score()), ("steps", rating.steps())] {
        let _ = write!(
            page,
            "<tr><td>{name}</td><td>{}</td><td>{}</td><td>{}</td>",
            d.count(),
            value(d.min()),
            mean(d.mean())
        );
        for (p, _) in PERCENTILES {
            let _ = write!(page, "<td>{}</td>", value(d.percentile(p)));
        }
        let _ = writeln!(page, "<td>{}</td></tr>", value(d.max()));
    }
    page.push_str("</table>\n</div>\n");
    page.push_str(
        "<table class=\"sortable\">\n<tr><th>technique</th><th>score</th><th>level</th>\
         <th>puzzles</th><th>share</th><th>steps</th><th>hardest in</th></tr>\n",
    );
    for &t in LADDER {
        let usage = rating.usage(t);
        if usage.puzzles == 0 {
            continue;
        }
        let _ = writeln!(
            page,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(t.name()),
            t.score(),
            t.level().name(),
            usage.puzzles,
            percent(rating.share_of_rated(usage.puzzles)),
            usage.steps,
            rating.hardest(t)
        );
    }
    page.push_str("</table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::Technique;
    use crate::stats::rating::{Rated, RatedRow};

    #[test]
    fn the_section_shows_levels_bands_and_techniques_of_rate_rows() {
        let mut s = Summary::new();
        let mut page = String::new();
        section(&mut page, &s);
        assert!(page.is_empty(), "no rate rows, no section");
        for (single, x_wings) in [(50, 0), (40, 2), (30, 1)] {
            let mut counts = [0; Technique::COUNT];
            counts[Technique::HiddenSingle.index()] = single;
            counts[Technique::XWing.index()] = x_wings;
            s.add_rated(&RatedRow {
                status: RateStatus::Rated,
                rated: Some(Rated::from_counts(counts)),
                group: None,
            });
        }
        section(&mut page, &s);
        assert!(
            page.contains("<h2>Ratings (HoDoKu's levels and scores)</h2>"),
            "{page}"
        );
        assert!(page.contains("rated puzzles per level"), "{page}");
        assert!(page.contains("<title>hard: 2</title>"), "{page}");
        assert!(page.contains("<title>700-799: 1</title>"), "{page}");
        assert!(
            page.contains(
                "<tr><td>X-Wing</td><td>140</td><td>hard</td><td>2</td><td>66.67%</td><td>3</td><td>2</td></tr>"
            ),
            "{page}"
        );
        assert!(
            !page.contains("Jellyfish"),
            "unused techniques are left out"
        );
    }
}
