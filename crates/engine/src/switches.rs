//! Feature switches: every search and table feature a chapter measures, in one table.
//!
//! A chapter shows what its feature changes by switching it off and searching the same positions
//! again, so each feature the search has from chapter 8 on is guarded by a switch. Switching one
//! off gives exactly the search without that feature: the guarded code is skipped, nothing else
//! moves. The console's `set NAME on|off` and UCI's `setoption name NAME value true|false` both
//! reach [`Switches::set`]; the console's `switches` prints [`Switches::describe`].
//!
//! Defaults are the strongest configuration we have measured. Features of the book ship
//! off until games say on is better: `smpvote` (chapter 17), M2's `histprune` (it cost games
//! alone, `snapshots/games/m2-alone-histprune.json`), `ttbuckets`, `ttbuckets64`, `ttkeepdeep`
//! and `tttouch` (M5), M7's `corrhist` (`snapshots/games/m7-corrhist.json`), M8's `cutnode`
//! (`snapshots/games/m8-cutnode.json`), M19's `lmrchecks`, `lmrnoisy` and `ttnoisy`
//! (`snapshots/games/m19-reductions.json`) and M20's `complexity`
//! (`snapshots/games/m20-complexity.json`).
//! M21's `skipquiets` changes no node of the search, only the work per node; it shipped on in
//! its own milestone, with games beside its timings (`snapshots/games/m21-skipquiets.json`).
//! Chapter 18's `eval2`, chapter 19's `tuned`, M1's `staged` and `countermove`, M2's
//! `capthist`, `conthist` and `histlmr`, M3's `improving`, `lmp`, `seeprune`, `iir`, `tteval`,
//! `razoring` and `probcut`, M4's `stability`, `scoredrop` and `nodeshare` and M6's
//! `safechecks` shipped off until their games said H1 (`snapshots/games/ch18-eval2.json`,
//! `snapshots/games/ch19-tuned-l2.json`, `snapshots/games/m1-picker.json`,
//! `snapshots/games/m2-without-histprune.json`, `snapshots/games/m3-pruning.json`,
//! `snapshots/games/m3-ii.json`, `snapshots/games/m4-time-target.json`,
//! `snapshots/games/m6-safechecks-ii.json`). Six more shipped off until M12 played them
//! together and the games said H1 (`snapshots/games/combined-small-gains.json`): chapter 14.1's
//! `singular`, M3's `multicut`, M4's `timeplus`, M9's `negext`, M10's `teacher` and M11's
//! `nulleval`; [`TURNED_ON_LATER`] lists them, and [`Switches::shipped_after`] gives back the
//! engine as it shipped before.
//!
//! Every switch belongs to a chapter, so the switches also say what the engine was at the end of
//! each chapter: [`Stage`] N is the engine with the switches of chapters 1 to N on and every later
//! one off. A chapter measures its feature at its own stage (Crafting Interpreters builds and
//! tests its interpreter as it stands at the end of each chapter, the same idea without
//! branches), so a feature added by a later chapter cannot move an earlier chapter's figures.

use crate::eval2::{KING_DANGER, KING_DANGER_CHECKS, KING_SAFETY_LEARNT, KingDanger, WeightSet};
use crate::tt::Geometry;
use std::fmt;

