//! `stats`: result files (or saved summaries) summarised as a table or JSON on stdout, and an
//! HTML page on request.

use super::config::StatsRun;
use super::{CommandError, Exit, print, say};
use crate::files::Target;
use crate::files::file_id::RunFiles;
use crate::files::output::write_file;
use crate::{report, stats};

/// `stats`: summarise result files; a table (or JSON) on stdout, an HTML page on request.
pub fn run(run: &StatsRun) -> Result<Exit, CommandError> {
    refuse_clashing_files(run)?;
    let read = stats::grouping::summarise(
        &run.inputs,
        run.grouping.as_ref(),
        run.max_groups,
        run.canonical,
    )?;
    if let Some(note) = &read.note {
        say(&format!("note: {note}"));
    }
    let summary = &read.summary;
    if let Some(path) = &run.html {
        let about = report::html::About::of(&read, std::time::SystemTime::now());
        let page = report::html::render(summary, &about)?;
        write_file(path, page.as_bytes())?;
    }
    let text = if run.json {
        stats::document::to_string(summary)
    } else if run.csv {
        report::text::csv(summary)
    } else {
        report::text::render(summary, run.detail)
    };
    print(&text)?;
    Ok(Exit::Success)
}

/// Refuses, before reading, an HTML page or a standard output that is one of the inputs: it
/// would replace, or grow, a results file.
fn refuse_clashing_files(run: &StatsRun) -> Result<(), CommandError> {
    let mut files = RunFiles::new();
    files.output("", &Target::Stdout)?;
    if let Some(page) = &run.html {
        files.output("--html", &Target::Path(page.clone()))?;
    }
    for input in &run.inputs {
        let name = input.display().to_string();
        if name == "-" {
            files.input("<stdin>", None)?;
        } else {
            files.input_path(&name, input)?;
        }
        if let Some(summary) = crate::stats::grouping::summary_beside(input) {
            files.input_path(&summary.display().to_string(), &summary)?;
        }
    }
    Ok(())
}
