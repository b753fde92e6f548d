//! Chapter 1, squares and bitboards: prints the board of square indices and the chapter's
//! figures (`--figures` prints only the figures, as YAML).

fn main() -> std::process::ExitCode {
    chapters::run("ch01")
}
