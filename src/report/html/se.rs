//! The page's section on the rows of `rate --scale se` ([`crate::stats::rating::se`]): key
//! figures, bars of the rated puzzles per SE level and per ER band, a table of the statuses
//! and of ER, EP, ED and steps, and a table of the hardest techniques.

use std::fmt::Write as _;

use super::charts::{Chart, bars};
use super::page::escape;
use crate::rate::se::SeTechnique;
use crate::report::percent;
use crate::report::se::{figure_cells, figures, tenths};
use crate::stats::Summary;
use crate::stats::rating::se::{SeLevel, SeSummary, decimal};

/// Appends the section, when `summary` counted rows of `rate --scale se`.
pub(super) fn section(page: &mut String, summary: &Summary) {
    let Some(se) = summary.se_rating() else {
        return;
    };
    page.push_str("<section>\n<h2>Ratings (Sudoku Explainer's ER, EP and ED)</h2>\n");
    let share = |level| percent(se.share_of_rated(se.levels().get(level)));
    // Rows whose path stopped before nested forcing chains have only a least ER: the median
    // is of the exact ones, and the highest is at least the highest of either.
    let median_label = match (se.er().count(), se.er_at_least().count()) {
        (_, 0) => "median ER".to_string(),
        (0, _) => "median ER (no ER exact)".to_string(),
        (exact, _) => format!("median ER of the {exact} exact"),
    };
    let highest = match (se.er().max(), se.er_at_least().max()) {
        (exact, Some(least)) if exact.is_none_or(|exact| least > exact) => {
            format!("&ge;{}", decimal(least))
        }
        (exact, _) => tenths(exact),
    };
    let figures = [
        (se.rated().to_string(), "rated"),
        (share(SeLevel::Fiendish), "fiendish"),
        (share(SeLevel::Diabolical), "diabolical"),
        (tenths(se.er().percentile(50)), median_label.as_str()),
        (highest, "highest ER"),
    ];
    super::rating::figures_and_charts(page, &figures, [level_chart(se), er_chart(se)]);
    tables(page, se);
    page.push_str("</section>\n");
    hardest_table(page, summary);
}

/// The hardest puzzles by ER, each with the command that shows SE's path.
fn hardest_table(page: &mut String, summary: &Summary) {
    let records = summary.se_hardest().records();
    if records.is_empty() {
        return;
    }
    let _ = writeln!(
        page,
        "<section>\n<h2>The hardest puzzles by ER</h2>\n<p class=\"muted\">The {} rated \
         puzzles of the highest ER (for a path that stopped before nested forcing chains, the \
         least its ER can be, shown <code>&ge;</code>), then EP and ED; <em>line</em> is the \
         record's line in its input. Run the command under a puzzle to see SE's path.</p>",
        records.len()
    );
    let files = records.iter().any(|r| r.file.is_some());
    page.push_str("<table class=\"full hardest\">\n<thead><tr><th>#</th>");
    if files {
        page.push_str("<th class=\"name\">input</th>");
    }
    page.push_str(
        "<th>line</th><th>ER</th><th>EP</th><th>ED</th><th>hardest technique</th>\
         <th>steps</th></tr></thead>\n<tbody>\n",
    );
    let columns = if files { 7 } else { 6 };
    for (rank, record) in records.iter().enumerate() {
        let _ = write!(page, "<tr><td>{}</td>", rank + 1);
        if files {
            let _ = write!(
                page,
                "<td class=\"name\">{}</td>",
                escape(record.file.as_deref().unwrap_or("-"))
            );
        }
        let er = match record.er {
            Some(er) => decimal(er),
            None => format!("&ge;{}", decimal(record.er_at_least)),
        };
        let _ = writeln!(
            page,
            "<td>{}</td><td>{er}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            record.line,
            tenths(record.ep),
            tenths(record.ed),
            escape(record.hardest.map_or("-", SeTechnique::name)),
            record.steps,
        );
        let _ = writeln!(
            page,
            "<tr class=\"puzzle\"><td></td><td colspan=\"{columns}\"><code>{}</code>\
             <code class=\"command\">sudoku-bulk show {} --explain --scale se</code></td></tr>",
            escape(&record.puzzle),
            escape(&super::page::shell_word(&record.puzzle)),
        );
    }
    page.push_str("</tbody>\n</table>\n</section>\n");
}

/// Rated puzzles per SE level.
fn level_chart(se: &SeSummary) -> Chart {
    let levels = SeLevel::ALL.map(|l| (l.name(), se.levels().get(l)));
    super::rating::count_chart(
        &levels,
        super::rating::LEVEL_COLOUR,
        "rated puzzles per SE level",
    )
}

/// Complete puzzles per ER band.
fn er_chart(se: &SeSummary) -> Chart {
    let buckets = se.er_histogram();
    let labels: Vec<String> = buckets
        .iter()
        .map(|b| format!("{}-{}", decimal(b.from), decimal(b.to)))
        .collect();
    let counts: Vec<String> = buckets.iter().map(|b| b.count.to_string()).collect();
    bars(
        &labels,
        &counts,
        &buckets,
        super::rating::SCORE_COLOUR,
        "ER: bands of one unit",
    )
}

/// The statuses, ER, EP, ED and steps, and the hardest techniques.
fn tables(page: &mut String, se: &SeSummary) {
    super::rating::status_and_figures_header(page, se.status());
    for (name, d, in_tenths) in figures(se) {
        if name == "er_at_least" && d.is_empty() {
            continue;
        }
        let _ = write!(page, "<tr><td>{name}</td>");
        for cell in figure_cells(d, in_tenths) {
            let _ = write!(page, "<td>{cell}</td>");
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</table>\n</div>\n");
    page.push_str(
        "<table class=\"sortable\">\n<tr><th>hardest technique</th><th>base difficulty</th>\
         <th>puzzles</th><th>share</th></tr>\n",
    );
    for t in SeTechnique::ALL {
        let count = se.hardest(t);
        if count == 0 {
            continue;
        }
        let _ = writeln!(
            page,
            "<tr><td>{}</td><td>{:.1}</td><td>{count}</td><td>{}</td></tr>",
            escape(t.name()),
            t.base_difficulty(),
            percent(se.share_of_rated(count)),
        );
    }
    page.push_str("</table>\n");
}
