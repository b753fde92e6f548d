//! Every switch does something, and switching a feature off really removes it.
//!
//! A switch that changed nothing would let a chapter "measure" a feature that is not there; so
//! each one must change the node count on at least one of the six positions, and each feature
//! with a counter must count nothing when off (and something when on).

use cb2026::bench::six_positions;
use cb2026::position::Position;
use cb2026::search::{SearchStats, Searcher};
use cb2026::switches::{Stage, Switches};

/// Deep enough for singular extensions (depth 7 and a table entry at depth 4 or more).
const DEPTH: u32 = 8;

/// Switches this test leaves to others: `alphabeta` off is minimax, whose tree at [`DEPTH`]
/// would take hours (`minimax_searches_more_than_alpha_beta` checks it shallower), and `timeman`
/// acts only on a clock, never at a fixed depth (the tests of `time.rs` check it), as do M4's
/// four time switches.
const NOT_AT_FIXED_DEPTH: [&str; 6] = [
    "alphabeta",
    "timeman",
    "stability",
    "scoredrop",
    "nodeshare",
    "timeplus",
];
/// Switches that choose between the results of several threads: one thread has one result.
const ONLY_WITH_THREADS: [&str; 2] = ["smpvote", "smpoffset"];
/// Chapter 6's terms, which the default engine does not use: chapter 18's `eval2` replaces
/// chapter 6's evaluation whole. (Chapter 6's own figures switch them at stage 6.)
const REPLACED_BY_EVAL2: [&str; 1] = ["evalterms"];
/// Switches that change how fast the search runs, never what it searches: M5's `tttouch` loads
/// the child's slots early and uses nothing it read, M18's `evalcache` looks up an evaluation
/// instead of computing it again, and M21's `skipquiets` stops handing out the quiet moves late
/// move pruning would prune. For these the tree must stay the same.
const SPEED_ONLY: [&str; 3] = ["tttouch", "evalcache", "skipquiets"];
/// M3's `multicut` reads chapter 14.1's singular test, which the default engine shipped off when
/// M3 was written: it is flipped with the rest of its stage on.
const NEEDS_ITS_MILESTONE: [&str; 1] = ["multicut"];
/// Switches other switches override, with those switches: M15's `eval4` chooses its own weights
/// and M13's king safety whatever `eval3`, `kingsafety`, `teacher`, `tuned` and `safechecks`
/// say, M14's `eval3` the same for the switches before it, and chapter 19's `tuned` chooses the
/// weights only while M10's `teacher` is off too. Each is flipped in the default engine with the
/// switches that shadow it off.
const SHADOWED_BY: [(&str, &[&str]); 5] = [
    ("tuned", &["eval4", "eval3", "teacher"]),
    ("teacher", &["eval4", "eval3"]),
    ("safechecks", &["eval4", "eval3"]),
    ("kingsafety", &["eval4", "eval3"]),
    ("eval3", &["eval4"]),
];
/// M9's `negext` acts where the singular test finds a rival below beta and the table's score at
/// or above it, which the six positions at depth 8 never give: it is tested on bench's fifty
/// (`negext_changes_bench_and_off_means_off`).
const NEEDS_BENCH: [&str; 1] = ["negext"];
/// M2's `histlmr` moves a reduction by a whole ply per 8,192 points of history, and `histprune`
/// skips a move only when its history is below −1,024 a ply: records that a search of a few
/// thousand nodes from cleared tables seldom builds; in a game the tables carry over from one
/// move to the next. They are flipped with the six searched in turn, nothing cleared between
/// them.
const NEEDS_LEARNED_HISTORY: [&str; 2] = ["histlmr", "histprune"];

fn search_six(switches: Switches) -> Vec<SearchStats> {
    search_six_to(switches, DEPTH)
}

fn search_six_to(switches: Switches, depth: u32) -> Vec<SearchStats> {
    // A small table: the bucket switch needs collisions to show.
    let mut searcher = Searcher::new(1);
    searcher.set_switches(switches);
    six_positions()
        .iter()
        .map(|p| {
            searcher.clear();
            let pos = Position::from_fen(p.fen).expect("valid FEN");
            searcher.search_depth(&pos, depth).stats
        })
        .collect()
}

