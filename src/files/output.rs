//! Where result rows go: standard output, or a file that is only replaced when the run completes.
//!
//! For a regular file `OUT` (or a path that does not exist yet), rows are written to
//! `OUT.partial` beside it, which is flushed, synced and renamed over `OUT` at the end. While a
//! run writes it, the partial file is locked, so that two runs cannot write the same one. If the
//! run fails, the partial file and its checkpoint (`OUT.checkpoint`, see [`crate::resume`]) are
//! removed and an existing `OUT` is left untouched; an interrupted run can keep them instead, to
//! be resumed. A symlink to a regular file is followed: the partial file lives beside its target,
//! which is replaced, and the link stays.
//!
//! A path that is not a regular file (`/dev/null`, `/dev/full`, `/dev/stdout`, a FIFO, or a
//! symlink to one) is written directly and never replaced: renaming over a device would destroy
//! it.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::digest::{self, Digest, Hasher};
use super::file_id::FileId;

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

/// The files beside the destination of a replaced output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartialPaths {
    /// The file replaced at the end (the target of a symlink, not the link).
    pub dest: PathBuf,
    /// `DEST.partial`: the rows written so far.
    pub partial: PathBuf,
    /// `DEST.checkpoint`: what a resumed run needs to know about them.
    pub checkpoint: PathBuf,
}

impl PartialPaths {
    /// The partial files of `target`, or `None` when it is written directly (standard output,
    /// a device, a FIFO, or the file standard output is sent to, as `-o /dev/stdout` names it
    /// under `> FILE`). A directory is an error.
    pub fn of(target: &Target) -> Result<Option<PartialPaths>, OutputError> {
        let Target::Path(path) = target else {
            return Ok(None);
        };
        let name = path.to_string_lossy().into_owned();
        // `metadata` follows symlinks: a link to a device is written through, never replaced.
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                let source = io::Error::new(io::ErrorKind::IsADirectory, "is a directory");
                return Err(OutputError {
                    action: "create",
                    name,
                    source,
                });
            }
            Ok(meta) if !meta.is_file() || is_stdout(&meta) => return Ok(None),
            // Links that lead back to themselves name no file: refused, not replaced by one.
            Err(source) if is_link_loop(&source) => {
                return Err(OutputError {
                    action: "create",
                    name,
                    source,
                });
            }
            _ => {}
        }
        // Replace the link's target, not the link; a link to a file not made yet makes it.
        let dest = if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            fs::canonicalize(path).unwrap_or_else(|_| super::file_id::follow_dangling(path))
        } else {
            path.clone()
        };
        let beside = |suffix: &str| {
            let mut name = dest.file_name().unwrap_or_default().to_os_string();
            name.push(suffix);
            dest.with_file_name(name)
        };
        Ok(Some(PartialPaths {
            partial: beside(".partial"),
            checkpoint: beside(".checkpoint"),
            dest,
        }))
    }

    /// Removes the partial file and the checkpoint (and its temporary file), if present.
    pub fn remove(&self) {
        for path in [
            &self.partial,
            &self.checkpoint,
            &temporary(&self.checkpoint),
        ] {
            let _ = fs::remove_file(path);
        }
    }
}

/// Whether `error` says that symbolic links lead back to themselves.
fn is_link_loop(error: &io::Error) -> bool {
    #[cfg(unix)]
    return error.raw_os_error() == Some(libc::ELOOP);
    #[cfg(not(unix))]
    return false;
}

/// Whether `meta` is of the regular file that standard output is sent to.
fn is_stdout(meta: &fs::Metadata) -> bool {
    meta.is_file() && FileId::of_stdout().is_some_and(|out| FileId::of_metadata(meta) == Some(out))
}

/// The temporary file a checkpoint is written to before it is renamed over `path`.
pub fn temporary(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".tmp");
    PathBuf::from(name)
}

