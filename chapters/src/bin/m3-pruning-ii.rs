//! Milestone M3, pruning II: prints the six positions searched with each of the milestone's
//! techniques off and on at stage M3, then the chapter's pinned figures (`--figures` prints
//! only those, as YAML).

fn main() -> std::process::ExitCode {
    chapters::run("m3")
}
