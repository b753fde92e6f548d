//! The UCI protocol and the console commands (chapters 5 and 15).
//!
//! A [`Session`] holds what the GUI has told the engine (the position, the options) and answers
//! one line at a time: [`Session::handle`] splits the line into a command word and its
//! arguments and calls the method of that command. The protocol is the one Stefan Meyer-Kahlen
//! published with Shredder in 2000 ("Description of the universal chess interface (UCI)",
//! April 2006 revision); the console commands (`d`, `eval`, `perft`, `bench`, `set`,
//! `switches`, `stage`, `help`) are not UCI, they are for people and for the book.
//!
//! One file per concern:
//!
//! - `session`: the state and the UCI commands (`position`, `go`, `stop`, `ponderhit`, ...);
//! - `go`: reading `go`'s parameters and turning them into the search's limits;
//! - `options`: the option table of the `uci` answer, and `setoption`;
//! - `console`: the commands for people;
//! - `worker`: the thread on which searches, `perft` and `bench` run, so the session keeps
//!   reading: `isready` is answered at once, `stop`, `ponderhit` and `quit` reach the job;
//! - `output`: the answers' writer, shared with the worker line by line.
//!
//! The promise to a GUI: **it is never left waiting**. Every `go` is answered by exactly one
//! `bestmove` (`bestmove 0000` when there is no move to give: no legal move, no position, a
//! `go` that cannot be read); `isready` is answered at once; `quit` ends the process at once,
//! whatever runs. Bad input is answered with `info string error: <what is wrong>` (UCI has no
//! error message; GUIs show `info string`) and changes nothing, except a refused `position`,
//! which leaves no position, since the GUI meant another one. No input makes the session panic.

mod console;
mod go;
mod options;
mod output;
mod session;
mod worker;

pub use console::{parse_bench_depth, parse_depth};
pub use go::Go;
pub use options::{DEFAULT_HASH_MB, MAX_HASH_MB};
pub use output::Output;
pub use session::{Flow, Session};
pub use worker::{bestmove_line, info_line};

use std::fmt;
use std::io::{self, BufRead};

/// Why a command failed.
#[derive(Debug)]
enum CommandError {
    /// The input was wrong: reported to the GUI, the state is unchanged.
    Input(String),
    /// Writing the answer failed: the session cannot go on.
    Io(io::Error),
}

impl From<io::Error> for CommandError {
    fn from(error: io::Error) -> CommandError {
        CommandError::Io(error)
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Input(message) => f.write_str(message),
            CommandError::Io(error) => write!(f, "output error: {error}"),
        }
    }
}

/// A bad-input error with `message`.
fn input_error<T>(message: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError::Input(message.into()))
}

/// At most 30 characters of `text`, for an error message.
fn shorten(text: &str) -> String {
    text.chars().take(30).collect()
}

// ANCHOR: run
/// Reads lines from `input` until `quit` or the end of input, answering on `out`. Lines are
/// read as bytes and converted with the bad bytes replaced, so input that is not UTF-8 is
/// answered like any other bad input instead of ending the session.
pub fn run(mut input: impl BufRead, out: Output) -> io::Result<()> {
    let mut session = Session::new(out);
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            session.finish();
            return Ok(());
        }
        let line = String::from_utf8_lossy(&bytes);
        match session.handle(&line) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Quit) => return Ok(()),
            Err(error) => {
                session.end_job(true);
                return Err(error);
            }
        }
    }
}
// ANCHOR_END: run

#[cfg(test)]
mod tests;
