//! Milestone M19, reductions II: prints the six positions' table with each of `lmrchecks`,
//! `lmrnoisy` and `ttnoisy` off and on at stage M19, then the chapter's pinned figures (bench's
//! reductions with none, each and all of them). `--figures` prints only the pinned figures.

fn main() -> std::process::ExitCode {
    chapters::run("m19")
}
