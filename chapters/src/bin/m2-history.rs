//! Milestone M2, history that learns: prints the six positions searched with each of the
//! milestone's techniques off and on at stage M2, then the milestone's pinned figures
//! (`--figures` prints only those, as YAML).

fn main() -> std::process::ExitCode {
    chapters::run("m2")
}