/// An open output.
pub struct Output {
    name: String,
    /// The path given, if any.
    path: Option<PathBuf>,
    sink: Destination,
}

enum Destination {
    Stdout(BufWriter<io::Stdout>),
    /// A file that is not regular, written in place.
    Direct(BufWriter<File>),
    /// The partial file, renamed over `paths.dest` by [`Output::finish`].
    Partial {
        file: BufWriter<WritingBack>,
        files: Owned,
    },
}

/// The partial file, whose bytes the system is asked to start writing to disk, without waiting
/// for them, at the first flush (after a chunk) once [`WRITE_BACK`] bytes are waiting: the sync
/// that seals the file then waits for the last few chunks only, and dirty pages do not pile up
/// in memory on a long run.
struct WritingBack {
    file: File,
    /// Where the next byte goes, and the first byte not yet handed to write-back.
    written: u64,
    handed: u64,
    /// The digest of every byte of the file, as written.
    digest: WrittenDigest,
}

impl Write for WritingBack {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        self.written += n as u64;
        // Buffered: one update for each 256 KiB the buffer hands on (XXH3 takes a few
        // microseconds over that).
        self.digest.lock().update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()?;
        if self.written - self.handed >= WRITE_BACK {
            start_write_back(&self.file, self.handed, self.written - self.handed);
            self.handed = self.written;
        }
        Ok(())
    }
}

/// The digest of the bytes written to a partial file, from its first: what a checkpoint records
/// of them, for a resumed run to prove that the bytes it keeps are the bytes written
/// ([`Output::resume`]). Shared between the writer and whoever records checkpoints.
#[derive(Debug, Clone, Default)]
pub struct WrittenDigest(Arc<Mutex<Hasher>>);

impl WrittenDigest {
    fn lock(&self) -> MutexGuard<'_, Hasher> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How many bytes have been written to the file (those flushed out of its buffer), and
    /// their digest.
    pub fn get(&self) -> (u64, Digest) {
        let hasher = self.lock();
        (hasher.len(), hasher.digest())
    }
}

/// Bytes written, at least, for the partial file's write-back to be started at a flush. Each
/// start has a cost of its own (the device is told of the writes, the file's blocks are
/// allocated range by range): starting it after every chunk of 2,048 rows took 4-5% longer on
/// easy and serg sets (one thread).
const WRITE_BACK: u64 = 4 << 20;

/// Asks the system to start writing `len` bytes of `file` from `offset` to disk, not waiting.
/// Advice only: a failure is left for the sync that seals the file to report.
#[cfg(target_os = "linux")]
fn start_write_back(file: &File, offset: u64, len: u64) {
    use std::os::fd::AsRawFd;
    let (Ok(offset), Ok(len)) = (i64::try_from(offset), i64::try_from(len)) else {
        return;
    };
    // SAFETY: a plain system call on a file descriptor this process owns; it reads no memory.
    unsafe {
        libc::sync_file_range(file.as_raw_fd(), offset, len, libc::SYNC_FILE_RANGE_WRITE);
    }
}

#[cfg(not(target_os = "linux"))]
fn start_write_back(_file: &File, _offset: u64, _len: u64) {}

/// The partial files of a run that holds their lock: removed on drop unless kept.
struct Owned {
    paths: PartialPaths,
    keep: bool,
}

impl Drop for Owned {
    fn drop(&mut self) {
        lock_unresumable().retain(|path| *path != self.paths.partial);
        if !self.keep {
            self.paths.remove();
        }
    }
}

/// The partial files of outputs that no checkpoint describes ([`Output::unresumable`]), for
/// [`remove_unresumable`].
static UNRESUMABLE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn lock_unresumable() -> MutexGuard<'static, Vec<PathBuf>> {
    UNRESUMABLE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes the partial files of the outputs being written that no checkpoint describes, for a
