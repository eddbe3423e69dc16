//! Where result rows go: standard output, or a file that is only replaced when the run completes.
//!
//! For a regular file (or a path that does not exist yet), rows are written to a temporary file
//! in the same directory, which is flushed, synced and renamed over the path at the end; if the
//! run fails, the temporary file is removed and an existing file is left untouched. A path that
//! is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO, or a symlink to one) is written
//! directly and never replaced: renaming over a device would destroy it.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Buffer size of the writing side.
const BUFFER: usize = 256 * 1024;

/// Where the rows of a run go.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Target {
    /// Standard output.
    #[default]
    Stdout,
    /// A path given with `-o`.
    Path(PathBuf),
}

/// An open output.
pub struct Output {
    name: String,
    sink: Sink,
}

enum Sink {
    Stdout(BufWriter<io::Stdout>),
    /// A file that is not regular, written in place.
    Direct(BufWriter<File>),
    /// A temporary file renamed over `dest` by [`Output::finish`].
    Replace {
        file: BufWriter<File>,
        temp: TempPath,
        dest: PathBuf,
    },
}

/// Why an output could not be opened or completed.
#[derive(Debug, thiserror::Error)]
#[error("cannot {action} {name}: {source}")]
pub struct OutputError {
    /// What was being done: `create`, `write` or `replace`.
    pub action: &'static str,
    /// The output's name (or the temporary file's, when creating it failed).
    pub name: String,
    /// The OS error.
    pub source: io::Error,
}

impl OutputError {
    /// Whether the reader of the output went away (`| head`).
    pub fn is_broken_pipe(&self) -> bool {
        self.source.kind() == io::ErrorKind::BrokenPipe
    }
}

impl Output {
    /// Opens `target` for writing. For a regular file this creates the temporary file now, so
    /// that an unwritable directory is reported before any work.
    pub fn open(target: &Target) -> Result<Output, OutputError> {
        let path = match target {
            Target::Stdout => {
                return Ok(Output {
                    name: "<stdout>".to_string(),
                    sink: Sink::Stdout(BufWriter::with_capacity(BUFFER, io::stdout())),
                });
            }
            Target::Path(path) => path,
        };
        let name = path.to_string_lossy().into_owned();
        let create_error = |name: String, source| OutputError {
            action: "create",
            name,
            source,
        };
        // `metadata` follows symlinks: a link to a device is written through, never replaced.
        match fs::metadata(path) {
            Ok(meta) if !meta.is_file() && !meta.is_dir() => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(|e| create_error(name.clone(), e))?;
                return Ok(Output {
                    name,
                    sink: Sink::Direct(BufWriter::with_capacity(BUFFER, file)),
                });
            }
            Ok(meta) if meta.is_dir() => {
                let source = io::Error::new(io::ErrorKind::IsADirectory, "is a directory");
                return Err(create_error(name, source));
            }
            _ => {}
        }
        // Replace the link's target, not the link.
        let dest = if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            fs::canonicalize(path).unwrap_or_else(|_| path.clone())
        } else {
            path.clone()
        };
        let (file, temp) = TempPath::create(&dest).map_err(|(temp, e)| create_error(temp, e))?;
        if let Ok(meta) = fs::metadata(&dest) {
            // Keep the permissions of the file being replaced.
            let _ = file.set_permissions(meta.permissions());
        }
        Ok(Output {
            name,
            sink: Sink::Replace {
                file: BufWriter::with_capacity(BUFFER, file),
                temp,
                dest,
            },
        })
    }

    /// The name used in messages: the path as given, or `<stdout>`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the output is a file replaced at the end (dropping the output abandons it).
    pub fn replaces_file(&self) -> bool {
        matches!(self.sink, Sink::Replace { .. })
    }

    /// The writer rows go to.
    pub fn writer(&mut self) -> &mut dyn Write {
        match &mut self.sink {
            Sink::Stdout(w) => w,
            Sink::Direct(w) => w,
            Sink::Replace { file, .. } => file,
        }
    }

    /// Completes the output: flushes it, and for a replaced file syncs it and renames it over
    /// the path. Dropping an `Output` without finishing removes the temporary file.
    pub fn finish(self) -> Result<(), OutputError> {
        let error = |action, source| OutputError {
            action,
            name: self.name.clone(),
            source,
        };
        match self.sink {
            Sink::Stdout(mut w) => w.flush().map_err(|e| error("write", e)),
            Sink::Direct(w) => {
                let file = w.into_inner().map_err(|e| error("write", e.into_error()))?;
                // Devices and pipes may not support syncing; their data is handed over anyway.
                let _ = file.sync_all();
                Ok(())
            }
            Sink::Replace { file, temp, dest } => {
                let file = file
                    .into_inner()
                    .map_err(|e| error("write", e.into_error()))?;
                file.sync_all().map_err(|e| error("write", e))?;
                drop(file);
                fs::rename(&temp.path, &dest).map_err(|e| error("replace", e))?;
                temp.keep();
                if let Some(dir) = dest.parent() {
                    // Make the rename itself durable; not every system allows syncing a directory.
                    let dir = if dir.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        dir
                    };
                    let _ = File::open(dir).and_then(|d| d.sync_all());
                }
                Ok(())
            }
        }
    }
}

/// A temporary file's path, removed on drop unless kept.
struct TempPath {
    path: PathBuf,
    keep: bool,
}

impl TempPath {
    /// Creates `.NAME.PID.N.tmp` beside `dest`, with a fresh `N`.
    fn create(dest: &Path) -> Result<(File, TempPath), (String, io::Error)> {
        let dir = dest.parent().unwrap_or(Path::new(""));
        let base = dest
            .file_name()
            .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
        for n in 0u32.. {
            let path = dir.join(format!(".{base}.{}.{n}.tmp", std::process::id()));
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => return Ok((file, TempPath { path, keep: false })),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => continue,
                Err(e) => return Err((path.to_string_lossy().into_owned(), e)),
            }
        }
        unreachable!("the loop returns")
    }

    fn keep(mut self) {
        self.keep = true;
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        if !self.keep {
            let _ = fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_appears_only_when_finished() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let mut out = Output::open(&Target::Path(path.clone())).unwrap();
        out.writer().write_all(b"rows\n").unwrap();
        assert!(!path.exists());
        out.finish().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"rows\n");
        assert_eq!(entries(dir.path()), ["out.csv"]);
    }

    #[test]
    fn an_unfinished_output_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        fs::write(&path, b"old\n").unwrap();
        let mut out = Output::open(&Target::Path(path.clone())).unwrap();
        out.writer().write_all(b"new\n").unwrap();
        drop(out);
        assert_eq!(fs::read(&path).unwrap(), b"old\n");
        assert_eq!(entries(dir.path()), ["out.csv"]);
    }

    #[test]
    fn a_missing_directory_fails_at_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/out.csv");
        let err = Output::open(&Target::Path(path)).err().unwrap();
        assert_eq!(err.action, "create");
        assert_eq!(err.source.kind(), io::ErrorKind::NotFound);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_to_a_file_replaces_the_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.csv");
        fs::write(&target, b"old\n").unwrap();
        let link = dir.path().join("link.csv");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let mut out = Output::open(&Target::Path(link.clone())).unwrap();
        out.writer().write_all(b"new\n").unwrap();
        out.finish().unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&target).unwrap(), b"new\n");
    }
}
