//! An engine as a process: how one is started, run to its end, and what CPU time it used.
//!
//! A UCI session ([`crate::uci::UciEngine`]) keeps an engine running and talks to it; some
//! commands instead run it once to its end and read what it printed: `<engine> bench` for its
//! signature ([`crate::bench::signature`]), and `cargo xtask perf bench`, which times whole bench
//! processes. Both kinds start the engine with [`engine_command`], and [`run_to_exit`] is the
//! second kind.
//!
//! **CPU time.** On a shared machine other processes take the cores for a while, which
//! stretches the wall clock of whatever is running, not the work it does; so a timing is better
//! taken from the CPU time of the engine's process. Linux gives it in `/proc`: each thread's run
//! time in nanoseconds (`/proc/<pid>/task/*/schedstat`), and the whole process's `utime + stime`
//! in clock ticks (`/proc/<pid>/stat`). Elsewhere there is none, and the timings say so.

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How often [`run_to_exit`] looks whether the process has exited.
const POLL: Duration = Duration::from_millis(2);

/// The command that starts an engine, in a process group of its own: the Ctrl-C a user types at
/// the terminal then reaches only the arena (or xtask), which ends the engine itself, instead of
/// every engine dying at once and being scored as crashed.
pub fn engine_command(program: impl AsRef<OsStr>, args: &[String]) -> Command {
    let mut command = Command::new(program);
    command.args(args).process_group(0);
    command
}

/// A process run to its end.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    /// From starting the process to seeing it exit.
    pub wall: Duration,
    /// Its CPU time, all threads together; `None` where it cannot be read (not Linux).
    pub cpu: Option<Duration>,
}

/// Runs `program args` (see [`engine_command`]), writes `input` (if any) and closes its input,
/// reads both its outputs to the end, and measures its CPU time once it has exited. A process
/// still running after `timeout` is killed and is an error; so is one that cannot be started. A
/// failing exit status is not an error here: the caller decides what it means.
pub fn run_to_exit(
    program: impl AsRef<OsStr>,
    args: &[String],
    input: Option<&str>,
    timeout: Option<Duration>,
) -> Result<Finished, String> {
    let shown = format!("{} {}", program.as_ref().to_string_lossy(), args.join(" "));
    let started = Instant::now();
    let mut child = engine_command(program, args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {shown}: {e}"))?;
    if let (Some(text), Some(mut stdin)) = (input, child.stdin.take()) {
        stdin
            .write_all(text.as_bytes())
            .map_err(|e| format!("{shown}: cannot write its input: {e}"))?;
    }
    let stdout = child.stdout.take().map(drain);
    let stderr = child.stderr.take().map(drain);
    let deadline = timeout.map(|timeout| started + timeout);
    let cpu = wait_for_exit(&mut child, deadline).map_err(|why| format!("{shown}: {why}"))?;
    let wall = started.elapsed();
    let status = child
        .wait()
        .map_err(|e| format!("{shown}: cannot wait for it: {e}"))?;
    let text = |reader: Option<std::thread::JoinHandle<String>>| {
        reader.and_then(|r| r.join().ok()).unwrap_or_default()
    };
    Ok(Finished {
        status,
        stdout: text(stdout),
        stderr: text(stderr),
        wall,
        cpu,
    })
}

/// Reads a stream to its end on a thread of its own, so that neither output fills its pipe
/// and stalls the process while the other is read.
fn drain(mut stream: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Waits until `child` has exited, without reaping it, and returns its CPU time: a process that
/// has exited but is not yet reaped (a zombie) still has its `/proc/<pid>` entry with its final
/// times. Kills it past `deadline`. Where `/proc` is missing, waits the ordinary way.
fn wait_for_exit(child: &mut Child, deadline: Option<Instant>) -> Result<Option<Duration>, String> {
    let pid = child.id();
    loop {
        match process_state(pid) {
            Some('Z' | 'X') => return Ok(cpu_time_at_exit(pid)),
            Some(_) => {}
            None => {
                if child.try_wait().map_err(|e| e.to_string())?.is_some() {
                    return Ok(None);
                }
            }
        }
        if deadline.is_some_and(|deadline| Instant::now() > deadline) {
            let _ = child.kill();
            let _ = child.wait();
            return Err("killed: it did not finish in time".to_string());
        }
        std::thread::sleep(POLL);
    }
}

/// The CPU time of process `pid` once it has exited (a zombie): its threads' exact run time, or
/// the whole process's `utime + stime` when that is larger (ticks of 1/100 s, which still count
/// threads that ended before the process did).
fn cpu_time_at_exit(pid: u32) -> Option<Duration> {
    let threads = threads_run_time(pid)?;
    let process = process_ticks(pid).map(|ticks| Duration::from_millis(ticks * 10));
    Some(process.map_or(threads, |process| process.max(threads)))
}

/// The run time of every thread still listed under `/proc/<pid>/task`, from Linux's
/// `schedstat` (its first field is the nanoseconds the thread has run on a CPU): the work a
/// running process has done so far. A thread that ends between the listing and the read of its
/// `schedstat` is left out, as if it had ended a moment sooner.
pub fn threads_run_time(pid: u32) -> Option<Duration> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut total = 0u64;
    for task in tasks.flatten() {
        let Ok(schedstat) = std::fs::read_to_string(task.path().join("schedstat")) else {
            continue;
        };
        total += schedstat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(total))
}

/// The fields of `/proc/<pid>/stat` after the command's parenthesis (the command itself may
/// contain spaces and parentheses), numbered from 3 (the state).
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    Some(
        stat.rsplit_once(')')?
            .1
            .split_whitespace()
            .map(str::to_string)
            .collect(),
    )
}

