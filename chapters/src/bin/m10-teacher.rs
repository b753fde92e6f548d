//! Milestone M10, a teacher for the evaluation: prints the weights that moved most from chapter
//! 19's, the six positions' table with the switch `teacher` off and on at stage M10, then the
//! chapter's pinned figures (`--figures`: only those, as YAML).

fn main() -> std::process::ExitCode {
    chapters::run("m10")
}
