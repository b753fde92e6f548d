//! Milestone M18, an evaluation cache: prints the six positions' table with `evalcache` off and
//! on at stage M18 (the same trees), then the chapter's pinned figures (the cache's probes and
//! hits). `--figures` prints only the pinned figures; `--measured` times bench off and on.

fn main() -> std::process::ExitCode {
    chapters::run("m18")
}
