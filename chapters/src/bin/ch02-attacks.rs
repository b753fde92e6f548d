//! Chapter 2, attacks and magic bitboards: prints the relevant squares and the rook's magics, then
//! the chapter's figures (`--figures` prints only the cheap figures, `--measured` the timed ones,
//! as YAML).

fn main() -> std::process::ExitCode {
    chapters::run("ch02")
}
