//! Our engine built in release (fat LTO, as it plays), for the commands that run it as a
//! process: the measuring commands (`perf`, `match`, `suite`) and the book's Run it here panels
//! (`cargo xtask serve`, `cargo xtask browser`).

use std::path::{Path, PathBuf};
use std::process::Stdio;

/// Builds the engine in release and returns the binary's path.
pub fn build_cb2026(root: &Path) -> Result<PathBuf, String> {
    build_release(root, &["--bin", "cb2026"])
}

/// Builds one target of the engine package in release (`--bin cb2026`, `--example tt_probe`)
/// and returns the executable's path, read from cargo's own report of what it built, so that
/// `CARGO_TARGET_DIR` and the like are honoured. Cargo's progress goes to our standard error.
pub fn build_release(root: &Path, target: &[&str]) -> Result<PathBuf, String> {
    build_release_with(root, target, crate::figures::cargo())
}

// ANCHOR: baseline_build
/// The folder of the engine built for the x86-64 baseline, apart from the usual build.
pub const BASELINE_CPU_TARGET_DIR: &str = "target/baseline-cpu";

/// The processor the baseline build is for: Rust's default for x86-64, AMD's 2003 instruction
/// set, without the POPCNT instruction that `.cargo/config.toml` lets the usual build use (M16).
pub const BASELINE_CPU: &str = "x86-64";

/// Builds the engine (`--bin cb2026`) for [`BASELINE_CPU`] into [`BASELINE_CPU_TARGET_DIR`], so
/// that M16 can compare it with the usual build: the same source, other instructions.
/// `CARGO_ENCODED_RUSTFLAGS` takes precedence over `RUSTFLAGS` and over the configuration's
/// flags, so this build is the baseline whatever the environment says.
pub fn build_cb2026_for_baseline_cpu(root: &Path) -> Result<PathBuf, String> {
    let mut cargo = crate::figures::cargo();
    cargo
        .env(
            "CARGO_ENCODED_RUSTFLAGS",
            format!("-Ctarget-cpu={BASELINE_CPU}"),
        )
        .env("CARGO_TARGET_DIR", root.join(BASELINE_CPU_TARGET_DIR));
    build_release_with(root, &["--bin", "cb2026"], cargo)
}
// ANCHOR_END: baseline_build

fn build_release_with(
    root: &Path,
    target: &[&str],
    mut cargo: std::process::Command,
) -> Result<PathBuf, String> {
    let what = format!("cargo build --release -p cb2026 {}", target.join(" "));
    let output = cargo
        .current_dir(root)
        .args(["build", "--release", "-p", "cb2026"])
        .args(target)
        .args(["--message-format=json-render-diagnostics"])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!("{what} failed"));
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| line.contains("\"reason\":\"compiler-artifact\""))
        .find_map(|line| {
            let path = line.split("\"executable\":\"").nth(1)?.split('"').next()?;
            Some(PathBuf::from(path))
        })
        .ok_or_else(|| format!("{what} reported no executable"))
}
