//! Chapter 9, quiescence and move ordering: the six positions with each of the chapter's four
//! switches off in turn (`qsearch`, `see`, `killers`, `history`), the share of the tree spent in
//! quiescence, how often the first move tried is the one that cuts off, two static exchange
//! evaluations from the Chess Programming Wiki, and the worked position: the horizon effect,
//! iteration by iteration, with the quiescence search on and off.
//!
//! [`lines`] (a search that keeps every iteration's principal variation) serves chapters 10
//! and 11's worked positions too.

use crate::ch01::position;
use crate::six::{self, DEPTH, OnOff, at_own_stage};
use crate::{Chapter, Figure, Figures};
use cb2026::position::Position;
use cb2026::search::pruning::Params;
use cb2026::search::see::see;
use cb2026::search::{Limits, SearchStats};
use cb2026::switches::{Stage, Switches};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Chapter 9 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch09",
    title: "Quiescence and move ordering",
    bin: "ch09-quiescence",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The chapter's switches, in the order the page takes them.
const SWITCHES: [&str; 4] = ["qsearch", "see", "killers", "history"];

/// The Chess Programming Wiki's two examples of "SEE - The Swap Algorithm": a rook takes an
/// undefended pawn; a knight takes a pawn that a battery of rook and queen x-rays defends.
const SEE_EXAMPLES: [(&str, &str, &str); 2] = [
    (
        "undefended",
        "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
        "e1e5",
    ),
    (
        "xray",
        "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
        "d3e5",
    ),
];

/// The worked position: 1.e4 e5 2.Bc4 Nc6 3.Qf3 Nf6, White to move. The queen can take the
/// knight on f6, which the g-pawn and the queen defend: a capture that looks like a piece won to
/// a search that stops right after it.
pub const WORKED_FEN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4";

/// One completed iteration of a search, with its principal variation.
#[derive(Clone, Debug)]
pub struct Line {
    pub depth: u32,
    /// Nodes of this iteration and every earlier one.
    pub nodes: u64,
    /// The score as UCI reports it (`cp 25`, `mate 3`).
    pub score: String,
    /// The principal variation in UCI notation, moves separated by spaces.
    pub pv: String,
}

impl Line {
    /// The first move of the line.
    pub fn best(&self) -> &str {
        self.pv.split(' ').next().unwrap_or("(none)")
    }
}

/// Searches `fen` to `depth` from a cleared searcher with `switches` and `params` ([`six`]'s
/// table size), keeping each iteration's line: the worked positions of chapters 9 to 11.
pub fn lines(
    switches: Switches,
    params: Params,
    fen: &str,
    depth: u32,
) -> (SearchStats, Vec<Line>) {
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut searcher = six::searcher(switches);
    searcher.set_params(params);
    searcher.clear();
    let stop = Arc::new(AtomicBool::new(false));
    let mut lines = Vec::new();
    let outcome = searcher.search(&pos, &Limits::depth(depth), &stop, &mut |info| {
        let pv: Vec<String> = info.pv.iter().map(ToString::to_string).collect();
        lines.push(Line {
            depth: info.depth,
            nodes: info.nodes,
            score: info.score.to_string(),
            pv: pv.join(" "),
        });
    });
    (outcome.stats, lines)
}

/// The worked position at stage 9 with the quiescence search on and off, every iteration to
/// [`DEPTH`]: best move and score at each depth, and the whole line at the last two.
fn add_worked(f: &mut Figures) {
    for (state, on) in [("on", true), ("off", false)] {
        let (stats, lines) = lines(
            at_own_stage("qsearch", on),
            Params::DEFAULT,
            WORKED_FEN,
            DEPTH,
        );
        let key = |rest: &str| format!("ch09.worked.qsearch.{state}.{rest}");
        for line in &lines {
            f.add(&key(&format!("d{}.best", line.depth)), line.best())
                .add(&key(&format!("d{}.score", line.depth)), line.score.as_str());
        }
        for line in lines.iter().filter(|line| line.depth + 1 >= DEPTH) {
            f.add(&key(&format!("d{}.pv", line.depth)), line.pv.as_str());
        }
        f.add(&key("nodes"), stats.nodes);
    }
}

/// The three ordering switches, switched off together as the match `ch09-ordering` did.
const ORDERING: [&str; 3] = ["see", "killers", "history"];

/// Stage 9 with the ordering switches `on` or off.
fn ordering_switches(on: bool) -> Switches {
    let mut switches = at_own_stage("see", on);
    for name in ORDERING {
        switches
            .set(name, on)
            .unwrap_or_else(|e| panic!("switch {name}: {e}"));
    }
    switches
}

