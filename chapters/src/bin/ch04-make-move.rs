//! Chapter 4, making moves and Zobrist keys: prints a position with its key and the FENs the parser
//! refuses, then the chapter's figures (`--figures` prints only the cheap figures, `--measured` the
//! timed ones, as YAML).

fn main() -> std::process::ExitCode {
    chapters::run("ch04")
}