/// process that ends at once, without unwinding (a run stopped because it had not stopped by
/// itself after Ctrl-C): nothing could resume them.
pub fn remove_unresumable() {
    for path in lock_unresumable().drain(..) {
        let _ = fs::remove_file(path);
    }
}

/// Why an output could not be opened or completed.
#[derive(Debug, thiserror::Error)]
#[error("cannot {action} {name}: {source}")]
pub struct OutputError {
    /// What was being done: `create`, `write`, `replace` or `resume from`.
    pub action: &'static str,
    /// The output's name (or the partial file's, when opening it failed).
    pub name: String,
    /// The OS error, or what is wrong.
    pub source: io::Error,
}

impl OutputError {
    /// Whether the reader of the output went away (`| head`).
    pub fn is_broken_pipe(&self) -> bool {
        self.source.kind() == io::ErrorKind::BrokenPipe
    }
}

impl Output {
    /// Opens `target` for writing from the start. For a regular file this creates (or empties)
    /// the partial file now, so that an unwritable directory is reported before any work, and
    /// removes a checkpoint left by an earlier run.
    pub fn open(target: &Target) -> Result<Output, OutputError> {
        Output::open_at(target, None)
    }

    /// Opens the partial file of `target` left by an interrupted run, to append to its first
    /// `bytes` bytes (the rest, written after its last checkpoint, is cut off). The partial file
    /// must hold at least that many bytes, ending a row, and they must have `digest`, the
    /// digest of the bytes the interrupted run wrote: they are read back to be checked.
    pub fn resume(target: &Target, bytes: u64, digest: Digest) -> Result<Output, OutputError> {
        Output::open_at(target, Some((bytes, digest)))
    }

