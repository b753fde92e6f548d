//! Milestone M7, an evaluation that learns from the search: prints the six positions' table
//! with the correction history off and on at stage M7, then the chapter's pinned figures.
//! `--figures` prints only the pinned figures, `--measured` bench's speed with the switch off
//! and on, as YAML.

fn main() -> std::process::ExitCode {
    chapters::run("m7")
}