/// The on/off state of every feature. Plain `bool`s: the search reads them in its hot path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switches {
    /// Chapter 6's terms beyond PeSTO's material and tables: bishop pair, passed pawns, pawn
    /// structure, rooks on files, mobility, king safety (off: material and tables alone).
    pub evalterms: bool,
    /// Alpha-beta's cut-offs (chapter 7); off, every node is searched with the widest window,
    /// which is plain minimax: the same scores, far more nodes.
    pub alphabeta: bool,
    /// Probe and store the transposition table (chapter 8).
    pub tt: bool,
    /// Eight-slot buckets in one 128-byte cache line instead of one slot per key (M5). On, it
    /// decides the geometry whatever `ttbuckets64` says.
    pub ttbuckets: bool,
    /// Four-slot buckets in one 64-byte cache line instead of one slot per key (M5, for the
    /// 64-byte lines of most x86-64 processors).
    pub ttbuckets64: bool,
    /// A store for a position already in the table keeps a deeper entry unless the new result is
    /// exact (M5); off, the newer result always replaces it.
    pub ttkeepdeep: bool,
    /// After making a move, start loading the child's table slots before its probe needs them
    /// (M5's safe stand-in for a prefetch).
    pub tttouch: bool,
    /// Quiescence search at the horizon instead of the static evaluation (chapter 9).
    pub qsearch: bool,
    /// Static exchange evaluation: order losing captures last, prune them in quiescence (ch 9).
    pub see: bool,
    /// Two killer moves per ply tried after the good captures (chapter 9).
    pub killers: bool,
    /// The history heuristic orders the remaining quiet moves (chapter 9).
    pub history: bool,
    /// Principal variation search: null windows after the first move (chapter 10).
    pub pvs: bool,
    /// Null-move pruning (chapter 11).
    pub nullmove: bool,
    /// Late move reductions (chapter 12).
    pub lmr: bool,
    /// Reverse futility pruning, also called static null-move pruning (chapter 13).
    pub rfp: bool,
    /// Futility pruning of quiet moves near the horizon (chapter 13).
    pub futility: bool,
    /// Aspiration windows around the previous iteration's score (chapter 13).
    pub aspiration: bool,
    /// Extend moves that give check by one ply (chapter 14).
    pub checkext: bool,
    /// Singular extensions of the hash move (chapter 14.1).
    pub singular: bool,
    /// Chapter 15's two time limits: a soft one past which no iteration starts and a hard one
    /// at which the search is abandoned. Off, one limit, the same fixed share of the clock, at
    /// which the search is abandoned ([`crate::time::fixed_share`]). Only a search under a
    /// clock reads it: a search to a depth or a node count is the same either way.
    pub timeman: bool,
    /// With several threads, play the move the threads vote for, weighted by depth and score
    /// (chapter 17); off, the deepest iteration any thread completed. One thread: no difference.
    pub smpvote: bool,
    /// With several threads, half of the helpers start their iterations one ply deeper than
    /// the main thread (chapter 17); off, every thread starts at depth 1. One thread: no
    /// difference.
    pub smpoffset: bool,
    /// Chapter 18's evaluation (passed pawns in detail, pawn structure through a pawn table,
    /// mobility by piece, king shelter and danger, threats, outposts, endgame scaling) instead
    /// of chapter 6's.
    pub eval2: bool,
    /// Generate the moves of a node stage by stage, the hash move first and unchecked by
    /// generation, the quiet moves only once the captures are tried (M1).
    pub staged: bool,
    /// Try the quiet move that last refuted the opponent's move just after the killers (M1).
    pub countermove: bool,
    /// Capture history: captures ordered by what they took before on this square with this
    /// piece, as well as by MVV-LVA (M2).
    pub capthist: bool,
    /// Continuation histories: quiet moves ordered also by how they did after the previous
    /// move and after our own move before it (M2).
    pub conthist: bool,
    /// History in late move reductions: quiet moves with a good history are reduced less,
    /// with a bad one more (M2).
    pub histlmr: bool,
    /// History pruning: at low depth, quiet moves with a very bad history are not searched
    /// (M2).
    pub histprune: bool,
    /// Evaluation II with the weights tuned by Texel's method instead of the hand-set ones
    /// (chapter 19).
    pub tuned: bool,
    /// Evaluation II with the weights tuned on labels blended from the games' results and a
    /// stronger engine's verdict, instead of chapter 19's (M10).
    pub teacher: bool,
    /// The soft time limit grows when the best move keeps changing and shrinks when it is
    /// stable (M4).
    pub stability: bool,
    /// The soft time limit grows when the score falls between iterations (M4).
    pub scoredrop: bool,
    /// The soft time limit shrinks when the best move took most of the nodes, and grows when
    /// it took few (M4).
    pub nodeshare: bool,
    /// The soft limit at half as much again as M4's scaled target: the clock the engine left
    /// at the end of its games is spent during them (M4).
    pub timeplus: bool,
    /// Whether the static evaluation rose since the side to move last moved ("improving")
    /// tunes the other prunings: margins, move counts, reductions (M3).
    pub improving: bool,
    /// Late move pruning: at low depth, quiet moves after the first few are not searched (M3).
    pub lmp: bool,
    /// Static exchange pruning in the main search: at low depth, moves that lose material by
    /// more than a margin are not searched (M3).
    pub seeprune: bool,
    /// Internal iterative reduction: a node with no hash move is searched a ply shallower (M3).
    pub iir: bool,
    /// The table's score, where its bound says it is nearer the truth, replaces the static
    /// evaluation in the prunings' tests (M3).
    pub tteval: bool,
    /// Razoring: at low depth, a node whose evaluation is far below alpha asks quiescence
    /// whether anything wins the material back, and fails low at once if nothing does (M3).
    pub razoring: bool,
    /// ProbCut: a capture that beats beta by a margin in a much shallower search is taken as
    /// proof that the full search would fail high (M3).
    pub probcut: bool,
    /// Multi-cut: when the singular test finds another move that beats beta, the node fails
    /// high at once (M3; acts only with chapter 14.1's `singular` on).
    pub multicut: bool,
    /// King danger counts the safe checks each side could give, as well as its attacks on the
    /// enemy king's zone (M6).
    pub safechecks: bool,
    /// The static evaluation is corrected by what searches found it off by in positions with
    /// the same pawns and side to move (M7).
    pub corrhist: bool,
    /// Late moves at a node the search expects to fail high are reduced a ply more (M8).
    pub cutnode: bool,
    /// A hash move that is not singular, at a node the table says fails high anyway, is
    /// searched a ply shallower (M9; acts only with chapter 14.1's `singular` on).
    pub negext: bool,
    /// The null-move search is a ply shallower for every 200 centipawns by which the static
    /// evaluation beats beta, up to three (M11).
    pub nulleval: bool,
    /// Evaluation II's king danger is M13's: inputs with tuned weights, summed and squared,
    /// instead of hand-set units and table (with M13's weights, tuned with it).
    pub kingsafety: bool,
    /// Evaluation II counts M14's terms (candidate passers, safe pushes, more threats, bishops,
    /// minors behind pawns, the king's pawns and defenders), with every weight tuned again.
    pub eval3: bool,
    /// Evaluation II counts M15's terms (pawn structure by file and square, king shelter and
    /// storm by file, more threats, space, closedness), with every weight tuned again.
    pub eval4: bool,
    /// Quiescence tries the table's move first, and stores the move it found best (M17).
    pub qsttmove: bool,
    /// Quiescence skips a capture that cannot lift the evaluation to alpha even if it wins
    /// its victim for nothing, with a margin to spare (delta pruning, M17).
    pub qsfutility: bool,
    /// The static evaluations a thread computed lately are kept by position key, and looked
    /// up before evaluating (M18).
    pub evalcache: bool,
    /// A quiet move that gives check is a late move like another, reduced a ply less (M19);
    /// off, checks are never reduced.
    pub lmrchecks: bool,
    /// A capture the exchange says loses material, tried last, is reduced like a late quiet
    /// move (M19); off, every capture is searched at full depth.
    pub lmrnoisy: bool,
    /// Where the hash move is a capture or a promotion, the quiet moves are reduced a ply more
    /// (M19).
    pub ttnoisy: bool,
    /// Evaluation II moves its endgame value by the position's complexity (pawns, passed
    /// pawns, both wings, pawns only, the kings' outflanking), with M15's weights and the
    /// complexity's tuned again together (M20).
    pub complexity: bool,
    /// Once late move pruning prunes a quiet move, the move picker hands out no more quiet
    /// moves, which would all be pruned too (M21): the same search, less work.
    pub skipquiets: bool,
}

