//! The `cb2026` binary. Alone it speaks UCI on standard input; with a command it runs that
//! command and exits, as Stockfish and Ethereal do (`cb2026 bench` is what OpenBench runs: it
//! reads the last line, `N nodes N nps`). Bad arguments print the usage to standard error and
//! exit with code 2, the convention of Unix command-line tools for a usage error.

use cb2026::bench;
use cb2026::perft;
use cb2026::position::Position;
use cb2026::switches::Switches;
use cb2026::uci::{self, Output};
use std::io::{self, Write};
use std::process::ExitCode;

const USAGE: &str = "\
usage: cb2026                      speak UCI on standard input
       cb2026 bench [DEPTH]        search the bench positions; the last line is `N nodes N nps`
       cb2026 perft DEPTH [FEN]    count the moves to DEPTH, split by first move
       cb2026 help                 print this";

fn main() -> ExitCode {
    let mut args = Vec::new();
    for arg in std::env::args_os().skip(1) {
        match arg.into_string() {
            Ok(arg) => args.push(arg),
            Err(_) => return usage_error("arguments must be valid UTF-8"),
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.split_first() {
        None => uci::run(io::stdin().lock(), Output::new(io::stdout()))
            .map_err(|e| Failure::Run(e.to_string())),
        Some((&"bench", rest)) => bench_command(rest),
        Some((&"perft", rest)) => perft_command(rest),
        Some((&("help" | "--help" | "-h"), [])) => {
            println!("{USAGE}");
            Ok(())
        }
        Some((other, _)) => Err(Failure::Usage(format!("unknown command '{other}'"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => usage_error(&message),
        Err(Failure::Run(message)) => {
            eprintln!("cb2026: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Why a command failed: its arguments (exit code 2, with the usage) or its run (code 1).
enum Failure {
    Usage(String),
    Run(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Run(message)
    }
}

/// `cb2026 bench [DEPTH]`: bench with the default switches.
fn bench_command(args: &[&str]) -> Result<(), Failure> {
    let depth = uci::parse_bench_depth(args).map_err(Failure::Usage)?;
    let mut out = io::stdout().lock();
    bench::run(depth, Switches::default(), &mut out).map_err(|e| e.to_string())?;
    out.flush().map_err(|e| Failure::Run(e.to_string()))
}

/// `cb2026 perft DEPTH [FEN]`: the FEN may be one quoted argument or its fields as separate ones.
fn perft_command(args: &[&str]) -> Result<(), Failure> {
    let Some((depth, fen)) = args.split_first() else {
        return Err(Failure::Usage("perft: missing depth".to_string()));
    };
    let depth = uci::parse_depth(&[depth]).map_err(Failure::Usage)?;
    let mut position = if fen.is_empty() {
        Position::startpos()
    } else {
        Position::from_fen(&fen.join(" "))
            .map_err(|e| Failure::Usage(format!("perft: bad FEN: {e}")))?
    };
    let mut out = io::stdout().lock();
    perft::print_divide(&mut position, depth, &mut out).map_err(|e| e.to_string())?;
    out.flush().map_err(|e| Failure::Run(e.to_string()))
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("cb2026: {message}\n{USAGE}");
    ExitCode::from(2)
}
