//! The program of chapter 18: prints evaluation II term by term on the six positions and a few
//! endgames, the six searched with it and with chapter 6's, and the chapter's figures
//! (`--figures` prints only the pinned figures as YAML).

fn main() -> std::process::ExitCode {
    chapters::run("ch18")
}