/// The six searched one after another by one searcher, as the moves of a game are: the table
/// and the histories keep what the earlier searches learnt. Four plies deeper than the rest, so
/// that the histories grow.
fn search_six_in_turn(switches: Switches) -> Vec<SearchStats> {
    let mut searcher = Searcher::new(1);
    searcher.set_switches(switches);
    six_positions()
        .iter()
        .map(|p| {
            let pos = Position::from_fen(p.fen).expect("valid FEN");
            searcher.search_depth(&pos, DEPTH + 4).stats
        })
        .collect()
}

#[test]
fn minimax_searches_more_than_alpha_beta() {
    let depth = 3;
    let alpha_beta: u64 = nodes(&search_six_to(Switches::default(), depth))
        .iter()
        .sum();
    let minimax: u64 = nodes(&search_six_to(flipped("alphabeta"), depth))
        .iter()
        .sum();
    assert!(
        minimax > 2 * alpha_beta,
        "minimax {minimax} nodes, alpha-beta {alpha_beta}"
    );
}

fn flipped(name: &str) -> Switches {
    let mut switches = Switches::default();
    let default = switches.get(name).expect("a known switch");
    switches.set(name, !default).expect("a known switch");
    switches
}

/// The counter that shows a feature at work, for the switches that have one.
fn counter(name: &str) -> Option<fn(&SearchStats) -> u64> {
    Some(match name {
        "tt" => |s| s.tt_probes,
        "qsearch" => |s| s.qnodes,
        "see" => |s| s.see_prunes,
        "nullmove" => |s| s.null_tries,
        "lmr" => |s| s.lmr_reductions,
        "rfp" => |s| s.rfp_cutoffs,
        "futility" => |s| s.futility_prunes,
        "aspiration" => |s| s.aspiration_researches,
        "checkext" => |s| s.check_extensions,
        "singular" => |s| s.singular_searches,
        "tteval" => |s| s.tt_evals,
        "razoring" => |s| s.razor_tries,
        "probcut" => |s| s.probcut_tries,
        "nulleval" => |s| s.null_eval_plies,
        "evalcache" => |s| s.eval_cache_hits,
        "lmrchecks" => |s| s.reduced_checks,
        "lmrnoisy" => |s| s.reduced_bad_noisy,
        "ttnoisy" => |s| s.tt_noisy_reductions,
        "skipquiets" => |s| s.quiet_skips,
        _ => return None,
    })
}

fn nodes(stats: &[SearchStats]) -> Vec<u64> {
    stats.iter().map(|s| s.nodes).collect()
}