    fn open_at(target: &Target, resume_at: Option<(u64, Digest)>) -> Result<Output, OutputError> {
        let path = match target {
            Target::Stdout => {
                return Ok(Output {
                    name: "<stdout>".to_string(),
                    path: None,
                    sink: Destination::Stdout(BufWriter::with_capacity(BUFFER, io::stdout())),
                });
            }
            Target::Path(path) => path,
        };
        let name = path.to_string_lossy().into_owned();
        let Some(paths) = PartialPaths::of(target)? else {
            // Written through standard output itself: opened again, the file would be written
            // from its start, over what came before (and `>>` would not append).
            if fs::metadata(path).is_ok_and(|meta| is_stdout(&meta)) {
                return Ok(Output {
                    name,
                    path: Some(path.clone()),
                    sink: Destination::Stdout(BufWriter::with_capacity(BUFFER, io::stdout())),
                });
            }
            let file = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|source| OutputError {
                    action: "create",
                    name: name.clone(),
                    source,
                })?;
            return Ok(Output {
                name,
                path: Some(path.clone()),
                sink: Destination::Direct(BufWriter::with_capacity(BUFFER, file)),
            });
        };
        let (file, hasher) = open_partial(&paths, resume_at)?;
        let start = hasher.len();
        Ok(Output {
            name,
            path: Some(path.clone()),
            sink: Destination::Partial {
                file: BufWriter::with_capacity(
                    BUFFER,
                    WritingBack {
                        file,
                        written: start,
                        handed: start,
                        digest: WrittenDigest(Arc::new(Mutex::new(hasher))),
                    },
                ),
                // A resumed run's partial file holds an earlier run's work: it stays if this
                // run fails too, as its last checkpoint describes it.
                files: Owned {
                    paths,
                    keep: resume_at.is_some(),
                },
            },
        })
    }

    /// The name used in messages: the path as given, or `<stdout>`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the output is a file replaced at the end (dropping the output abandons it).
    pub fn replaces_file(&self) -> bool {
        matches!(self.sink, Destination::Partial { .. })
    }

    /// The partial files, for an output that replaces a file.
    pub fn partial_paths(&self) -> Option<&PartialPaths> {
        match &self.sink {
            Destination::Partial { files, .. } => Some(&files.paths),
            _ => None,
        }
    }

    /// A second handle on the partial file, to sync it and read its length while rows are
    /// written through [`Output::writer`].
    pub fn partial_file(&self) -> Option<io::Result<File>> {
        match &self.sink {
            Destination::Partial { file, .. } => Some(file.get_ref().file.try_clone()),
            _ => None,
        }
    }

    /// The digest of the bytes written to the partial file (from its first byte, those of an
    /// interrupted run included), for an output that replaces a file.
    pub fn written_digest(&self) -> Option<WrittenDigest> {
        match &self.sink {
            Destination::Partial { file, .. } => Some(file.get_ref().digest.clone()),
            _ => None,
        }
    }

    /// The writer rows go to.
    pub fn writer(&mut self) -> &mut (dyn Write + Send) {
        match &mut self.sink {
            Destination::Stdout(w) => w,
            Destination::Direct(w) => w,
            Destination::Partial { file, .. } => file,
        }
    }

    /// Marks the output as one that no checkpoint describes: a process that ends at once
    /// removes its partial file ([`remove_unresumable`]) instead of leaving it, as it does for
    /// a resumable one.
    pub fn unresumable(&self) {
        if let Destination::Partial { files, .. } = &self.sink
            && !files.keep
        {
            lock_unresumable().push(files.paths.partial.clone());
        }
    }

    /// Leaves the partial file and its checkpoint in place, for a later resume: the rows
    /// written so far are flushed and synced as far as possible (the checkpoint only ever
    /// counts rows that were). Does nothing for other outputs but flush them.
    pub fn keep_partial(mut self) {
        let _ = self.writer().flush();
        if let Destination::Partial { file, files } = &mut self.sink {
            let _ = file.get_ref().file.sync_data();
            files.keep = true;
        }
    }

    /// Completes the output: flushes it, and for a replaced file syncs it, renames it over the
    /// path and removes the checkpoint. Dropping an `Output` without finishing removes the
    /// partial file and the checkpoint, unless the output was resumed.
    pub fn finish(self) -> Result<(), OutputError> {
        self.seal()?.commit()
    }

    /// Writes out every byte and syncs it, but does not put a replaced file in place yet: the
    /// outputs of a run are all sealed before any is committed, so that a failure leaves every
    /// existing file untouched. Dropping the [`Sealed`] output abandons it as dropping an
    /// `Output` does.
    pub fn seal(self) -> Result<Sealed, OutputError> {
        let error = |action, source| OutputError {
            action,
            name: self.name.clone(),
            source,
        };
        let state = match self.sink {
            Destination::Stdout(mut w) => {
                w.flush().map_err(|e| error("write", e))?;
                SealedState::InPlace(None)
            }
            Destination::Direct(w) => {
                let file = w.into_inner().map_err(|e| error("write", e.into_error()))?;
                // Devices and pipes may not support syncing; their data is handed over anyway.
                let _ = file.sync_all();
                SealedState::InPlace(self.path)
            }
            Destination::Partial { file, files } => {
                let file = file
                    .into_inner()
                    .map_err(|e| error("write", e.into_error()))?
                    .file;
                file.sync_all().map_err(|e| error("write", e))?;
                SealedState::Partial { file, files }
            }
        };
        Ok(Sealed {
            name: self.name,
            state,
        })
    }
}

/// An output written out and synced, waiting to be put in place ([`Output::seal`]).
pub struct Sealed {
    name: String,
    state: SealedState,
}

enum SealedState {
    /// Written where it goes already (standard output, a device): its path, if it has one.
    InPlace(Option<PathBuf>),
    /// The partial file, renamed over its destination by [`Sealed::commit`].
    Partial { file: File, files: Owned },
}

