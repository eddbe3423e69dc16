//! The progress bar on stderr: records done, their rate, and an ETA from the input bytes read when
//! the input's size is known. Hidden when stderr is not a terminal or with `--quiet`.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress display, possibly hidden.
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    /// Records written by the interrupted run this one resumes: shown in the count, not in the
    /// rate.
    resumed: u64,
}

impl Progress {
    /// A bar over `total_bytes` of input (a spinner when unknown), shown only when `visible`
    /// and stderr is a terminal; `resumed` records were written by an interrupted run before.
    pub fn new(total_bytes: Option<u64>, visible: bool, resumed: u64) -> Progress {
        let started = Instant::now();
        if !visible || !std::io::stderr().is_terminal() {
            return Progress {
                bar: ProgressBar::hidden(),
                started,
                resumed,
            };
        }
        let bar = match total_bytes {
            Some(total) => ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                .with_style(
                    ProgressStyle::with_template(
                        "{spinner} {elapsed_precise} [{wide_bar}] {percent:>3}% {msg} ETA {eta}",
                    )
                    .expect("a valid template")
                    .progress_chars("=> "),
                ),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .expect("a valid template"),
            ),
        };
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress {
            bar,
            started,
            resumed,
        }
    }

    /// Records done so far by this run, and input bytes read so far.
    pub fn update(&self, records: u64, bytes: u64) {
        if self.bar.is_hidden() {
            return;
        }
        let seconds = self.started.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            records as f64 / seconds
        } else {
            0.0
        };
        self.bar.set_position(bytes);
        let done = self.resumed + records;
        self.bar.set_message(format!("{done} records, {rate:.0}/s"));
    }

    /// Runs `f` (which prints to stderr) with the bar cleared, and redraws it after.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