// One test, so the default search runs once for every comparison.
#[test]
fn every_switch_changes_the_tree_and_off_means_off() {
    let default = search_six(Switches::default());
    assert_eq!(
        search_six(Switches::default()),
        default,
        "the same search counts the same"
    );
    let default_in_turn = search_six_in_turn(Switches::default());
    let mut idle = Vec::new();
    for name in Switches::names() {
        let replaced = Switches::default().eval2 && REPLACED_BY_EVAL2.contains(&name);
        let elsewhere = NEEDS_BENCH.contains(&name);
        if NOT_AT_FIXED_DEPTH.contains(&name)
            || ONLY_WITH_THREADS.contains(&name)
            || replaced
            || elsewhere
        {
            continue;
        }
        if NEEDS_LEARNED_HISTORY.contains(&name) {
            if nodes(&search_six_in_turn(flipped(name))) == nodes(&default_in_turn) {
                idle.push(name);
            }
            continue;
        }
        if let Some((_, shadows)) = SHADOWED_BY.iter().find(|(shadowed, _)| *shadowed == name) {
            let mut unshadowed = Switches::default();
            for shadow in *shadows {
                unshadowed.set(shadow, false).expect("a known switch");
            }
            let mut flipped = unshadowed;
            let state = unshadowed.get(name).expect("a known switch");
            flipped.set(name, !state).expect("a known switch");
            if nodes(&search_six(unshadowed)) == nodes(&search_six(flipped)) {
                idle.push(name);
            }
            continue;
        }
        if NEEDS_ITS_MILESTONE.contains(&name) {
            let stage = Stage::of_switch(name).expect("a known switch").switches();
            let mut without = stage;
            without.set(name, false).expect("a known switch");
            let (on, off) = (search_six(stage), search_six(without));
            if nodes(&on) == nodes(&off) {
                idle.push(name);
            }
            continue;
        }
        let switched = search_six(flipped(name));
        if SPEED_ONLY.contains(&name) {
            assert_eq!(nodes(&switched), nodes(&default), "{name} changed the tree");
            // Every other counter too: the same cutoffs, prunings and extensions. With the
            // skip, late move pruning meets one quiet move a node where it met them all, so
            // its count is the skip's own, and checked against the skips below.
            let skip = name == "skipquiets";
            let without_speed_counts = |stats: &[SearchStats]| -> Vec<SearchStats> {
                stats
                    .iter()
                    .map(|s| SearchStats {
                        eval_cache_probes: 0,
                        eval_cache_hits: 0,
                        lmp_prunes: if skip { 0 } else { s.lmp_prunes },
                        quiet_skips: if skip { 0 } else { s.quiet_skips },
                        ..*s
                    })
                    .collect()
            };
            if skip {
                let skipping = if Switches::default().skipquiets {
                    &default
                } else {
                    &switched
                };
                for s in skipping {
                    assert_eq!(s.lmp_prunes, s.quiet_skips, "one pruned move met a skip");
                }
            }
            assert_eq!(
                without_speed_counts(&switched),
                without_speed_counts(&default),
                "{name} changed a count"
            );
        }
        if name == "staged" {
            let generated = |stats: &[SearchStats]| -> u64 {
                stats.iter().map(|s| s.moves_generated).sum::<u64>()
            };
            let per_node = |stats: &[SearchStats]| {
                generated(stats) as f64 / nodes(stats).iter().sum::<u64>() as f64
            };
            let (on, off) = if Switches::default().staged {
                (&default, &switched)
            } else {
                (&switched, &default)
            };
            assert!(
                per_node(on) < per_node(off),
                "staged generation lists fewer moves per node: {} vs {}",
                per_node(on),
                per_node(off)
            );
        }
        if nodes(&switched) == nodes(&default) && !SPEED_ONLY.contains(&name) {
            idle.push(name);
        }
        if let Some(counter) = counter(name) {
            // Most switches default on; `ttbuckets` and `corrhist` ship off.
            let (on, off) = if Switches::default().get(name) == Ok(true) {
                (&default, &switched)
            } else {
                (&switched, &default)
            };
            let on: u64 = on.iter().map(counter).sum();
            let off: u64 = off.iter().map(counter).sum();
            assert!(on > 0, "{name} on but never used");
            assert_eq!(off, 0, "{name} off but still used");
        }
    }
    assert!(idle.is_empty(), "switches that change nothing: {idle:?}");
    assert!(counter("ttbuckets").is_none() && counter("killers").is_none());
}

#[test]
fn negext_changes_bench_and_off_means_off() {
    let singular = Switches {
        singular: true,
        multicut: true,
        negext: false,
        ..Switches::default()
    };
    let with_negext = Switches {
        negext: true,
        ..singular
    };
    let run = |switches: Switches| {
        let depth = cb2026::bench::DEFAULT_DEPTH;
        let result = cb2026::bench::run(depth, switches, &mut std::io::sink());
        result.expect("writing to a sink cannot fail").stats
    };
    let (off, on) = (run(singular), run(with_negext));
    assert_eq!(off.negative_extensions, 0, "negext off but still used");
    assert!(on.negative_extensions > 0, "negext on but never used");
    assert_ne!(on.nodes, off.nodes, "negext changes nothing on bench");
}
