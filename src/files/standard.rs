//! Whether the caller closed standard output (`>&-`) or input (`<&-`): results written there
//! would be lost while the run reports success, and a closed input would read as empty, so a
//! command whose results go to a closed standard output, or that reads a closed standard input,
//! refuses to start.
//!
//! The Rust runtime opens `/dev/null` (read-write) on every standard stream that is closed when
//! the process starts, before `main`, so that no file the run opens can take its number; writes
//! to it then succeed and vanish. A stream redirected by a shell to `/dev/null` (`> /dev/null`)
//! is opened write-only, so a standard output that is `/dev/null` open for reading and writing
//! is the runtime's stand-in for a closed one. Linux tells a descriptor's open mode in
//! `/proc/self/fdinfo`; elsewhere a closed standard output is not detected.

use std::io;

/// Whether standard output was closed when the process started (see the module page).
pub fn stdout_closed() -> bool {
    #[cfg(target_os = "linux")]
    {
        stand_in_for_closed(1, &io::stdout())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = io::stdout();
        false
    }
}

/// Whether standard input was closed when the process started (see the module page): it would
/// read as empty, and a run would replace its output with no rows.
pub fn stdin_closed() -> bool {
    #[cfg(target_os = "linux")]
    {
        stand_in_for_closed(0, &io::stdin())
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// Whether descriptor `fd` (the stream `stream`) is `/dev/null` open for reading and writing.
#[cfg(target_os = "linux")]
fn stand_in_for_closed(fd: u32, stream: &impl std::os::fd::AsFd) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    /// `O_ACCMODE` and `O_RDWR` of Linux.
    const ACCESS_MODE: u32 = 0o3;
    const READ_WRITE: u32 = 0o2;
    let Ok(info) = std::fs::read_to_string(format!("/proc/self/fdinfo/{fd}")) else {
        return false;
    };
    let flags = info
        .lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok());
    if flags.is_none_or(|f| f & ACCESS_MODE != READ_WRITE) {
        return false;
    }
    let Ok(own) = stream.as_fd().try_clone_to_owned() else {
        return true;
    };
    let (Ok(own), Ok(null)) = (
        std::fs::File::from(own).metadata(),
        std::fs::metadata("/dev/null"),
    ) else {
        return false;
    };
    own.file_type().is_char_device() && own.rdev() == null.rdev()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn dev_null_open_for_writing_only_is_not_a_closed_stream() {
        let null = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/null")
            .unwrap();
        use std::os::fd::AsRawFd;
        let fd = null.as_raw_fd() as u32;
        assert!(!stand_in_for_closed(fd, &null));
        let both = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/null")
            .unwrap();
        let fd = both.as_raw_fd() as u32;
        assert!(stand_in_for_closed(fd, &both));
        let file = tempfile::tempfile().unwrap();
        assert!(!stand_in_for_closed(file.as_raw_fd() as u32, &file));
    }
}