/// The state letter of `/proc/<pid>/stat` (`R`, `S`, `Z`...).
fn process_state(pid: u32) -> Option<char> {
    stat_fields(pid)?.first()?.chars().next()
}

/// The CPU time a running process has used so far, every thread it ever had included: its
/// `utime + stime` (ticks of 1/100 s). [`threads_run_time`] is exact to the nanosecond but
/// forgets threads that have ended, such as the job thread on which cb2026 runs each `perft`;
/// this one is coarse but forgets nothing, so it is the one for timing work that may run on a
/// thread of its own (a tick in a second is 1 %).
pub fn process_cpu_time(pid: u32) -> Option<Duration> {
    process_ticks(pid).map(|ticks| Duration::from_millis(ticks * 10))
}

/// `utime + stime` of `/proc/<pid>/stat` (fields 14 and 15), in clock ticks (USER_HZ, 100 on
/// Linux's common architectures).
fn process_ticks(pid: u32) -> Option<u64> {
    let fields = stat_fields(pid)?;
    let utime: u64 = fields.get(14 - 3)?.parse().ok()?;
    let stime: u64 = fields.get(15 - 3)?.parse().ok()?;
    Some(utime + stime)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Vec<String> {
        vec!["-c".to_string(), script.to_string()]
    }

    #[test]
    fn an_exited_child_has_its_output_and_cpu_time() {
        let busy =
            "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo counted $i; echo done >&2";
        let finished = run_to_exit("/bin/sh", &sh(busy), None, None).expect("sh runs");
        assert!(finished.status.success());
        assert_eq!(finished.stdout, "counted 20000\n");
        assert_eq!(finished.stderr, "done\n");
        if cfg!(target_os = "linux") {
            let cpu = finished.cpu.expect("Linux shows the zombie's CPU time");
            assert!(cpu > Duration::ZERO, "{cpu:?}");
        }
    }

    #[test]
    fn input_is_written_and_closed() {
        let finished = run_to_exit("/bin/cat", &[], Some("uci\nquit\n"), None).expect("cat runs");
        assert_eq!(finished.stdout, "uci\nquit\n");
    }

    #[test]
    fn a_failing_child_is_finished_with_its_status_and_message() {
        let finished =
            run_to_exit("/bin/sh", &sh("echo broken >&2; exit 3"), None, None).expect("it ran");
        assert_eq!(finished.status.code(), Some(3));
        assert_eq!(finished.stderr, "broken\n");
    }

    #[test]
    fn a_child_past_its_time_is_killed() {
        let started = Instant::now();
        let error = run_to_exit(
            "/bin/sleep",
            &["10".to_string()],
            None,
            Some(Duration::from_millis(100)),
        )
        .unwrap_err();
        assert!(error.contains("did not finish in time"), "{error}");
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(run_to_exit("/no/such/engine", &[], None, None).is_err());
    }

    #[test]
    fn a_busy_process_has_run_for_a_while() {
        // A child of its own, one thread spinning: the test process's own threads (the other
        // tests') start and end while it runs, and an ended thread leaves the sum.
        let Ok(mut child) = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
        else {
            return; // no shell here: nothing to check
        };
        let Some(before) = threads_run_time(child.id()) else {
            child.kill().expect("our own child");
            return; // not Linux, or /proc is hidden: nothing to check here
        };
        std::thread::sleep(Duration::from_millis(200));
        let after = threads_run_time(child.id());
        child.kill().expect("our own child");
        child.wait().expect("our own child");
        let after = after.expect("readable a moment ago");
        assert!(after > before, "{before:?} then {after:?}");
    }
}
