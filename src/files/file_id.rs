//! Which file on disk a path or a standard stream names, so that a run can refuse, before it
//! writes anything, to write one file twice or to write over what it reads.
//!
//! A run's outputs (`-o OUT`, `--summary FILE`, the rows on standard output, `merge`'s `OUT`)
//! are each registered in [`RunFiles`] with the files a replaced output writes beside it
//! (`OUT.partial`, `OUT.checkpoint`); then every input is checked against them. Two names are
//! one file when they lead to the same inode (through symlinks, hard links, `/dev/stdout` or
//! `/dev/fd/N`), or, for a file that does not exist yet, to the same absolute path once the
//! symlinks of its directory are resolved. Devices (`/dev/null`, `/dev/full`, a terminal) may be
//! written twice and read too: nothing stored in them can be lost.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use super::output::{PartialPaths, Target};

/// The file a name leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileId {
    /// An existing file: its device and inode, and whether it is a device (which may be
    /// written by several outputs).
    Inode {
        /// The device holding the file.
        dev: u64,
        /// The file's inode number.
        ino: u64,
        /// Whether it is a character or block device.
        device: bool,
    },
    /// A file that does not exist yet: its absolute path, symlinks resolved as far as they
    /// lead.
    Path(PathBuf),
}

impl FileId {
    /// The file `path` names.
    pub fn of_path(path: &Path) -> FileId {
        match fs::metadata(path) {
            Ok(meta) => FileId::of_metadata(&meta).unwrap_or_else(|| FileId::Path(absolute(path))),
            Err(_) => FileId::Path(absolute(&follow_dangling(path))),
        }
    }

    /// The file open as `file`.
    pub fn of_file(file: &File) -> Option<FileId> {
        FileId::of_metadata(&file.metadata().ok()?)
    }

    /// The file standard output is (`None` when it cannot be told, or it is closed).
    pub fn of_stdout() -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            let fd = io::stdout().as_fd().try_clone_to_owned().ok()?;
            FileId::of_file(&File::from(fd))
        }
        #[cfg(not(unix))]
        None
    }

    /// The file standard input is (`None` when it cannot be told, or it is closed).
    pub fn of_stdin() -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
            FileId::of_file(&File::from(fd))
        }
        #[cfg(not(unix))]
        None
    }

    #[cfg(unix)]
    pub(super) fn of_metadata(meta: &fs::Metadata) -> Option<FileId> {
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        let kind = meta.file_type();
        Some(FileId::Inode {
            dev: meta.dev(),
            ino: meta.ino(),
            device: kind.is_char_device() || kind.is_block_device(),
        })
    }

    #[cfg(not(unix))]
    pub(super) fn of_metadata(_meta: &fs::Metadata) -> Option<FileId> {
        None
    }

    /// Whether writing through one name and reading or writing through the other could lose
    /// data: the same file, unless it is a device.
    fn clashes_with(&self, other: &FileId) -> bool {
        match (self, other) {
            (FileId::Inode { device: true, .. }, _) | (_, FileId::Inode { device: true, .. }) => {
                false
            }
            _ => self == other,
        }
    }
}

/// The target of `path` when it is a symlink to a file that does not exist yet (followed as
/// far as the links go), else `path`.
pub(super) fn follow_dangling(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    // As many links as the kernel follows before it gives up (ELOOP).
    for _ in 0..40 {
        match fs::read_link(&path) {
            Ok(target) => {
                path = match path.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                }
            }
            Err(_) => break,
        }
    }
    path
}

/// `path` made absolute, its directory's symlinks resolved when the directory exists.
fn absolute(path: &Path) -> PathBuf {
    let whole = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (whole.parent(), whole.file_name()) {
        (Some(dir), Some(name)) => match fs::canonicalize(dir) {
            Ok(dir) => dir.join(name),
            Err(_) => whole,
        },
        _ => whole,
    }
}

/// Two names of a run that are one file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Clash {
    /// Two outputs are one file: the second would replace the first.
    #[error(
        "{first} and {second} are the same file: one would replace the other; give each output its own path"
    )]
    Outputs {
        /// The output registered first, by role (`-o out.csv`).
        first: String,
        /// The other.
        second: String,
    },
    /// An output is one of the inputs.
    #[error(
        "{output} is an input of the run: write the output to another file{}",
        input_named(.output, .input)
    )]
    OverInput {
        /// The output, by role.
        output: String,
        /// The input, as named.
        input: String,
    },
}

/// ` (it is NAME)` when the output's role does not already end with the input's name.
fn input_named(output: &str, input: &str) -> String {
    if output.ends_with(input) {
        String::new()
    } else {
        format!(" (it is {input})")
    }
}

/// The files one run writes, each with the role that names it in messages.
#[derive(Debug, Default)]
pub struct RunFiles {
    written: Vec<(String, FileId)>,
}

