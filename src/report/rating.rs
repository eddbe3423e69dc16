//! The rating part of a summary (the rows of `rate`, [`crate::stats::rating`]) as text
//! tables, beside those of [`super::text`]:
//!
//! ```text
//! rate status  count    share
//! rated          990   99.00%
//! ...
//!
//! level     count    share       (share of the rated puzzles)
//! easy        411   41.52%
//! ...
//!
//! rating  count  min    mean  p50  p90   p99    max
//! score     990  172  1094.3  ...
//! steps     990   ...
//!
//! score band   count   share
//! 100-199          3   0.30%
//! ...
//!
//! technique           puzzles   share   steps  hardest
//! hidden-single           990 100.00%   40211      300
//! ...
//! ```
//!
//! A grouped summary of rate rows compares its groups by level and score ([`comparison`]).

use super::text::Table;
use super::{PERCENTILES, mean, percent, value};
use crate::rate::{LADDER, Level};
use crate::row::{RateStatus, Status, Tally};
use crate::stats::Summary;
use crate::stats::rating::RatingSummary;

/// Appends the rating tables of `rating` to `out`.
pub(super) fn tables(out: &mut String, rating: &RatingSummary) {
    status_table(out, rating.status());

    let mut levels = Table::new(&["level", "count", "share"]);
    for level in Level::ALL {
        let count = rating.levels().get(level);
        levels.row(vec![
            level.name().to_string(),
            count.to_string(),
            percent(rating.share_of_rated(count)),
        ]);
    }
    out.push_str(&levels.render());
    out.push('\n');

    let mut header = vec!["rating", "count", "min", "mean"];
    header.extend(PERCENTILES.iter().map(|(_, name)| *name));
    header.push("max");
    let mut numbers = Table::new(&header);
    for (name, d) in [("score", rating.score()), ("steps", rating.steps())] {
        let mut row = vec![
            name.to_string(),
            d.count().to_string(),
            value(d.min()),
            mean(d.mean()),
        ];
        row.extend(PERCENTILES.iter().map(|&(p, _)| value(d.percentile(p))));
        row.push(value(d.max()));
        numbers.row(row);
    }
    out.push_str(&numbers.render());

    let histogram = rating.score_histogram();
    if !histogram.is_empty() {
        out.push('\n');
        let mut bands = Table::new(&["score band", "count", "share"]);
        for bucket in histogram {
            bands.row(vec![
                format!("{}-{}", bucket.from, bucket.to),
                bucket.count.to_string(),
                percent(rating.share_of_rated(bucket.count)),
            ]);
        }
        out.push_str(&bands.render());
    }

    let used: Vec<_> = LADDER
        .iter()
        .filter(|&&t| rating.usage(t).puzzles > 0)
        .collect();
    if !used.is_empty() {
        out.push('\n');
        let mut techniques = Table::new(&["technique", "puzzles", "share", "steps", "hardest"]);
        for &t in used {
            let usage = rating.usage(t);
            techniques.row(vec![
                t.key().to_string(),
                usage.puzzles.to_string(),
                percent(rating.share_of_rated(usage.puzzles)),
                usage.steps.to_string(),
                rating.hardest(t).to_string(),
            ]);
        }
        out.push_str(&techniques.render());
    }
}

/// Appends the table of the rows per status of `rate` (on either scale), and a blank line.
pub(super) fn status_table(out: &mut String, tally: &Tally<RateStatus>) {
    let records = tally.records();
    let share = |count: u64| (records > 0).then(|| count as f64 / records as f64);
    let mut status = Table::new(&["rate status", "count", "share"]);
    for &s in RateStatus::ALL {
        let count = tally.get(s);
        status.row(vec![
            s.name().to_string(),
            count.to_string(),
            percent(share(count)),
        ]);
    }
    out.push_str(&status.render());
    out.push('\n');
}

