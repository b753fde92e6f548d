//! Milestone M6, checks the king cannot take: prints the six positions' table with the safe
//! checks off and on at stage M6, then the chapter's pinned figures. `--figures` prints only the
//! pinned figures, `--measured` bench's speed with the switch off and on, as YAML.

fn main() -> std::process::ExitCode {
    chapters::run("m6")
}
