//! Milestone M5, buckets: prints the six positions' table at depth 12 (1 and 16 MB, buckets off
//! and on), then the chapter's pinned figures. `--figures` prints only the pinned figures,
//! `--measured` the heavy ones (depth 15, every table size, bench's speed, criterion,
//! cachegrind) as YAML, and redraws the plot `book/src/m5-hit-share.svg`.

fn main() -> std::process::ExitCode {
    chapters::run("m5")
}