/// One line per group of rate rows: its size, its level shares and its score.
pub(super) fn comparison(summary: &Summary) -> Table {
    let mut header = vec![summary.by().unwrap_or("group"), "records", "rated"];
    header.extend(Level::ALL.iter().map(|l| l.name()));
    header.extend(["score mean", "p50", "p90", "max"]);
    let mut table = Table::new(&header).naming_in_csv(&[
        ("p50", "score_p50"),
        ("p90", "score_p90"),
        ("max", "score_max"),
    ]);
    for (name, group) in super::text::rows_of(summary) {
        let Some(rating) = group.rating() else {
            continue;
        };
        let mut row = vec![
            name,
            group.records().to_string(),
            rating.rated().to_string(),
        ];
        row.extend(
            Level::ALL
                .iter()
                .map(|&l| percent(rating.share_of_rated(rating.levels().get(l)))),
        );
        let score = rating.score();
        row.extend([
            mean(score.mean()),
            value(score.percentile(50)),
            value(score.percentile(90)),
            value(score.max()),
        ]);
        table.row(row);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::Technique;
    use crate::stats::rating::{Rated, RatedRow};

    fn rated(pairs: &[(Technique, u32)], group: &'static str) -> RatedRow<'static> {
        let mut counts = [0; Technique::COUNT];
        for &(t, n) in pairs {
            counts[t.index()] = n;
        }
        RatedRow {
            status: RateStatus::Rated,
            rated: Some(Rated::from_counts(counts)),
            group: Some(group),
        }
    }

    #[test]
    fn rate_rows_print_levels_scores_bands_and_techniques() {
        let mut s = Summary::new().rating_kept();
        s.add_rated(&rated(&[(Technique::HiddenSingle, 50)], ""));
        s.add_rated(&rated(
            &[(Technique::HiddenSingle, 40), (Technique::XWing, 2)],
            "",
        ));
        s.add_rated(&RatedRow {
            status: RateStatus::Multiple,
            rated: None,
            group: None,
        });
        let text = super::super::text::render(&s, true);
        let expected = "\
records: 3

rate status  count   share
rated            2  66.67%
multiple         1  33.33%
unsolvable       0   0.00%
invalid          0   0.00%
gave_up          0   0.00%

level    count   share
easy         1  50.00%
medium       0   0.00%
hard         1  50.00%
unfair       0   0.00%
extreme      0   0.00%

rating  count  min    mean  p50  p90  p99  max
score       2  700  770.00  700  840  840  840
steps       2   42   46.00   42   50   50   50

score band  count   share
700-799         1  50.00%
800-899         1  50.00%

technique      puzzles    share  steps  hardest
hidden-single        2  100.00%     90        1
x-wing               1   50.00%      2        1
";
        assert_eq!(text, expected);
    }

    #[test]
    fn groups_of_rate_rows_compare_levels_and_scores() {
        let mut s = Summary::grouped_by("source").rating_kept();
        s.add_rated(&rated(&[(Technique::HiddenSingle, 50)], "easy"));
        s.add_rated(&rated(&[(Technique::XWing, 1)], "hard"));
        let text = super::super::text::render(&s, true);
        let (_, groups) = text.split_once("\nby source: 2 groups\n").expect(&text);
        let line = |key: &str| {
            groups
                .lines()
                .find(|l| l.starts_with(key))
                .unwrap_or_else(|| panic!("no line for {key}: {text}"))
                .split_whitespace()
                .collect::<Vec<_>>()
        };
        assert_eq!(
            line("easy "),
            [
                "easy", "1", "1", "100.00%", "0.00%", "0.00%", "0.00%", "0.00%", "700.00", "700",
                "700", "700"
            ]
        );
        assert_eq!(line("hard ")[5], "100.00%");
        assert!(
            text.contains("\n== source = hard ==\nrecords: 1\n"),
            "{text}"
        );
        assert!(!text.contains("recursions"), "no solve tables: {text}");
        let compact = super::super::text::render(&s, false);
        assert!(
            compact.starts_with("records: 2, by source: 2 groups\n"),
            "{compact}"
        );
        assert!(
            compact.contains("\n(all)         2      2   50.00%"),
            "{compact}"
        );
        assert!(!compact.contains("=="), "{compact}");
    }
}