/// One row of the table: a switch's name, default, chapter and help line.
#[derive(Clone, Copy)]
pub struct SwitchInfo {
    /// The name used by `set` and `setoption`: lowercase, one word.
    pub name: &'static str,
    /// The value a new [`Switches`] has.
    pub default: bool,
    /// The chapter that introduces and measures the feature: the first stage that has it.
    pub stage: Stage,
    /// One line for the `switches` listing.
    pub help: &'static str,
    field: fn(&mut Switches) -> &mut bool,
}

impl fmt::Debug for SwitchInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SwitchInfo")
            .field("name", &self.name)
            .field("default", &self.default)
            .field("stage", &self.stage)
            .finish()
    }
}

/// Every switch, in chapter order: the one place a feature is registered.
pub const SWITCHES: [SwitchInfo; 59] = [
    SwitchInfo {
        name: "evalterms",
        default: true,
        stage: Stage::Chapter(6),
        help: "evaluation terms beyond material and piece-square tables",
        field: |s| &mut s.evalterms,
    },
    SwitchInfo {
        name: "alphabeta",
        default: true,
        stage: Stage::Chapter(7),
        help: "alpha-beta cut-offs (off: minimax, every node with the widest window)",
        field: |s| &mut s.alphabeta,
    },
    SwitchInfo {
        name: "tt",
        default: true,
        stage: Stage::Chapter(8),
        help: "probe and store the transposition table",
        field: |s| &mut s.tt,
    },
    SwitchInfo {
        name: "qsearch",
        default: true,
        stage: Stage::Chapter(9),
        help: "quiescence search at the horizon (off: static evaluation)",
        field: |s| &mut s.qsearch,
    },
    SwitchInfo {
        name: "see",
        default: true,
        stage: Stage::Chapter(9),
        help: "static exchange evaluation: losing captures last, pruned in quiescence",
        field: |s| &mut s.see,
    },
    SwitchInfo {
        name: "killers",
        default: true,
        stage: Stage::Chapter(9),
        help: "two killer moves per ply",
        field: |s| &mut s.killers,
    },
    SwitchInfo {
        name: "history",
        default: true,
        stage: Stage::Chapter(9),
        help: "history heuristic for quiet moves",
        field: |s| &mut s.history,
    },
    SwitchInfo {
        name: "pvs",
        default: true,
        stage: Stage::Chapter(10),
        help: "principal variation search (null windows after the first move)",
        field: |s| &mut s.pvs,
    },
    SwitchInfo {
        name: "nullmove",
        default: true,
        stage: Stage::Chapter(11),
        help: "null-move pruning",
        field: |s| &mut s.nullmove,
    },
    SwitchInfo {
        name: "lmr",
        default: true,
        stage: Stage::Chapter(12),
        help: "late move reductions",
        field: |s| &mut s.lmr,
    },
    SwitchInfo {
        name: "rfp",
        default: true,
        stage: Stage::Chapter(13),
        help: "reverse futility pruning (static null move)",
        field: |s| &mut s.rfp,
    },
    SwitchInfo {
        name: "futility",
        default: true,
        stage: Stage::Chapter(13),
        help: "futility pruning of quiet moves near the horizon",
        field: |s| &mut s.futility,
    },
    SwitchInfo {
        name: "aspiration",
        default: true,
        stage: Stage::Chapter(13),
        help: "aspiration windows with widening",
        field: |s| &mut s.aspiration,
    },
    SwitchInfo {
        name: "checkext",
        default: true,
        stage: Stage::Chapter(14),
        help: "extend checking moves by one ply",
        field: |s| &mut s.checkext,
    },
    SwitchInfo {
        name: "singular",
        default: true,
        stage: Stage::Chapter(14),
        help: "singular extension of the hash move",
        field: |s| &mut s.singular,
    },
    SwitchInfo {
        name: "timeman",
        default: true,
        stage: Stage::Chapter(15),
        help: "soft and hard time limits (off: one fixed share of the clock)",
        field: |s| &mut s.timeman,
    },
    SwitchInfo {
        name: "smpvote",
        default: false,
        stage: Stage::Chapter(17),
        help: "with threads, play the move the threads vote for (off: the deepest result)",
        field: |s| &mut s.smpvote,
    },
    SwitchInfo {
        name: "smpoffset",
        default: true,
        stage: Stage::Chapter(17),
        help: "with threads, half the helpers start a ply deeper (off: all start at depth 1)",
        field: |s| &mut s.smpoffset,
    },
    SwitchInfo {
        name: "eval2",
        default: true,
        stage: Stage::Chapter(18),
        help: "evaluation II: chapter 18's terms instead of chapter 6's",
        field: |s| &mut s.eval2,
    },
    SwitchInfo {
        name: "tuned",
        default: true,
        stage: Stage::Chapter(19),
        help: "evaluation II with chapter 19's tuned weights instead of the hand-set ones",
        field: |s| &mut s.tuned,
    },
    SwitchInfo {
        name: "staged",
        default: true,
        stage: Stage::Milestone(1),
        help: "generate moves in stages: hash move, captures, killers, quiets",
        field: |s| &mut s.staged,
    },
    SwitchInfo {
        name: "countermove",
        default: true,
        stage: Stage::Milestone(1),
        help: "the quiet move that last refuted the previous move, after the killers",
        field: |s| &mut s.countermove,
    },
    SwitchInfo {
        name: "capthist",
        default: true,
        stage: Stage::Milestone(2),
        help: "capture history: captures ordered by how they did before, not by MVV-LVA alone",
        field: |s| &mut s.capthist,
    },
    SwitchInfo {
        name: "conthist",
        default: true,
        stage: Stage::Milestone(2),
        help: "continuation histories: quiet moves scored as replies to the last two moves",
        field: |s| &mut s.conthist,
    },
    SwitchInfo {
        name: "histlmr",
        default: true,
        stage: Stage::Milestone(2),
        help: "late move reductions shrink for a good history and grow for a bad one",
        field: |s| &mut s.histlmr,
    },
    SwitchInfo {
        name: "histprune",
        default: false,
        stage: Stage::Milestone(2),
        help: "history pruning: skip quiet moves with a very bad history at low depth",
        field: |s| &mut s.histprune,
    },
    SwitchInfo {
        name: "improving",
        default: true,
        stage: Stage::Milestone(3),
        help: "an evaluation rising since two plies ago narrows the margins and the move counts",
        field: |s| &mut s.improving,
    },
    SwitchInfo {
        name: "lmp",
        default: true,
        stage: Stage::Milestone(3),
        help: "late move pruning: skip late quiet moves at low depth",
        field: |s| &mut s.lmp,
    },
    SwitchInfo {
        name: "seeprune",
        default: true,
        stage: Stage::Milestone(3),
        help: "skip moves that lose material by the exchange at low depth",
        field: |s| &mut s.seeprune,
    },
    SwitchInfo {
        name: "iir",
        default: true,
        stage: Stage::Milestone(3),
        help: "internal iterative reduction: a ply less where the table has no move",
        field: |s| &mut s.iir,
    },
    SwitchInfo {
        name: "tteval",
        default: true,
        stage: Stage::Milestone(3),
        help: "the table's score, where its bound allows, as the prunings' evaluation",
        field: |s| &mut s.tteval,
    },
    SwitchInfo {
        name: "razoring",
        default: true,
        stage: Stage::Milestone(3),
        help: "at low depth, a node far below alpha fails low if quiescence agrees",
        field: |s| &mut s.razoring,
    },
    SwitchInfo {
        name: "probcut",
        default: true,
        stage: Stage::Milestone(3),
        help: "a capture that beats beta by a margin in a shallow search cuts the node",
        field: |s| &mut s.probcut,
    },
    SwitchInfo {
        name: "multicut",
        default: true,
        stage: Stage::Milestone(3),
        help: "a singular test that finds a second move beating beta cuts the node",
        field: |s| &mut s.multicut,
    },
    SwitchInfo {
        name: "stability",
        default: true,
        stage: Stage::Milestone(4),
        help: "more time while the best move changes, less once it is stable",
        field: |s| &mut s.stability,
    },
    SwitchInfo {
        name: "scoredrop",
        default: true,
        stage: Stage::Milestone(4),
        help: "more time when the score falls from one iteration to the next",
        field: |s| &mut s.scoredrop,
    },
    SwitchInfo {
        name: "nodeshare",
        default: true,
        stage: Stage::Milestone(4),
        help: "less time when the best move took most of the nodes, more when it took few",
        field: |s| &mut s.nodeshare,
    },
    SwitchInfo {
        name: "timeplus",
        default: true,
        stage: Stage::Milestone(4),
        help: "the soft time limit half as much again: spend the clock the games left unused",
        field: |s| &mut s.timeplus,
    },
    SwitchInfo {
        name: "ttbuckets64",
        default: false,
        stage: Stage::Milestone(5),
        help: "four-slot buckets in one 64-byte cache line per key",
        field: |s| &mut s.ttbuckets64,
    },
    SwitchInfo {
        name: "ttkeepdeep",
        default: false,
        stage: Stage::Milestone(5),
        help: "a shallower bound for the same position leaves a deeper entry in place",
        field: |s| &mut s.ttkeepdeep,
    },
    SwitchInfo {
        name: "tttouch",
        default: false,
        stage: Stage::Milestone(5),
        help: "after a move, start loading the child's table slots before the probe",
        field: |s| &mut s.tttouch,
    },
    SwitchInfo {
        name: "ttbuckets",
        default: false,
        stage: Stage::Milestone(5),
        help: "eight-slot buckets in one cache line per key",
        field: |s| &mut s.ttbuckets,
    },
    SwitchInfo {
        name: "safechecks",
        default: true,
        stage: Stage::Milestone(6),
        help: "king danger counts the checks the enemy king cannot answer by taking the checker",
        field: |s| &mut s.safechecks,
    },
    SwitchInfo {
        name: "corrhist",
        default: false,
        stage: Stage::Milestone(7),
        help: "correct the static evaluation by the search's past errors for these pawns",
        field: |s| &mut s.corrhist,
    },
    SwitchInfo {
        name: "cutnode",
        default: false,
        stage: Stage::Milestone(8),
        help: "reduce late moves a ply more at nodes expected to fail high",
        field: |s| &mut s.cutnode,
    },
    SwitchInfo {
        name: "negext",
        default: true,
        stage: Stage::Milestone(9),
        help: "search a hash move a ply shallower when another move also beats the singular bound",
        field: |s| &mut s.negext,
    },
    SwitchInfo {
        name: "teacher",
        default: true,
        stage: Stage::Milestone(10),
        help: "evaluation II with M10's weights, tuned on labels a stronger engine helped write",
        field: |s| &mut s.teacher,
    },
    SwitchInfo {
        name: "nulleval",
        default: true,
        stage: Stage::Milestone(11),
        help: "reduce the null-move search more the further the evaluation is above beta",
        field: |s| &mut s.nulleval,
    },
    SwitchInfo {
        name: "kingsafety",
        default: false,
        stage: Stage::Milestone(13),
        help: "a king safety the tuner learns: weighted inputs, summed and squared",
        field: |s| &mut s.kingsafety,
    },
    SwitchInfo {
        name: "eval3",
        default: true,
        stage: Stage::Milestone(14),
        help: "evaluation III: ten more terms, and every weight tuned again with them",
        field: |s| &mut s.eval3,
    },
    SwitchInfo {
        name: "eval4",
        default: true,
        stage: Stage::Milestone(15),
        help: "evaluation IV: Ethereal's finer tables and seven more terms, every weight tuned again",
        field: |s| &mut s.eval4,
    },
    SwitchInfo {
        name: "qsttmove",
        default: true,
        stage: Stage::Milestone(17),
        help: "quiescence tries the table's move first and stores the move it found best",
        field: |s| &mut s.qsttmove,
    },
    SwitchInfo {
        name: "qsfutility",
        default: true,
        stage: Stage::Milestone(17),
        help: "quiescence skips captures that cannot reach alpha even winning their victim",
        field: |s| &mut s.qsfutility,
    },
    SwitchInfo {
        name: "evalcache",
        default: true,
        stage: Stage::Milestone(18),
        help: "keep the static evaluations computed lately, and look them up before evaluating",
        field: |s| &mut s.evalcache,
    },
    SwitchInfo {
        name: "lmrchecks",
        default: false,
        stage: Stage::Milestone(19),
        help: "late quiet moves that give check are reduced, a ply less than others",
        field: |s| &mut s.lmrchecks,
    },
    SwitchInfo {
        name: "lmrnoisy",
        default: false,
        stage: Stage::Milestone(19),
        help: "late captures that lose material are reduced like late quiet moves",
        field: |s| &mut s.lmrnoisy,
    },
    SwitchInfo {
        name: "ttnoisy",
        default: false,
        stage: Stage::Milestone(19),
        help: "quiet moves are reduced a ply more where the hash move is noisy",
        field: |s| &mut s.ttnoisy,
    },
    SwitchInfo {
        name: "complexity",
        default: false,
        stage: Stage::Milestone(20),
        help: "the endgame value grows or shrinks with how complex the position is",
        field: |s| &mut s.complexity,
    },
    SwitchInfo {
        name: "skipquiets",
        default: true,
        stage: Stage::Milestone(21),
        help: "once late move pruning starts, the picker hands out no more quiet moves",
        field: |s| &mut s.skipquiets,
    },
];

