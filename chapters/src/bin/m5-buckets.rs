//! Milestone M5, buckets: prints the six positions' tables at depths 10 and 12 (1 and 16 MB,
//! buckets off and on), then the chapter's figures. `--figures` prints only the pinned figures,
//! `--measured` the heavy ones (depth 15, table sizes, bench, criterion, cachegrind), as YAML.

fn main() -> std::process::ExitCode {
    chapters::run("m5")
}