impl Sealed {
    /// The output's name, for messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where the bytes are now (the partial file of a replaced output), to be read back;
    /// `None` for standard output.
    pub fn written_path(&self) -> Option<&Path> {
        match &self.state {
            SealedState::InPlace(path) => path.as_deref(),
            SealedState::Partial { files, .. } => Some(&files.paths.partial),
        }
    }

    /// Puts the output in place: renames a partial file over its destination and removes the
    /// checkpoint.
    pub fn commit(self) -> Result<(), OutputError> {
        let SealedState::Partial { file, mut files } = self.state else {
            return Ok(());
        };
        let paths = &files.paths;
        fs::rename(&paths.partial, &paths.dest).map_err(|source| OutputError {
            action: "replace",
            name: self.name.clone(),
            source,
        })?;
        // The rows are in place: from here on nothing may remove them.
        files.keep = true;
        sync_dir(&paths.dest);
        let _ = fs::remove_file(&paths.checkpoint);
        drop(file);
        Ok(())
    }
}

/// Opens and locks the partial file; empties it for a fresh run (removing an old checkpoint), or
/// cuts it to the bytes of `resume_at` after checking it holds them, with their digest. Also
/// returns the digest of the bytes kept, to go on with.
fn open_partial(
    paths: &PartialPaths,
    resume_at: Option<(u64, Digest)>,
) -> Result<(File, Hasher), OutputError> {
    let partial_name = paths.partial.to_string_lossy().into_owned();
    let action = if resume_at.is_some() {
        "resume from"
    } else {
        "create"
    };
    let fail = |source: io::Error| OutputError {
        action,
        name: partial_name.clone(),
        source,
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(resume_at.is_none())
        .truncate(false)
        .open(&paths.partial)
        .map_err(|e| {
            missing_directory(&paths.dest, &e).unwrap_or_else(|| match resume_at {
                // The checkpoint is there but the rows it counts are not: nothing to resume.
                Some(_) if e.kind() == io::ErrorKind::NotFound => fail(io::Error::new(
                    io::ErrorKind::NotFound,
                    "it does not exist (its checkpoint does); run without --resume to start over",
                )),
                _ => fail(e),
            })
        })?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            return Err(fail(io::Error::new(
                io::ErrorKind::WouldBlock,
                "another run is writing it",
            )));
        }
        // A file system without locks: go on without one.
        Err(TryLockError::Error(_)) => {}
    }
    // From here on the files are this run's: a failure below removes them.
    let mut owned = Owned {
        paths: paths.clone(),
        keep: false,
    };
    let mut kept = Hasher::default();
    match resume_at {
        None => {
            file.set_len(0).map_err(fail)?;
            for old in [&paths.checkpoint, &temporary(&paths.checkpoint)] {
                match fs::remove_file(old) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(fail(e)),
                    _ => {}
                }
            }
            if let Ok(meta) = fs::metadata(&paths.dest) {
                // Keep the permissions of the file being replaced.
                let _ = file.set_permissions(meta.permissions());
            }
        }
        Some((bytes, digest)) => {
            // The partial file stays as it is whatever happens: it is an earlier run's work.
            owned.keep = true;
            kept = check_partial(&mut file, bytes, digest).map_err(fail)?;
            file.set_len(bytes).map_err(fail)?;
        }
    }
    file.seek(SeekFrom::End(0)).map_err(fail)?;
    owned.keep = true;
    Ok((file, kept))
}

/// The error of a file that cannot be created at `dest` because its directory does not
/// exist, naming that directory (rather than the partial file the user never named).
fn missing_directory(dest: &Path, error: &io::Error) -> Option<OutputError> {
    if error.kind() != io::ErrorKind::NotFound {
        return None;
    }
    let dir = dest.parent().filter(|d| !d.as_os_str().is_empty())?;
    if dir.is_dir() {
        return None;
    }
    Some(OutputError {
        action: "create",
        name: dest.to_string_lossy().into_owned(),
        source: io::Error::new(
            io::ErrorKind::NotFound,
            format!("there is no directory {}", dir.display()),
        ),
    })
}

