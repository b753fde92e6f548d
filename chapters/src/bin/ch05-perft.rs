//! Chapter 5, perft: prints the divide of the start position at depth 3, then the chapter's figures
//! (`--figures` prints only the cheap figures, `--measured` the timed ones, as YAML).

fn main() -> std::process::ExitCode {
    chapters::run("ch05")
}