impl RunFiles {
    /// No file yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an output at `target` named `role` in messages (`-o`, `--summary`); for a file
    /// replaced at the end, its partial file and checkpoint too. Refused when it is a file
    /// already added.
    pub fn output(&mut self, role: &str, target: &Target) -> Result<(), Clash> {
        let path = match target {
            Target::Stdout => {
                return match FileId::of_stdout() {
                    Some(id) => self.add("standard output".to_string(), id),
                    None => Ok(()),
                };
            }
            Target::Path(path) => path,
        };
        let name = format!("{role} {}", path.display());
        self.add(name.clone(), FileId::of_path(path))?;
        // A directory or an unusable path is reported when the output is opened.
        if let Ok(Some(beside)) = PartialPaths::of(target) {
            for (file, what) in [
                (&beside.partial, "partial"),
                (&beside.checkpoint, "checkpoint"),
            ] {
                let role = format!("{} (the {what} file of {name})", file.display());
                self.add(role, FileId::of_path(file))?;
            }
        }
        Ok(())
    }

    fn add(&mut self, role: String, id: FileId) -> Result<(), Clash> {
        if let Some((first, _)) = self.written.iter().find(|(_, seen)| seen.clashes_with(&id)) {
            return Err(Clash::Outputs {
                first: first.clone(),
                second: role,
            });
        }
        self.written.push((role, id));
        Ok(())
    }

    /// Checks that the input named `name`, open as `file` (`None`: standard input), is none of
    /// the files written.
    pub fn input(&self, name: &str, file: Option<&File>) -> Result<(), Clash> {
        let id = match file {
            Some(file) => FileId::of_file(file),
            None => FileId::of_stdin(),
        };
        self.input_id(name, id)
    }

    /// Checks that the input at `path` is none of the files written. The path is not opened:
    /// opening and closing a named pipe would throw away what its writer sent.
    pub fn input_path(&self, name: &str, path: &Path) -> Result<(), Clash> {
        match fs::metadata(path) {
            Ok(meta) => self.input_id(name, FileId::of_metadata(&meta)),
            // An input that cannot be found is reported when it is read.
            Err(_) => Ok(()),
        }
    }

    /// Checks that the file `--regions` read its layout from, if any, is none of the files
    /// written.
    pub fn layout_file(&self, path: Option<&Path>) -> Result<(), Clash> {
        match path {
            Some(path) => self.input_path(&format!("--regions {}", path.display()), path),
            None => Ok(()),
        }
    }

    fn input_id(&self, name: &str, id: Option<FileId>) -> Result<(), Clash> {
        let Some(id) = id else { return Ok(()) };
        match self.written.iter().find(|(_, out)| out.clashes_with(&id)) {
            Some((output, _)) => Err(Clash::OverInput {
                output: output.clone(),
                input: name.to_string(),
            }),
            None => Ok(()),
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn target(dir: &Path, name: &str) -> Target {
        Target::Path(dir.join(name))
    }

    #[test]
    fn two_outputs_at_one_path_clash_whether_or_not_it_exists() {
        let dir = tempfile::tempdir().unwrap();
        let mut files = RunFiles::new();
        files.output("-o", &target(dir.path(), "out.csv")).unwrap();
        let err = files
            .output("--summary", &target(dir.path(), "out.csv"))
            .unwrap_err();
        assert!(matches!(err, Clash::Outputs { .. }), "{err}");
        std::fs::write(dir.path().join("x"), "").unwrap();
        let mut files = RunFiles::new();
        files.output("-o", &target(dir.path(), "x")).unwrap();
        assert!(files.output("--summary", &target(dir.path(), "x")).is_err());
    }

    #[test]
    fn links_and_relative_names_lead_to_the_same_file() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.csv");
        std::fs::write(&real, "").unwrap();
        std::fs::hard_link(&real, dir.path().join("hard.csv")).unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("soft.csv")).unwrap();
        std::os::unix::fs::symlink("new.csv", dir.path().join("dangling.csv")).unwrap();
        for (a, b) in [
            ("real.csv", "hard.csv"),
            ("real.csv", "soft.csv"),
            ("dangling.csv", "new.csv"),
            ("sub/../new.csv", "new.csv"),
        ] {
            std::fs::create_dir_all(dir.path().join("sub")).unwrap();
            let mut files = RunFiles::new();
            files.output("-o", &target(dir.path(), a)).unwrap();
            assert!(
                files.output("--summary", &target(dir.path(), b)).is_err(),
                "{a} and {b}"
            );
        }
    }

    #[test]
    fn an_output_over_another_ones_partial_file_clashes() {
        let dir = tempfile::tempdir().unwrap();
        let mut files = RunFiles::new();
        files.output("-o", &target(dir.path(), "out.csv")).unwrap();
        let err = files
            .output("--summary", &target(dir.path(), "out.csv.checkpoint"))
            .unwrap_err();
        assert!(
            err.to_string().contains("(the checkpoint file of -o "),
            "{err}"
        );
    }

    #[test]
    fn devices_may_be_written_twice_and_read() {
        let mut files = RunFiles::new();
        let null = Target::Path("/dev/null".into());
        files.output("-o", &null).unwrap();
        files.output("--summary", &null).unwrap();
        files
            .input_path("/dev/null", Path::new("/dev/null"))
            .unwrap();
    }

    #[test]
    fn an_input_that_is_an_output_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.txt");
        std::fs::write(&input, "").unwrap();
        let mut files = RunFiles::new();
        files.output("-o", &target(dir.path(), "out.csv")).unwrap();
        files.input_path("in.txt", &input).unwrap();
        files
            .output("--summary", &Target::Path(input.clone()))
            .unwrap();
        let err = files.input_path("the-input", &input).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "--summary {} is an input of the run: write the output to another file (it is the-input)",
                input.display()
            )
        );
    }
}