/// Checks that `file` holds at least `bytes` bytes, that they end a row and that they have
/// `digest` (read back: the time it takes is bounded by the file's size); returns their hasher.
fn check_partial(file: &mut File, bytes: u64, digest: Digest) -> io::Result<Hasher> {
    let len = file.metadata()?.len();
    if len < bytes {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "it holds {len} bytes, fewer than the {bytes} its checkpoint records; run \
                 without --resume to start over"
            ),
        ));
    }
    if bytes > 0 {
        let mut last = [0];
        file.seek(SeekFrom::Start(bytes - 1))?;
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "byte {bytes} does not end a row, as its checkpoint says it does; run \
                     without --resume to start over"
                ),
            ));
        }
    }
    file.seek(SeekFrom::Start(0))?;
    let hasher = digest::hasher_of_prefix(&mut io::BufReader::with_capacity(BUFFER, file), bytes)?;
    if hasher.digest() != digest {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "its first {bytes} bytes are not the rows the interrupted run wrote (they changed \
                 since: their digest is not the one its checkpoint records); run without \
                 --resume to start over"
            ),
        ));
    }
    Ok(hasher)
}

/// Makes the creation, renaming or removal of files in the directory of `path` durable, where the
/// system allows syncing a directory.
pub fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let _ = File::open(dir).and_then(|d| d.sync_all());
    }
}

/// Writes a whole file the way `-o` writes rows: to `PATH.partial`, renamed over `path` only
/// once complete.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    sealed_file(path, bytes)?.commit()
}