/// The worked position at stage 9 to [`DEPTH`] with SEE, killers and history on and off
/// together: nodes, the first move's share of the cutoffs, the result.
fn add_worked_ordering(f: &mut Figures) {
    let mut nodes = [0; 2];
    for (i, (state, on)) in [("on", true), ("off", false)].into_iter().enumerate() {
        let (stats, lines) = lines(ordering_switches(on), Params::DEFAULT, WORKED_FEN, DEPTH);
        let key = |rest: &str| format!("ch09.worked.ordering.{state}.{rest}");
        let last = lines.last().expect("a search completes depth 1");
        f.add(&key("nodes"), stats.nodes)
            .add(&key("qnodes"), stats.qnodes)
            .add(&key("best"), last.best())
            .add(&key("score"), last.score.as_str())
            .add(&key("pv"), last.pv.as_str());
        add_ordering(f, &format!("ch09.worked.ordering.{state}"), &stats);
        nodes[i] = stats.nodes;
    }
    f.add(
        "ch09.worked.ordering.change_pct",
        six::change_pct(nodes[0], nodes[1]),
    );
}

/// The share of beta cutoffs made by the first move tried.
fn add_ordering(f: &mut Figures, key: &str, stats: &SearchStats) {
    f.add(
        &format!("{key}.first_pct"),
        Figure::percent(stats.first_move_cutoffs, stats.beta_cutoffs, 1),
    );
}

/// Chapter 9's figures.
/// The history bonus's two numbers, each swept alone on the six at stage 9: the factor of the
/// depth squared and the cap (the defaults are 16 and 1,600).
const SWEPT: [six::Swept; 2] = [
    six::Swept {
        name: "history_scale",
        values: &[4, 16, 64],
        set: |p, v| p.history_bonus_per_ply2 = v,
    },
    six::Swept {
        name: "history_cap",
        values: &[400, 1_600],
        set: |p, v| p.history_bonus_max = v,
    },
];

pub fn figures() -> Figures {
    let mut f = Figures::new("ch09");
    let params = Params::DEFAULT;
    f.add("ch09.history.scale", params.history_bonus_per_ply2)
        .add("ch09.history.cap", params.history_bonus_max)
        .add("ch09.history.max", cb2026::search::ordering::HISTORY_MAX);
    for depth in [1, 5, 10, 20] {
        f.add(
            &format!("ch09.history.bonus.d{depth}"),
            params.history_bonus(depth),
        );
    }
    for swept in &SWEPT {
        let prefix = format!("ch09.sweep.{}.d{DEPTH}", swept.name);
        six::sweep(
            &mut f,
            &prefix,
            Stage::Chapter(9).switches(),
            DEPTH,
            swept.values,
            swept.set,
        );
    }
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.add_nodes(&mut f, "ch09");
        comparison.add_on_larger(&mut f, "ch09");
        let (on, off) = (comparison.total_on(), comparison.total_off());
        add_ordering(&mut f, &comparison.key("ch09", "six.off"), &off);
        if switch == "qsearch" {
            // The on side is stage 9, the same for all four switches: once.
            add_ordering(&mut f, &comparison.key("ch09", "six.on"), &on);
            f.add(&comparison.key("ch09", "six.on.cutoffs"), on.beta_cutoffs);
            f.add(&comparison.key("ch09", "six.on.qnodes"), on.qnodes)
                .add(
                    &comparison.key("ch09", "six.on.qnode_pct"),
                    Figure::percent(on.qnodes, on.nodes, 1),
                )
                .add(&comparison.key("ch09", "six.on.see_prunes"), on.see_prunes);
            comparison.add_moves(&mut f, "ch09");
        }
    }
    for (name, fen, uci) in SEE_EXAMPLES {
        let pos = position(fen);
        let m = pos
            .parse_uci_move(uci)
            .unwrap_or_else(|e| panic!("{uci}: {e}"));
        f.add(&format!("ch09.see.{name}"), see(&pos, m));
    }
    add_worked(&mut f);
    add_worked_ordering(&mut f);
    f
}

fn print_tables() {
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.print();
        let (on, off) = (comparison.total_on(), comparison.total_off());
        println!(
            "first move cuts off: {}% on, {}% off; quiescence share {}% on",
            Figure::percent(on.first_move_cutoffs, on.beta_cutoffs, 1),
            Figure::percent(off.first_move_cutoffs, off.beta_cutoffs, 1),
            Figure::percent(on.qnodes, on.nodes, 1)
        );
    }
    for (state, on) in [("on", true), ("off", false)] {
        println!("\nthe worked position, qsearch {state}: {WORKED_FEN}");
        let (_, lines) = lines(
            at_own_stage("qsearch", on),
            Params::DEFAULT,
            WORKED_FEN,
            DEPTH,
        );
        for line in lines {
            println!(
                "d{:<2} {:>9} {:>9}  {}",
                line.depth, line.nodes, line.score, line.pv
            );
        }
    }
    println!();
    print!("{}", figures().to_yaml());
}
