//! `cargo xtask soak`: many short games against ourselves and Debian's engines, to show that
//! cb2026 never leaves a match runner waiting: no loss on time, no illegal move, no crash, no
//! line the protocol does not define and no command left unanswered.
//!
//! ```text
//! cargo xtask soak                        # 1+0.01 and 0.5+0.005, against cb2026, Ethereal, Toga II
//! cargo xtask soak --games 40 --tc 1+0.01 --opponents self
//! ```
//!
//! Each time control and opponent makes one match record, `snapshots/games/soak-<ms>-<who>`
//! (`soak-1000ms-ethereal`), played to the end by the rules (no adjudication: the long endgames
//! on a nearly empty clock are where time is lost). The command fails if cb2026 committed any
//! fault; the opponents' faults are printed and stored, but they are not ours to fix.

use crate::matches::Soak;
use arena::TimeControl;
use arena::record::{FaultCounts, MatchRecord};
use std::path::Path;

/// The command line of `cargo xtask soak`.
#[derive(clap::Args, Debug)]
pub struct SoakArgs {
    /// Time controls, `base+inc` in seconds.
    #[arg(long, value_delimiter = ',', default_value = "1+0.01,0.5+0.005")]
    tc: Vec<String>,
    /// Opponents: `self` (cb2026 against itself) and Debian engines (`ethereal`, `toga2`,
    /// `glaurung`, `gnuchess`, `stockfish`).
    #[arg(long, value_delimiter = ',', default_value = "self,ethereal,toga2")]
    opponents: Vec<String>,
    /// Games per time control and opponent (rounded up to whole pairs).
    #[arg(long, default_value_t = 336)]
    games: usize,
    /// Games played at once.
    #[arg(long, short = 'j', default_value_t = 2)]
    concurrency: usize,
    /// Print the stored soak records' fault counts and check them; play nothing.
    #[arg(long)]
    check: bool,
}

pub fn run(args: SoakArgs, root: &Path) -> Result<(), String> {
    let mut names = Vec::new();
    for tc in &args.tc {
        let time_control = TimeControl::parse(tc)?;
        let TimeControl::Clock { base_ms, .. } = time_control else {
            return Err(format!("a soak is played on the clock, not `{tc}`"));
        };
        for who in &args.opponents {
            names.push((format!("soak-{base_ms}ms-{who}"), tc, who));
        }
    }
    if !args.check {
        let soak = Soak::new(root)?;
        for (name, tc, who) in &names {
            soak.play(name, tc, who, args.games, args.concurrency)?;
        }
    }
    let names: Vec<String> = names.into_iter().map(|(name, ..)| name).collect();
    report(root, &names)
}

/// Prints each record's faults, ours and the opponent's, and fails if cb2026 has any.
fn report(root: &Path, names: &[String]) -> Result<(), String> {
    let mut games = 0;
    let mut ours = FaultCounts::default();
    println!(
        "{:<26} {:>6}  {:>28}  {:>28}",
        "record", "games", "cb2026: time/ill/crash/prot/unans", "opponent: the same"
    );
    for name in names {
        let path = root.join("snapshots/games").join(format!("{name}.json"));
        let record = MatchRecord::load(&path).map_err(|e| e.to_string())?;
        let [first, second] = &record.counts.faults;
        // The first engine is cb2026; against itself, both are.
        let self_play = record.engines[1].cmd == record.engines[0].cmd;
        ours.add(first);
        if self_play {
            ours.add(second);
        }
        games += record.counts.games;
        println!(
            "{name:<26} {:>6}  {:>28}  {:>28}",
            record.counts.games,
            line(first),
            line(second)
        );
    }
    println!("cb2026 over {games} games: {}", line(&ours));
    if ours.total() > 0 {
        return Err(format!(
            "cb2026 committed {} faults in the soak",
            ours.total()
        ));
    }
    Ok(())
}

fn line(f: &FaultCounts) -> String {
    format!(
        "{}/{}/{}/{}/{}",
        f.time, f.illegal, f.crash, f.protocol_errors, f.unanswered
    )
}