/// Writes a whole file to `PATH.partial` and seals it, to be put in place by
/// [`Sealed::commit`] (see [`Output::seal`]).
pub fn sealed_file(path: &Path, bytes: &[u8]) -> Result<Sealed, OutputError> {
    let mut output = Output::open(&Target::Path(path.to_path_buf()))?;
    let name = output.name().to_string();
    output
        .writer()
        .write_all(bytes)
        .map_err(|source| OutputError {
            action: "write",
            name,
            source,
        })?;
    output.seal()
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
    fn a_second_writer_of_the_same_output_is_refused_and_removes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let target = Target::Path(dir.path().join("out.csv"));
        let mut first = Output::open(&target).unwrap();
        first.writer().write_all(b"rows\n").unwrap();
        let err = Output::open(&target).err().unwrap();
        assert!(
            err.to_string()
                .ends_with("out.csv.partial: another run is writing it")
        );
        first.finish().unwrap();
        assert_eq!(fs::read(dir.path().join("out.csv")).unwrap(), b"rows\n");
    }

    #[test]
    fn a_fresh_output_removes_an_old_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("out.csv.partial"), b"old rows\n").unwrap();
        fs::write(dir.path().join("out.csv.checkpoint"), b"{}").unwrap();
        let out = Output::open(&Target::Path(dir.path().join("out.csv"))).unwrap();
        assert_eq!(entries(dir.path()), ["out.csv.partial"]);
        assert_eq!(fs::read(dir.path().join("out.csv.partial")).unwrap(), b"");
        drop(out);
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn a_resumed_output_appends_after_the_checkpointed_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let target = Target::Path(dir.path().join("out.csv"));
        fs::write(
            dir.path().join("out.csv.partial"),
            b"h\nrow 1\nrow 2 cut sh",
        )
        .unwrap();
        fs::write(dir.path().join("out.csv.checkpoint"), b"{}").unwrap();
        let mut out = Output::resume(&target, 8, digest::of(b"h\nrow 1\n")).unwrap();
        out.writer().write_all(b"row 2\n").unwrap();
        // The digest goes on from the bytes kept.
        out.writer().flush().unwrap();
        let written = out.written_digest().unwrap().get();
        assert_eq!(written, (14, digest::of(b"h\nrow 1\nrow 2\n")));
        out.finish().unwrap();
        assert_eq!(
            fs::read(dir.path().join("out.csv")).unwrap(),
            b"h\nrow 1\nrow 2\n"
        );
        assert_eq!(entries(dir.path()), ["out.csv"]);
    }

    #[test]
    fn a_resumed_output_that_fails_keeps_its_files() {
        let dir = tempfile::tempdir().unwrap();
        let target = Target::Path(dir.path().join("out.csv"));
        fs::write(dir.path().join("out.csv.partial"), b"h\nrow 1\n").unwrap();
        fs::write(dir.path().join("out.csv.checkpoint"), b"{}").unwrap();
        let mut out = Output::resume(&target, 8, digest::of(b"h\nrow 1\n")).unwrap();
        out.writer().write_all(b"row 2\n").unwrap();
        drop(out);
        assert_eq!(
            entries(dir.path()),
            ["out.csv.checkpoint", "out.csv.partial"]
        );
    }

    #[test]
    fn a_partial_file_that_does_not_match_its_checkpoint_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let target = Target::Path(dir.path().join("out.csv"));
        let any = digest::of(b"");
        let err = Output::resume(&target, 8, any).err().unwrap();
        assert_eq!(err.source.kind(), io::ErrorKind::NotFound);
        fs::write(dir.path().join("out.csv.partial"), b"h\nrow 1\n").unwrap();
        let err = Output::resume(&target, 9, any).err().unwrap();
        assert!(
            err.to_string().ends_with(
                "out.csv.partial: it holds 8 bytes, fewer than the 9 its checkpoint records; \
                 run without --resume to start over"
            ),
            "{err}"
        );
        let err = Output::resume(&target, 5, any).err().unwrap();
        assert!(
            err.to_string().ends_with(
                "byte 5 does not end a row, as its checkpoint says it does; run without \
                 --resume to start over"
            ),
            "{err}"
        );
        assert_eq!(
            fs::read(dir.path().join("out.csv.partial")).unwrap(),
            b"h\nrow 1\n"
        );
    }

    #[test]
    fn a_changed_partial_file_is_refused_by_its_digest() {
        let dir = tempfile::tempdir().unwrap();
        let target = Target::Path(dir.path().join("out.csv"));
        let written = b"h\nrow 1\nrow 2\n";
        // One byte changed inside the rows the checkpoint covers, the length kept.
        fs::write(dir.path().join("out.csv.partial"), b"h\nrow 7\nrow 2\nmore").unwrap();
        let err = Output::resume(&target, 14, digest::of(written))
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.starts_with(&format!(
                "cannot resume from {}: its first 14 bytes are not the rows the interrupted \
                 run wrote",
                dir.path().join("out.csv.partial").display()
            )),
            "{err}"
        );
        assert!(err.ends_with("run without --resume to start over"), "{err}");
        // Nothing was cut or removed.
        assert_eq!(
            fs::read(dir.path().join("out.csv.partial")).unwrap(),
            b"h\nrow 7\nrow 2\nmore"
        );
    }

    #[test]
    fn a_kept_partial_output_stays() {
        let dir = tempfile::tempdir().unwrap();
        let mut out = Output::open(&Target::Path(dir.path().join("out.csv"))).unwrap();
        out.writer().write_all(b"h\n").unwrap();
        out.keep_partial();
        assert_eq!(
            fs::read(dir.path().join("out.csv.partial")).unwrap(),
            b"h\n"
        );
    }

    #[test]
    fn a_missing_directory_fails_at_open_and_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/out.csv");
        let err = Output::open(&Target::Path(path.clone())).err().unwrap();
        assert_eq!(err.action, "create");
        assert_eq!(err.source.kind(), io::ErrorKind::NotFound);
        assert_eq!(
            err.to_string(),
            format!(
                "cannot create {}: there is no directory {}",
                path.display(),
                dir.path().join("no/such").display()
            )
        );
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
