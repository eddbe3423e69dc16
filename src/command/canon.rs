//! What `canon` adds to the bulk run of [`super::bulk`]: the report of the records `--dedupe`
//! left out (`--duplicates FILE`), written as they come and put in place with the rows.
//!
//! The report is CSV: `line,first_line` (with `file,line,first_file,first_line` when the run
//! reads several inputs), one row per record left out, in input order: its line, and the line of
//! the first record of its class, the one written.

use std::path::Path;

use crate::files::output::Sealed;
use crate::files::{Output, OutputError, Target};
use crate::format::{Cell, csv};

/// The duplicates report being written.
pub struct DuplicateReport {
    output: Output,
    several_inputs: bool,
    bytes: Vec<u8>,
    /// The first write error, reported when the report is sealed.
    failed: Option<std::io::Error>,
    /// Records reported.
    pub count: u64,
}

impl DuplicateReport {
    /// Opens the report at `path` (replaced only when the run completes) and writes its header.
    pub fn open(path: &Path, several_inputs: bool) -> Result<DuplicateReport, OutputError> {
        let columns: &[&str] = if several_inputs {
            &["file", "line", "first_file", "first_line"]
        } else {
            &["line", "first_line"]
        };
        let mut report = DuplicateReport {
            output: Output::open(&Target::Path(path.to_path_buf()))?,
            several_inputs,
            bytes: Vec::new(),
            failed: None,
            count: 0,
        };
        csv::write_row(columns.iter().map(|c| Cell::Text(c)), &mut report.bytes);
        Ok(report)
    }

    /// Adds one record left out.
    pub fn add(&mut self, file: &str, line: u64, first_file: &str, first_line: u64) {
        self.count += 1;
        if self.several_inputs {
            let cells = [
                Cell::Text(file),
                Cell::Int(line),
                Cell::Text(first_file),
                Cell::Int(first_line),
            ];
            csv::write_row(cells, &mut self.bytes);
        } else {
            csv::write_row([Cell::Int(line), Cell::Int(first_line)], &mut self.bytes);
        }
        if self.bytes.len() >= 1 << 16 {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if self.failed.is_none()
            && let Err(e) = self.output.writer().write_all(&self.bytes)
        {
            self.failed = Some(e);
        }
        self.bytes.clear();
    }

    /// Writes out every row and syncs the report, ready to be committed with the rows.
    pub fn seal(mut self) -> Result<Sealed, OutputError> {
        self.flush();
        if let Some(source) = self.failed.take() {
            return Err(OutputError {
                action: "write",
                name: self.output.name().to_string(),
                source,
            });
        }
        self.output.seal()
    }
}
