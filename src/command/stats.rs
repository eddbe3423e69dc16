//! `stats`: result files (or saved summaries) summarised as a table or JSON on stdout, and an
//! HTML page on request.

use super::config::StatsRun;
use super::{CommandError, Exit, print};
use crate::files::output::write_file;
use crate::{report, stats};

/// `stats`: summarise result files; a table (or JSON) on stdout, an HTML page on request.
pub fn run(run: &StatsRun) -> Result<Exit, CommandError> {
    let summary = stats::read::read_paths_with(&run.inputs, run.by.as_deref(), run.canonical)?;
    if let Some(path) = &run.html {
        let names: Vec<String> = run.inputs.iter().map(|p| p.display().to_string()).collect();
        let page = report::html::render(&summary, &names.join(", "))?;
        write_file(path, page.as_bytes())?;
    }
    let text = if run.json {
        stats::document::to_string(&summary)
    } else {
        report::text::render(&summary)
    };
    print(&text)?;
    Ok(Exit::Success)
}