/// The switches that shipped on in their own milestone, after the engines of
/// [`TURNED_ON_LATER`]: games accepted them at once.
pub const SHIPPED_ON_LATER: [&str; 6] = [
    "eval3",
    "eval4",
    "qsttmove",
    "qsfutility",
    "evalcache",
    "skipquiets",
];

// ANCHOR: turned_on_later
/// The switches whose default a later milestone's games turned on, each with that milestone.
/// Their own chapters shipped them off, and those chapters' figures of the default engine were
/// measured that way: [`Switches::shipped_after`] switches them off again to replay them.
///
/// The six each gained a few Elo alone, too little for a verdict in the games one machine can
/// play; M12 played them together against the engine without them, and that test accepted H1.
pub const TURNED_ON_LATER: [(&str, Stage); 6] = [
    ("singular", Stage::Milestone(12)),
    ("multicut", Stage::Milestone(12)),
    ("timeplus", Stage::Milestone(12)),
    ("negext", Stage::Milestone(12)),
    ("teacher", Stage::Milestone(12)),
    ("nulleval", Stage::Milestone(12)),
];
// ANCHOR_END: turned_on_later

/// What went wrong setting a switch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwitchError {
    /// No switch has this name.
    UnknownName(String),
    /// The value is none of `on`, `off`, `true`, `false`.
    BadValue(String),
}

