//! The UCI protocol and console commands (chapter 5 starts it; later chapters extend it).
//!
//! A [`Session`] holds what the GUI has told the engine (for now, the position) and answers one
//! line at a time: [`Session::handle`] splits the line into a command word and its arguments
//! and calls the method of that command. Bad input never changes the state: it is answered with
//! `info string error: <what is wrong>` (UCI has no error message; GUIs show `info string`).
//! To add a command, write its method and add a line to the `match` in `handle`.

use crate::perft;
use crate::position::Position;
use std::fmt;
use std::io::{self, BufRead, Write};

/// What the caller should do after a line was handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was received: stop.
    Quit,
}

/// Why a command failed.
#[derive(Debug)]
pub enum CommandError {
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

/// The engine's state between commands.
#[derive(Debug)]
pub struct Session {
    position: Position,
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    /// A session at the start position.
    pub fn new() -> Session {
        Session {
            position: Position::startpos(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Handles one line of input, writing the answer to `out`. Errors in the input are
    /// answered on `out`; only a failure to write is returned as an error.
    pub fn handle(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Ok(Flow::Continue);
        };
        let result = match command {
            "quit" => return Ok(Flow::Quit),
            "uci" => self.uci(out),
            "isready" => self.isready(out),
            "ucinewgame" => Ok(()),
            "position" => self.set_position(args),
            "perft" => self.perft(args, out),
            "d" => self.display(out),
            _ => input_error(format!("unknown command '{}'", shorten(command))),
        };
        match result {
            Ok(()) => {}
            Err(CommandError::Input(message)) => writeln!(out, "info string error: {message}")?,
            Err(CommandError::Io(error)) => return Err(error),
        }
        out.flush()?;
        Ok(Flow::Continue)
    }

    /// `uci`: identify, then `uciok`.
    fn uci(&mut self, out: &mut impl Write) -> Result<(), CommandError> {
        writeln!(out, "id name cb2026 {}", env!("CARGO_PKG_VERSION"))?;
        writeln!(out, "id author the cb2026 authors")?;
        writeln!(out, "uciok")?;
        Ok(())
    }

    /// `isready`: `readyok` once everything before it is done.
    fn isready(&mut self, out: &mut impl Write) -> Result<(), CommandError> {
        writeln!(out, "readyok")?;
        Ok(())
    }

    /// `position startpos|fen <FEN> [moves <move>...]`. The new position is built aside and
    /// replaces the current one only if every part is valid.
    fn set_position(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let moves_at = args.iter().position(|&word| word == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let mut position = match setup.split_first() {
            Some((&"startpos", [])) => Position::startpos(),
            Some((&"startpos", extra)) => {
                return input_error(format!("position: unexpected '{}' after startpos", shorten(extra[0])));
            }
            Some((&"fen", fields)) => match Position::from_fen(&fields.join(" ")) {
                Ok(position) => position,
                Err(error) => return input_error(format!("position: bad FEN: {error}")),
            },
            _ => return input_error("position: expected 'startpos' or 'fen <FEN>'"),
        };
        for text in moves {
            match position.parse_uci_move(text) {
                Ok(m) => position.make_move(m),
                Err(error) => return input_error(format!("position: {error}; position unchanged")),
            }
        }
        self.position = position;
        Ok(())
    }

    /// `perft N`: divide at depth N from the current position, printed as Stockfish does.
    fn perft(&mut self, args: &[&str], out: &mut impl Write) -> Result<(), CommandError> {
        let depth = parse_depth(args).map_err(CommandError::Input)?;
        perft::print_divide(&mut self.position, depth, out)?;
        Ok(())
    }

    /// `d`: the board, its FEN and key.
    fn display(&mut self, out: &mut impl Write) -> Result<(), CommandError> {
        writeln!(out, "{}", self.position)?;
        Ok(())
    }
}

/// The depth of `perft N`: exactly one argument, a whole number from 0 to 64.
pub fn parse_depth(args: &[&str]) -> Result<u32, String> {
    match args {
        [text] => match text.parse::<u32>() {
            Ok(depth) if depth <= 64 => Ok(depth),
            _ => Err(format!("perft: depth '{}' is not a number from 0 to 64", shorten(text))),
        },
        [] => Err("perft: missing depth (perft N)".to_string()),
        _ => Err("perft: expected one depth (perft N)".to_string()),
    }
}

/// At most 30 characters of `text`, for an error message.
fn shorten(text: &str) -> String {
    text.chars().take(30).collect()
}

/// Reads lines from `input` until `quit` or the end of input, answering on `out`. Lines that are
/// not valid UTF-8 are read with the bad bytes replaced, and answered like any bad input.
pub fn run(mut input: impl BufRead, out: &mut impl Write) -> io::Result<()> {
    let mut session = Session::new();
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(());
        }
        let line = String::from_utf8_lossy(&bytes);
        if session.handle(&line, out)? == Flow::Quit {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(session: &mut Session, line: &str) -> String {
        let mut out = Vec::new();
        session.handle(line, &mut out).expect("writing to a Vec");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn uci_handshake() {
        let mut session = Session::new();
        let text = answer(&mut session, "uci");
        assert!(text.starts_with("id name cb2026"));
        assert!(text.ends_with("uciok\n"));
        assert_eq!(answer(&mut session, "isready"), "readyok\n");
        assert_eq!(session.handle("quit", &mut Vec::new()).ok(), Some(Flow::Quit));
    }

    #[test]
    fn an_illegal_move_leaves_the_position_as_it_was() {
        let mut session = Session::new();
        answer(&mut session, "position startpos moves e2e4");
        let before = session.position().to_fen();
        let text = answer(&mut session, "position startpos moves e2e4 e7e5 e1e3");
        assert!(text.starts_with("info string error: position: e1e3 is not a legal move"));
        assert_eq!(session.position().to_fen(), before);
    }

    #[test]
    fn bad_input_is_answered_not_obeyed() {
        let mut session = Session::new();
        assert_eq!(answer(&mut session, "go fish"), "info string error: unknown command 'go'\n");
        assert!(answer(&mut session, "position fen 8/8/8 w - -").contains("bad FEN: piece placement"));
        assert!(answer(&mut session, "perft x").contains("perft: depth 'x'"));
        assert!(answer(&mut session, "position").contains("expected 'startpos'"));
        assert_eq!(answer(&mut session, ""), "");
        assert_eq!(session.position(), &Position::startpos());
    }

    #[test]
    fn position_fen_with_moves_then_perft() {
        let mut session = Session::new();
        answer(&mut session, "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1");
        let text = answer(&mut session, "perft 1");
        assert!(text.ends_with("\nNodes searched: 3\n\n"), "{text}");
        assert!(answer(&mut session, "d").contains("Fen: 4k3/8/8/8/8/8/8/5RK1 b - - 1 1"));
    }
}
