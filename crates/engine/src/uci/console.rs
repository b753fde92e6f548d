//! The console commands: not UCI, for people and for the book. `d` shows the board, `eval` the
//! evaluation term by term, `perft` and `bench` count (on the worker, so `stop` and `quit`
//! reach them), `set` and `switches` turn the chapters' features on and off, `stage` sets them
//! all as the engine stood at the end of a chapter, and `help` lists the commands.

use super::session::Session;
use super::{CommandError, input_error, shorten, worker};
use crate::bench;
use crate::search::MAX_DEPTH;
use crate::switches::{Stage, Switches};
use crate::{eval, eval2};

/// The answer to `help`.
const HELP: &str = "\
UCI commands: uci, isready, setoption name NAME [value VALUE], ucinewgame,
  position startpos|fen FEN [moves MOVE...], go [wtime btime winc binc movestogo depth nodes
  mate movetime infinite ponder], stop, ponderhit, quit
Console commands:
  d                 the board, its FEN and key
  eval              the static evaluation term by term (chapter 18's with eval2 on)
  perft N           count the moves to depth N, split by first move (stop ends it)
  bench [DEPTH]     search the bench positions; the last line is `N nodes N nps`
  set NAME on|off   turn a feature on or off for the next search
  switches          every feature with its state, default and chapter
  stage [N]         set every feature as the engine stood at the end of chapter N (1-20) or
                    milestone M1-M21; alone, say which stages the features match
  help              this";

impl Session {
    /// Runs the console command `command`, or says that no command has that name.
    pub(super) fn console(&mut self, command: &str, args: &[&str]) -> Result<(), CommandError> {
        match command {
            "d" => self.display(),
            "eval" => self.eval(),
            "bench" => self.bench(args),
            "perft" => self.perft(args),
            "set" => self.set_switch(args),
            "switches" => self.list_switches(),
            "stage" => self.stage(args),
            "help" => Ok(self.out.line(HELP)?),
            _ => input_error(format!(
                "unknown command '{}' (try 'help')",
                shorten(command)
            )),
        }
    }

    /// `d`: the board, its FEN and key.
    fn display(&mut self) -> Result<(), CommandError> {
        let text = self.current_position("d")?.to_string();
        self.out.line(text.trim_end())?;
        Ok(())
    }

    /// `eval`: the static evaluation term by term: chapter 18's if the switch `eval2` is on,
    /// else chapter 6's.
    fn eval(&mut self) -> Result<(), CommandError> {
        let position = self.current_position("eval")?;
        let text = if self.settings.switches.eval2 {
            let switches = &self.settings.switches;
            eval2::trace_with(position, switches.weight_set(), switches.king_danger()).to_string()
        } else {
            eval::trace(position)
        };
        self.out.line(text.trim_end())?;
        Ok(())
    }

    /// `bench [depth]`: the engine's signature (see [`crate::bench`]) with the current
    /// switches, on the worker.
    fn bench(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let depth = parse_bench_depth(args).map_err(CommandError::Input)?;
        self.ensure_no_job("bench")?;
        let job = worker::start_bench(depth, self.settings.switches, &self.out)
            .map_err(|e| CommandError::Input(format!("bench: cannot start a thread: {e}")))?;
        self.job = Some(job);
        Ok(())
    }

    /// `perft N`: divide at depth N from the current position, printed as Stockfish does, on
    /// the worker.
    fn perft(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let depth = parse_depth(args).map_err(CommandError::Input)?;
        let position = self.current_position("perft")?.clone();
        self.ensure_no_job("perft")?;
        let job = worker::start_perft(position, depth, &self.out)
            .map_err(|e| CommandError::Input(format!("perft: cannot start a thread: {e}")))?;
        self.job = Some(job);
        Ok(())
    }

    /// `set NAME on|off`: the console's way to set a switch (for the next search).
    fn set_switch(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let [name, value] = args else {
            return input_error("set: expected 'set NAME on|off' (see 'switches')");
        };
        let on =
            Switches::parse_value(value).map_err(|e| CommandError::Input(format!("set: {e}")))?;
        self.settings
            .switches
            .set(name, on)
            .map_err(|e| CommandError::Input(format!("set: {e}")))
    }

    /// `switches`: every switch with its value, default, chapter and help.
    fn list_switches(&mut self) -> Result<(), CommandError> {
        self.out
            .line(self.settings.switches.describe().trim_end())?;
        Ok(())
    }

    /// `stage N`: every switch as at the end of chapter N or milestone MN ([`Stage`]), for the
    /// next search; `stage` alone: which stages the switches are those of.
    fn stage(&mut self, args: &[&str]) -> Result<(), CommandError> {
        match args {
            [] => Ok(self.out.line(&stages_of(self.settings.switches))?),
            [text] => {
                let stage =
                    Stage::parse(text).map_err(|e| CommandError::Input(format!("stage: {e}")))?;
                self.settings.switches = stage.switches();
                Ok(())
            }
            _ => input_error("stage: expected 'stage N' (1-20 or M1-M21), or 'stage' alone"),
        }
    }
}

/// Every stage of the book, in its order: the chapters, then the milestones.
fn all_stages() -> impl Iterator<Item = Stage> {
    let chapters = (1..=Stage::LAST_CHAPTER).map(Stage::Chapter);
    chapters.chain((1..=Stage::LAST_MILESTONE).map(Stage::Milestone))
}

/// The answer to `stage` alone. Chapters that add no switch leave the engine's switches as
/// they were, so several stages can match: they always follow each other (a stage's switches
/// are those of its chapter and every earlier one), and are given as a range.
fn stages_of(switches: Switches) -> String {
    let matching: Vec<Stage> = all_stages().filter(|s| s.switches() == switches).collect();
    match matching.as_slice() {
        [] => "stage: the switches are those of no stage (see 'switches')".to_string(),
        [one] => format!("stage {one}"),
        [first, .., last] => format!("stage {first} to {last} (the same switches)"),
    }
}

/// The depth of `perft N`: exactly one argument, a whole number from 0 to 64.
pub fn parse_depth(args: &[&str]) -> Result<u32, String> {
    match args {
        [text] => match text.parse::<u32>() {
            Ok(depth) if depth <= 64 => Ok(depth),
            _ => Err(format!(
                "perft: depth '{}' is not a number from 0 to 64",
                shorten(text)
            )),
        },
        [] => Err("perft: missing depth (perft N)".to_string()),
        _ => Err("perft: expected one depth (perft N)".to_string()),
    }
}

/// The depth of `bench [depth]`: [`bench::DEFAULT_DEPTH`] when absent, else 1 to [`MAX_DEPTH`].
pub fn parse_bench_depth(args: &[&str]) -> Result<u32, String> {
    match args {
        [] => Ok(bench::DEFAULT_DEPTH),
        [text] => match text.parse::<u32>() {
            Ok(depth) if (1..=MAX_DEPTH).contains(&depth) => Ok(depth),
            _ => Err(format!(
                "bench: depth '{}' is not a number from 1 to {MAX_DEPTH}",
                shorten(text)
            )),
        },
        _ => Err("bench: expected at most one depth (bench [depth])".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_alone_names_the_stages_the_switches_match() {
        assert_eq!(stages_of(Stage::Chapter(9).switches()), "stage 9");
        assert_eq!(stages_of(Stage::Milestone(5).switches()), "stage M5");
        // The default engine ships some switches off (M5's buckets, M7's correction history,
        // ...) and some of the last milestones' on: it is no stage until every one of them is
        // on but M13's. M14's `eval3`, M15's `eval4`, M17's two and M18's `evalcache` ship on
        // and M13's `kingsafety` off, and no stage has one without the other: without M14's
        // to M18's, it is M11 and M12 (M12 added no switch); with M13's, M13; with M14's too,
        // M14; with M15's, M15 and M16 (no switch); then M17; with all, M18. M19's three
        // switches ship off, and with them on it is M19; M20's `complexity` ships off too, and
        // with it on as well it is M20. M21's `skipquiets` ships on: off until then, and with
        // it on, the last stage, M21.
        let mut switches = Switches::default();
        switches.set("skipquiets", false).expect("a known switch");
        let shipped_off = Switches::shipped_off_through(Stage::Milestone(18));
        let (last, before) = shipped_off.split_last().expect("switches shipped off");
        assert_eq!(*last, "kingsafety");
        for name in before {
            assert!(stages_of(switches).contains("no stage"), "{name}");
            switches.set(name, true).expect("a known switch");
        }
        assert!(stages_of(switches).contains("no stage"));
        switches.set("eval3", false).expect("a known switch");
        assert!(stages_of(switches).contains("no stage"));
        switches.set("eval4", false).expect("a known switch");
        assert!(stages_of(switches).contains("no stage"));
        switches.set("qsttmove", false).expect("a known switch");
        switches.set("qsfutility", false).expect("a known switch");
        assert!(stages_of(switches).contains("no stage"));
        switches.set("evalcache", false).expect("a known switch");
        assert_eq!(stages_of(switches), "stage M11 to M12 (the same switches)");
        switches.set(last, true).expect("a known switch");
        assert_eq!(stages_of(switches), "stage M13");
        switches.set("eval3", true).expect("a known switch");
        assert_eq!(stages_of(switches), "stage M14");
        switches.set("eval4", true).expect("a known switch");
        assert_eq!(stages_of(switches), "stage M15 to M16 (the same switches)");
        switches.set("qsttmove", true).expect("a known switch");
        assert!(stages_of(switches).contains("no stage"));
        switches.set("qsfutility", true).expect("a known switch");
        assert_eq!(stages_of(switches), "stage M17");
        switches.set("evalcache", true).expect("a known switch");
        assert_eq!(stages_of(switches), "stage M18");
        for name in ["lmrchecks", "lmrnoisy", "ttnoisy"] {
            switches.set(name, true).expect("a known switch");
        }
        assert_eq!(stages_of(switches), "stage M19");
        switches.set("complexity", true).expect("a known switch");
        assert_eq!(stages_of(switches), "stage M20");
        switches.set("skipquiets", true).expect("a known switch");
        assert_eq!(stages_of(switches), "stage M21");
        assert_eq!(
            stages_of(Switches::all(false)),
            "stage 1 to 5 (the same switches)"
        );
        let odd = Switches {
            tt: false,
            ..Switches::default()
        };
        assert!(stages_of(odd).contains("no stage"));
    }
}