impl fmt::Display for SwitchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwitchError::UnknownName(name) => write!(
                f,
                "unknown switch '{name}'; known switches: {}",
                Switches::names().join(", ")
            ),
            SwitchError::BadValue(value) => {
                write!(
                    f,
                    "bad switch value '{value}'; expected on, off, true or false"
                )
            }
        }
    }
}

impl std::error::Error for SwitchError {}

// ANCHOR: stage
/// A point in the book: the engine as it stands at the end of chapter 1 to 20, or after one
/// of the milestones M1, M2, ... (the milestones come after chapter 20). The derived order is
/// the book's: every chapter before every milestone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// The end of chapter 1 to [`Stage::LAST_CHAPTER`].
    Chapter(u8),
    /// The end of milestone M1 to [`Stage::LAST_MILESTONE`].
    Milestone(u8),
}

impl Stage {
    /// The book's last chapter.
    pub const LAST_CHAPTER: u8 = 20;
    /// The book's last milestone.
    pub const LAST_MILESTONE: u8 = 21;
    /// Every feature of the book on (`ttbuckets` and `corrhist` included, unlike the default
    /// engine).
    pub const LAST: Stage = Stage::Milestone(Stage::LAST_MILESTONE);

    /// The engine at this stage: every switch of this stage's chapter and the ones before it
    /// on, every later one off. It does not read the defaults, so changing a later feature's
    /// default cannot change an earlier stage.
    pub fn switches(self) -> Switches {
        let mut switches = Switches::all(false);
        for info in &SWITCHES {
            *(info.field)(&mut switches) = info.stage <= self;
        }
        switches
    }

