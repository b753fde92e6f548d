//! Chapter 3, legal move generation: prints the number of legal moves in the chapter's positions,
//! then its figures (`--figures` prints only the cheap figures, `--measured` the timed ones, as
//! YAML).

fn main() -> std::process::ExitCode {
    chapters::run("ch03")
}
