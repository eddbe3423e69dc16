//! The Sudoku Explainer part of a summary (the rows of `rate --scale se`,
//! [`crate::stats::rating::se`]) as text tables, beside those of [`super::text`]:
//!
//! ```text
//! rate status  count    share
//! rated          990   99.00%
//! ...
//!
//! SE level    ER          count   share       (share of the rated puzzles)
//! easy        1.0-1.2       411  41.52%
//! ...
//!
//! rating       count  min  mean   p50  p90  p99  max
//! er             980  1.2  3.41   2.6  7.2  8.9  9.4
//! ep, ed, steps, then er_at_least (the rows whose path stopped before nested chains)
//!
//! ER band  count   share
//! 1.0-1.9    300  30.30%
//! ...
//!
//! hardest technique       puzzles   share
//! Hidden Single (block)       100  10.10%
//! ...
//! ```
//!
//! A grouped summary of these rows compares its groups by level and ER ([`comparison`]).

use super::text::Table;
use super::{PERCENTILES, percent, value};
use crate::rate::se::SeTechnique;
use crate::stats::rating::se::{SeLevel, SeSummary, decimal};
use crate::stats::{Distribution, Summary};

/// A difficulty in tenths as a decimal, or `-`.
pub(crate) fn tenths(value: Option<u64>) -> String {
    value.map_or_else(|| "-".to_string(), decimal)
}

/// The mean of a distribution of tenths, as a decimal with two digits, or `-`.
pub(crate) fn tenths_mean(d: &Distribution) -> String {
    d.mean()
        .map_or_else(|| "-".to_string(), |m| format!("{:.2}", m / 10.0))
}

/// The rows of the figures table: name, distribution, and whether it holds tenths.
pub(crate) fn figures(se: &SeSummary) -> [(&'static str, &Distribution, bool); 5] {
    [
        ("er", se.er(), true),
        ("ep", se.ep(), true),
        ("ed", se.ed(), true),
        ("steps", se.steps(), false),
        ("er_at_least", se.er_at_least(), true),
    ]
}

/// One row of the figures table: count, min, mean, the percentiles and max.
pub(crate) fn figure_cells(d: &Distribution, in_tenths: bool) -> Vec<String> {
    let shown = |v: Option<u64>| if in_tenths { tenths(v) } else { value(v) };
    let mut cells = vec![
        d.count().to_string(),
        shown(d.min()),
        if in_tenths {
            tenths_mean(d)
        } else {
            super::mean(d.mean())
        },
    ];
    cells.extend(PERCENTILES.iter().map(|&(p, _)| shown(d.percentile(p))));
    cells.push(shown(d.max()));
    cells
}

/// Appends the tables of `se` to `out`.
pub(super) fn tables(out: &mut String, se: &SeSummary) {
    super::rating::status_table(out, se.status());

    let mut levels = Table::new(&["SE level", "ER", "count", "share"]);
    for level in SeLevel::ALL {
        let count = se.levels().get(level);
        levels.row(vec![
            level.name().to_string(),
            level.range().to_string(),
            count.to_string(),
            percent(se.share_of_rated(count)),
        ]);
    }
    out.push_str(&levels.render());
    let unfinished = se.er_at_least().count();
    if unfinished > 0 {
        out.push_str(&format!(
            "({unfinished} diabolical without ER: their path needs nested forcing chains, \
             ER at least 9.5)\n"
        ));
    }
    out.push('\n');

    let mut header = vec!["rating", "count", "min", "mean"];
    header.extend(PERCENTILES.iter().map(|(_, name)| *name));
    header.push("max");
    let mut numbers = Table::new(&header);
    for (name, d, in_tenths) in figures(se) {
        if name == "er_at_least" && d.is_empty() {
            continue;
        }
        let mut row = vec![name.to_string()];
        row.extend(figure_cells(d, in_tenths));
        numbers.row(row);
    }
    out.push_str(&numbers.render());

    let histogram = se.er_histogram();
    if !histogram.is_empty() {
        out.push('\n');
        let mut bands = Table::new(&["ER band", "count", "share"]);
        for bucket in histogram {
            bands.row(vec![
                format!("{}-{}", decimal(bucket.from), decimal(bucket.to)),
                bucket.count.to_string(),
                percent(se.share_of_rated(bucket.count)),
            ]);
        }
        out.push_str(&bands.render());
    }

    let used: Vec<SeTechnique> = SeTechnique::ALL
        .into_iter()
        .filter(|&t| se.hardest(t) > 0)
        .collect();
    if !used.is_empty() {
        out.push('\n');
        let mut hardest = Table::new(&["hardest technique", "puzzles", "share"]);
        for t in used {
            hardest.row(vec![
                t.name().to_string(),
                se.hardest(t).to_string(),
                percent(se.share_of_rated(se.hardest(t))),
            ]);
        }
        out.push_str(&hardest.render());
    }
}

/// Appends the hardest rows by ER (the first [`super::text::HARDEST_SHOWN`]), when the
/// summary lists any.
pub(super) fn hardest(out: &mut String, summary: &Summary) {
    let records = summary.se_hardest().records();
    if records.is_empty() {
        return;
    }
    out.push_str(&format!(
        "\nhardest {} by ER (of {} in --json and --html)\n\n",
        records.len().min(super::text::HARDEST_SHOWN),
        records.len()
    ));
    let mut table = Table::new(&["record", "er", "ep", "ed", "hardest", "puzzle"]);
    table.left = vec![true, false, false, false, true, true];
    for record in records.iter().take(super::text::HARDEST_SHOWN) {
        let place = match &record.file {
            Some(file) => format!("{}:{}", super::text::shown(file), record.line),
            None => format!("line {}", record.line),
        };
        let er = match record.er {
            Some(er) => decimal(er),
            None => format!(">={}", decimal(record.er_at_least)),
        };
        table.row(vec![
            place,
            er,
            tenths(record.ep),
            tenths(record.ed),
            record.hardest.map_or("-", SeTechnique::name).to_string(),
            super::text::shown(&record.puzzle),
        ]);
    }
    out.push_str(&table.render());
}

/// One line per group of SE rows: its size, its level shares and its ER.
pub(super) fn comparison(summary: &Summary) -> Table {
    let mut header = vec![summary.by().unwrap_or("group"), "records", "rated"];
    header.extend(SeLevel::ALL.iter().map(|l| l.name()));
    header.extend(["er mean", "p50", "p90", "max"]);
    let mut table = Table::new(&header).naming_in_csv(&[
        ("p50", "er_p50"),
        ("p90", "er_p90"),
        ("max", "er_max"),
    ]);
    for (name, group) in super::text::rows_of(summary) {
        let Some(se) = group.se_rating() else {
            continue;
        };
        let mut row = vec![name, group.records().to_string(), se.rated().to_string()];
        row.extend(
            SeLevel::ALL
                .iter()
                .map(|&l| percent(se.share_of_rated(se.levels().get(l)))),
        );
        let er = se.er();
        row.extend([
            tenths_mean(er),
            tenths(er.percentile(50)),
            tenths(er.percentile(90)),
            tenths(er.max()),
        ]);
        table.row(row);
    }
    table
}