    /// The stage at which the switch `name` first appears: the engine of its own chapter.
    pub fn of_switch(name: &str) -> Result<Stage, SwitchError> {
        Switches::info(name).map(|info| info.stage)
    }
    // ANCHOR_END: stage

    /// Reads `11`, `ch11`, `m5` or `M5`.
    pub fn parse(text: &str) -> Result<Stage, StageError> {
        let text = text.trim().to_ascii_lowercase();
        let (number, milestone) = if let Some(rest) = text.strip_prefix('m') {
            (rest, true)
        } else {
            (text.strip_prefix("ch").unwrap_or(&text), false)
        };
        let n: u8 = number.parse().map_err(|_| StageError(text.to_string()))?;
        let last = if milestone {
            Stage::LAST_MILESTONE
        } else {
            Stage::LAST_CHAPTER
        };
        if n == 0 || n > last {
            return Err(StageError(text.to_string()));
        }
        Ok(if milestone {
            Stage::Milestone(n)
        } else {
            Stage::Chapter(n)
        })
    }

    /// The chapter's id as figure keys and file names spell it: `ch08`, `m5`.
    pub fn id(self) -> String {
        match self {
            Stage::Chapter(n) => format!("ch{n:02}"),
            Stage::Milestone(n) => format!("m{n}"),
        }
    }
}

impl fmt::Display for Stage {
    /// `11` or `M5`, as the console's `stage` command takes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stage::Chapter(n) => write!(f, "{n}"),
            Stage::Milestone(n) => write!(f, "M{n}"),
        }
    }
}

/// A stage that is not a chapter 1-20 or one of the milestones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageError(String);

impl fmt::Display for StageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown stage '{}'; expected a chapter 1-{} or a milestone M1-M{}",
            self.0,
            Stage::LAST_CHAPTER,
            Stage::LAST_MILESTONE
        )
    }
}

impl std::error::Error for StageError {}

impl Default for Switches {
    /// Every switch at its default from [`SWITCHES`].
    fn default() -> Switches {
        let mut switches = Switches::all(false);
        for info in &SWITCHES {
            *(info.field)(&mut switches) = info.default;
        }
        switches
    }
}

impl Switches {
    /// Every switch set to `on`: `all(false)` is the bare minimax of chapter 7 over PeSTO's
    /// material and tables, the engine of stage 5 (rules only, with an evaluation to search).
    pub fn all(on: bool) -> Switches {
        Switches {
            evalterms: on,
            alphabeta: on,
            tt: on,
            ttbuckets: on,
            ttbuckets64: on,
            ttkeepdeep: on,
            tttouch: on,
            qsearch: on,
            see: on,
            killers: on,
            history: on,
            pvs: on,
            nullmove: on,
            lmr: on,
            rfp: on,
            futility: on,
            aspiration: on,
            checkext: on,
            singular: on,
            timeman: on,
            smpvote: on,
            smpoffset: on,
            staged: on,
            countermove: on,
            eval2: on,
            tuned: on,
            capthist: on,
            conthist: on,
            histlmr: on,
            histprune: on,
            improving: on,
            lmp: on,
            seeprune: on,
            iir: on,
            tteval: on,
            razoring: on,
            probcut: on,
            multicut: on,
            safechecks: on,
            corrhist: on,
            cutnode: on,
            negext: on,
            teacher: on,
            nulleval: on,
            kingsafety: on,
            eval3: on,
            eval4: on,
            complexity: on,
            skipquiets: on,
            qsttmove: on,
            qsfutility: on,
            evalcache: on,
            lmrchecks: on,
            lmrnoisy: on,
            ttnoisy: on,
            stability: on,
            scoredrop: on,
            nodeshare: on,
            timeplus: on,
        }
    }

    /// The weights Evaluation II plays with: M20's if `complexity` is on, else M15's if
    /// `eval4` is on, else M14's if `eval3` is on, else M13's if `kingsafety` is on, else
    /// M10's if `teacher` is on, else chapter 19's tuned ones if `tuned` is on, else the
    /// hand-set ones.
    pub fn weight_set(&self) -> WeightSet {
        if self.complexity {
            WeightSet::Eval5
        } else if self.eval4 {
            WeightSet::Eval4
        } else if self.eval3 {
            WeightSet::Eval3
        } else if self.kingsafety {
            WeightSet::KingSafety
        } else if self.teacher {
            WeightSet::Teacher
        } else if self.tuned {
            WeightSet::Tuned
        } else {
            WeightSet::HandSet
        }
    }

