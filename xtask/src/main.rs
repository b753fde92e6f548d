//! `cargo xtask`: the project's automation, in Rust so it runs wherever cargo does
//! (the pattern is matklad's, <https://github.com/matklad/cargo-xtask>).
//!
//! Each subcommand lives in its own module; this file only parses the command line.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "cargo xtask", about = "cb2026's project commands")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the workspace root (where every command runs from).
    Root,
}

/// The workspace root: the folder above `xtask/`.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits inside the workspace")
        .to_path_buf()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<(), String> = match cli.command {
        Command::Root => {
            println!("{}", workspace_root().display());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
