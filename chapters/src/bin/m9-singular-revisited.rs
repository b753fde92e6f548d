//! Milestone M9, singular extensions revisited: prints the six positions' table with the
//! negative extension off and on at stage M9, then the chapter's pinned figures. `--figures`
//! prints only the pinned figures, `--measured` bench's speed of the default engine with and
//! without the singular extension, multi-cut and the negative extension, as YAML.

fn main() -> std::process::ExitCode {
    chapters::run("m9")
}
