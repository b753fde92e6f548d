//! The `cb2026` binary: UCI on stdin, or a one-shot command such as `cb2026 perft 5`.

use cb2026::perft;
use cb2026::position::Position;
use cb2026::uci;
use std::io::{self, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: cb2026                      speak UCI on standard input\n       \
                     cb2026 perft DEPTH [FEN]     count the moves to DEPTH, split by first move";

fn main() -> ExitCode {
    let mut args = Vec::new();
    for arg in std::env::args_os().skip(1) {
        match arg.into_string() {
            Ok(arg) => args.push(arg),
            Err(_) => return fail("arguments must be valid UTF-8"),
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.split_first() {
        None => uci::run(io::stdin().lock(), &mut io::stdout().lock()).map_err(|e| e.to_string()),
        Some((&"perft", rest)) => perft_command(rest),
        Some((other, _)) => Err(format!("unknown command '{other}'")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => fail(&message),
    }
}

/// `cb2026 perft DEPTH [FEN]`: the FEN may be one quoted argument or its fields as separate ones.
fn perft_command(args: &[&str]) -> Result<(), String> {
    let Some((depth, fen)) = args.split_first() else {
        return Err("perft: missing depth".to_string());
    };
    let depth = uci::parse_depth(&[depth])?;
    let mut position = if fen.is_empty() {
        Position::startpos()
    } else {
        Position::from_fen(&fen.join(" ")).map_err(|e| format!("perft: bad FEN: {e}"))?
    };
    let mut out = io::stdout().lock();
    perft::print_divide(&mut position, depth, &mut out).map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())
}

fn fail(message: &str) -> ExitCode {
    eprintln!("cb2026: {message}\n{USAGE}");
    ExitCode::from(2)
}
