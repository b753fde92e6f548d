//! Milestone M20, the position's complexity: prints the complexity's tuned weights and the six
//! positions' table with the switch `complexity` off and on at stage M20, then the chapter's
//! pinned figures. `--figures` prints only the pinned figures.

fn main() -> std::process::ExitCode {
    chapters::run("m20")
}
