//! The documented exit codes of the binary.

/// How a run ended, as the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exit {
    /// 0: every record was processed (and, for verify, every record is `ok`).
    Success,
    /// 1: `verify` found a record that is not `ok`, or `--strict` and a record is not `solved`
    /// (solve) or not `rated` (rate).
    Failures,
    /// 2: usage error, unreadable input, write error, or a solver bug caught by the verifier.
    Error,
    /// 130: interrupted (Ctrl-C).
    Interrupted,
}

impl Exit {
    /// The numeric code.
    pub fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::Failures => 1,
            Exit::Error => 2,
            Exit::Interrupted => 130,
        }
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        std::process::ExitCode::from(exit.code())
    }
}
