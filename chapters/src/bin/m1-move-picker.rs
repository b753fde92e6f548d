//! Milestone M1, the staged move picker and counter-moves: prints the six positions with each
//! switch on and off at stage M1, then the pinned figures. `--figures` prints only the pinned
//! figures, `--measured` bench's speed in three configurations as YAML.

fn main() -> std::process::ExitCode {
    chapters::run("m1")
}