    /// The king danger Evaluation II plays with: M13's learnt one if `kingsafety`, `eval3`,
    /// `eval4` or `complexity` (tuned with it) is on, else M6's, which counts safe checks, if
    /// `safechecks` is on, else chapter 18's.
    pub fn king_danger(&self) -> &'static KingDanger {
        if self.kingsafety || self.eval3 || self.eval4 || self.complexity {
            &KING_SAFETY_LEARNT
        } else if self.safechecks {
            &KING_DANGER_CHECKS
        } else {
            &KING_DANGER
        }
    }

    /// The table's geometry the switches ask for: M5's eight slots if `ttbuckets` is on, else
    /// its four in a 64-byte line if `ttbuckets64` is, else chapter 8's one.
    pub fn tt_geometry(&self) -> Geometry {
        if self.ttbuckets {
            Geometry::EightSlots
        } else if self.ttbuckets64 {
            Geometry::FourSlots
        } else {
            Geometry::OneSlot
        }
    }

    /// The names of every switch, in table order.
    pub fn names() -> Vec<&'static str> {
        SWITCHES.iter().map(|info| info.name).collect()
    }

    /// The switches the default engine ships off whose stage is `last` or earlier, in table
    /// order: the ones games turned down or have not decided. With them on, the default engine
    /// is stage `last` (if every later switch is off by default too).
    pub fn shipped_off_through(last: Stage) -> Vec<&'static str> {
        SWITCHES
            .iter()
            .filter(|info| !info.default && info.stage <= last)
            .map(|info| info.name)
            .collect()
    }

    /// The default engine as it shipped at the end of `stage`: today's defaults with every
    /// switch of [`TURNED_ON_LATER`] whose milestone comes after `stage` off again, and every
    /// switch of [`SHIPPED_ON_LATER`] whose own milestone does. A page that quotes "the
    /// default engine" of an earlier milestone replays it with this, so a later milestone
    /// turning a switch on cannot move that page's figures.
    pub fn shipped_after(stage: Stage) -> Switches {
        let mut switches = Switches::default();
        for name in SHIPPED_ON_LATER {
            let info = Switches::info(name).expect("SHIPPED_ON_LATER names a switch");
            if info.stage > stage {
                *(info.field)(&mut switches) = false;
            }
        }
        for (name, turned_on) in TURNED_ON_LATER {
            if turned_on > stage {
                switches
                    .set(name, false)
                    .expect("TURNED_ON_LATER names a switch");
            }
        }
        switches
    }

    /// Sets the switch `name` (case-insensitive, as UCI option names are).
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), SwitchError> {
        let info = Self::info(name)?;
        *(info.field)(self) = on;
        Ok(())
    }

    /// The state of the switch `name`.
    pub fn get(&self, name: &str) -> Result<bool, SwitchError> {
        let info = Self::info(name)?;
        let mut copy = *self;
        Ok(*(info.field)(&mut copy))
    }

    /// The row of the table for `name`.
    pub fn info(name: &str) -> Result<&'static SwitchInfo, SwitchError> {
        SWITCHES
            .iter()
            .find(|info| info.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| SwitchError::UnknownName(name.trim().to_string()))
    }

    /// Reads a switch value as the console (`on`/`off`) and UCI (`true`/`false`) write it.
    pub fn parse_value(text: &str) -> Result<bool, SwitchError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "on" | "true" | "1" => Ok(true),
            "off" | "false" | "0" => Ok(false),
            _ => Err(SwitchError::BadValue(text.trim().to_string())),
        }
    }

    /// The listing for the console's `switches` command: one line per switch with its state,
    /// default, chapter and help.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        for info in &SWITCHES {
            let on = self.get(info.name).unwrap_or(info.default);
            out.push_str(&format!(
                "{:<11} {:<3} (default {:<3}) {:<5} {}\n",
                info.name,
                if on { "on" } else { "off" },
                if info.default { "on" } else { "off" },
                info.stage.id(),
                info.help
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stage_has_exactly_the_switches_of_its_chapter_and_earlier() {
        for info in &SWITCHES {
            let own = info.stage;
            assert_eq!(own.switches().get(info.name), Ok(true), "{}", info.name);
            let before = match own {
                Stage::Chapter(n) => Stage::Chapter(n - 1),
                Stage::Milestone(1) => Stage::Chapter(Stage::LAST_CHAPTER),
                Stage::Milestone(n) => Stage::Milestone(n - 1),
            };
            assert_eq!(before.switches().get(info.name), Ok(false), "{}", info.name);
            assert_eq!(Stage::LAST.switches().get(info.name), Ok(true));
        }
        assert_eq!(Stage::Chapter(5).switches(), Switches::all(false));
        assert_eq!(Stage::LAST.switches(), Switches::all(true));
    }

    #[test]
    fn stage_eleven_is_the_default_engine_without_its_later_features() {
        let mut expected = Switches::default();
        for name in [
            "lmr",
            "rfp",
            "futility",
            "aspiration",
            "checkext",
            "singular",
            "timeman",
            "smpoffset",
            "eval2",
            "tuned",
            "staged",
            "countermove",
            "capthist",
            "conthist",
            "histlmr",
            "improving",
            "lmp",
            "seeprune",
            "iir",
            "tteval",
            "razoring",
            "probcut",
            "stability",
            "scoredrop",
            "nodeshare",
            "safechecks",
            "multicut",
            "timeplus",
            "negext",
            "teacher",
            "nulleval",
            "kingsafety",
            "eval3",
            "eval4",
            "qsttmove",
            "qsfutility",
            "evalcache",
            "lmrchecks",
            "lmrnoisy",
            "ttnoisy",
            "complexity",
            "skipquiets",
        ] {
            expected.set(name, false).expect("a known name");
        }
        assert_eq!(Stage::Chapter(11).switches(), expected);
        assert_eq!(Stage::of_switch("nullmove"), Ok(Stage::Chapter(11)));
    }

    #[test]
    fn stages_parse_and_order_as_the_book() {
        assert_eq!(Stage::parse("11"), Ok(Stage::Chapter(11)));
        assert_eq!(Stage::parse("ch08"), Ok(Stage::Chapter(8)));
        assert_eq!(Stage::parse(" M5 "), Ok(Stage::Milestone(5)));
        assert_eq!(Stage::parse("m11"), Ok(Stage::Milestone(11)));
        assert_eq!(Stage::parse("m15"), Ok(Stage::Milestone(15)));
        assert_eq!(Stage::parse("m17"), Ok(Stage::Milestone(17)));
        assert_eq!(Stage::parse("m18"), Ok(Stage::Milestone(18)));
        assert_eq!(Stage::parse("m19"), Ok(Stage::Milestone(19)));
        assert_eq!(Stage::parse("m20"), Ok(Stage::Milestone(20)));
        assert_eq!(Stage::parse("m21"), Ok(Stage::Milestone(21)));
        for bad in ["0", "21", "m0", "m22", "x", "", "-3"] {
            assert!(Stage::parse(bad).is_err(), "{bad}");
        }
        assert!(Stage::Chapter(20) < Stage::Milestone(1));
        assert_eq!(Stage::Milestone(5).to_string(), "M5");
        assert_eq!(Stage::Chapter(8).id(), "ch08");
    }

    #[test]
    fn defaults_are_on_except_what_games_turned_down() {
        let switches = Switches::default();
        for name in Switches::names() {
            let expected = ![
                "smpvote",
                "ttbuckets",
                "ttbuckets64",
                "ttkeepdeep",
                "tttouch",
                "histprune",
                "corrhist",
                "cutnode",
                "kingsafety",
                "lmrchecks",
                "lmrnoisy",
                "ttnoisy",
                "complexity",
            ]
            .contains(&name);
            assert_eq!(switches.get(name), Ok(expected), "{name}");
        }
    }

    #[test]
    fn the_engine_shipped_after_a_milestone_lacks_what_later_games_turned_on() {
        let before_m12 = Switches::shipped_after(Stage::Milestone(11));
        for (name, turned_on) in TURNED_ON_LATER {
            assert!(
                turned_on > Stage::of_switch(name).expect("a switch"),
                "{name}"
            );
            assert_eq!(Switches::default().get(name), Ok(true), "{name}");
            assert_eq!(before_m12.get(name), Ok(false), "{name}");
        }
        let mut expected = before_m12;
        for (name, _) in TURNED_ON_LATER {
            expected.set(name, true).expect("a known name");
        }
        // M14's `eval3`, M15's `eval4`, M17's two switches, M18's `evalcache` and M21's
        // `skipquiets` shipped on in their own milestones: the engine after M12 and M13 lacks
        // all six, the engine after M14 the last five, the engine after M15 and M16 the last
        // four, after M17 M18's and M21's, after M18 to M20 M21's.
        let after_m20 = Switches {
            skipquiets: false,
            ..Switches::default()
        };
        let after_m17 = Switches {
            evalcache: false,
            ..after_m20
        };
        let after_m16 = Switches {
            qsttmove: false,
            qsfutility: false,
            ..after_m17
        };
        let after_m14 = Switches {
            eval4: false,
            ..after_m16
        };
        let after_m13 = Switches {
            eval3: false,
            ..after_m14
        };
        assert_eq!(expected, after_m13);
        assert_eq!(Switches::shipped_after(Stage::Milestone(12)), after_m13);
        assert_eq!(Switches::shipped_after(Stage::Milestone(13)), after_m13);
        assert_eq!(Switches::shipped_after(Stage::Milestone(14)), after_m14);
        assert_eq!(Switches::shipped_after(Stage::Milestone(15)), after_m16);
        assert_eq!(Switches::shipped_after(Stage::Milestone(16)), after_m16);
        assert_eq!(Switches::shipped_after(Stage::Milestone(17)), after_m17);
        assert_eq!(Switches::shipped_after(Stage::Milestone(18)), after_m20);
        assert_eq!(Switches::shipped_after(Stage::Milestone(20)), after_m20);
        assert_eq!(Switches::shipped_after(Stage::LAST), Switches::default());
        assert_eq!(Switches::shipped_after(Stage::Chapter(8)), before_m12);
    }

    #[test]
    fn every_switch_reaches_its_own_field() {
        for name in Switches::names() {
            let mut switches = Switches::all(false);
            switches.set(name, true).expect("a known name");
            for other in Switches::names() {
                assert_eq!(switches.get(other), Ok(other == name), "setting {name}");
            }
        }
    }

    #[test]
    fn names_are_unique_lowercase_words() {
        let names = Switches::names();
        for (i, name) in names.iter().enumerate() {
            assert!(name.starts_with(|c: char| c.is_ascii_lowercase()), "{name}");
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()),
                "{name}"
            );
            assert!(!names[..i].contains(name), "{name} twice");
        }
    }

    #[test]
    fn unknown_names_list_the_known_ones() {
        let mut switches = Switches::default();
        let error = switches.set("nullmvoe", false).unwrap_err();
        let text = error.to_string();
        assert!(text.contains("nullmvoe") && text.contains("nullmove") && text.contains("lmr"));
        assert_eq!(switches, Switches::default());
    }

    #[test]
    fn values_parse_in_console_and_uci_spelling() {
        assert_eq!(Switches::parse_value("on"), Ok(true));
        assert_eq!(Switches::parse_value("False"), Ok(false));
        assert!(Switches::parse_value("maybe").is_err());
        assert_eq!(Switches::default().get("LMR"), Ok(true));
    }

    #[test]
    fn describe_lists_every_switch() {
        let listing = Switches::default().describe();
        assert_eq!(listing.lines().count(), SWITCHES.len());
        assert!(listing.contains("ttbuckets   off"));
    }
}
