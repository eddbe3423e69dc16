//! The result row's vocabulary shared by everything that writes, counts or reads rows: the
//! statuses of every command and the one tally of rows by status.

mod status;
mod tally;

pub use status::{RateStatus, RowStatus, SolveStatus, Status, UnknownStatus, VerifyStatus};
pub use tally::Tally;
