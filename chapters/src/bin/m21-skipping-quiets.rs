//! Milestone M21, skipping the quiet moves: prints the six positions' table with `skipquiets`
//! off and on at stage M21 (the same trees), then the chapter's pinned figures (late move
//! pruning's counts, off and on). `--figures` prints only the pinned figures; `--measured`
//! times bench off and on.

fn main() -> std::process::ExitCode {
    chapters::run("m21")
}
