//! What the measuring commands (`perf perft`, `perf bench`, `match`, `suite`) share: our engine
//! built in release (`xtask::release`, which the book's server uses too), Debian's reference engines installed on demand, and the stored-measurement
//! file they write. (A process's CPU time is `arena::process`'s, a median `cb2026::measure`'s.)

use std::path::{Path, PathBuf};
use std::process::Command;

pub use xtask::release::{build_cb2026, build_release};

/// A Debian engine's binary, installing `package` with `apt-get` when `binary` is missing (and
/// running `apt-get update` once if the first attempt fails): the machine may be new, so a
/// command never assumes a reference engine is there.
pub fn debian_engine(binary: &str, package: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(binary);
    if path.exists() {
        return Ok(path);
    }
    println!("{binary} is missing: apt-get install -y {package}");
    let install = || {
        Command::new("apt-get")
            .args(["install", "-y", "-q", package])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .is_ok_and(|status| status.success())
    };
    if !install() {
        let _ = Command::new("apt-get").args(["update", "-q"]).status();
        if !install() {
            return Err(format!(
                "apt-get install -y {package} failed (are you root on Debian?)"
            ));
        }
    }
    if path.exists() {
        Ok(path)
    } else {
        Err(format!(
            "the {package} package is installed but {binary} is not there"
        ))
    }
}

/// Writes a stored measurement, `snapshots/measured/...` (`stored`, relative to the
/// repository), with the header every such file has: the command, the program, the machine,
/// the date and the commit.
pub fn write_measured(
    root: &Path,
    stored: &str,
    command: &str,
    program: &str,
    figures: &str,
) -> Result<(), String> {
    use xtask::figures::{commit, machine, measured_file, today};
    let text = measured_file(
        command,
        program,
        &machine(),
        &today(),
        &commit(root),
        figures,
    );
    let file = root.join(stored);
    std::fs::create_dir_all(file.parent().expect("a folder")).map_err(|e| e.to_string())?;
    std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    println!("wrote {}", file.display());
    Ok(())
}
