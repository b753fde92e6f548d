//! Milestone M11, a null move that reads the evaluation: prints the six positions' table with
//! `nulleval` off and on at stage M11, then the chapter's pinned figures (the null-move
//! searches' counts and the extra plies). `--figures` prints only the pinned figures.

fn main() -> std::process::ExitCode {
    chapters::run("m11")
}
