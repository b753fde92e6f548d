//! Milestone M8, cut nodes and all nodes: prints the six positions' table with the cut-node
//! reduction off and on at stage M8, then the chapter's pinned figures (how often the expected
//! kinds came true among them). `--figures` prints only the pinned figures, `--measured`
//! bench's speed with the switch off and on, as YAML.

fn main() -> std::process::ExitCode {
    chapters::run("m8")
}
