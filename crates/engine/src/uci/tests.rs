//! The session through [`Session::handle`], with the answers written to memory.

use super::output::SharedBuffer;
use super::*;
use crate::position::Position;
use crate::switches::{Stage, Switches};
use std::thread;
use std::time::{Duration, Instant};

fn session() -> (Session, SharedBuffer) {
    let buffer = SharedBuffer::default();
    (Session::new(Output::new(buffer.clone())), buffer)
}

/// What `line` answers (waiting for a job it starts to end by itself).
fn answer(session: &mut Session, buffer: &SharedBuffer, line: &str) -> String {
    buffer.clear();
    session.handle(line).expect("writing to memory");
    session.finish();
    buffer.text()
}

/// The lines of `text` that start with `prefix`.
fn lines_starting<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.starts_with(prefix)).collect()
}

/// Waits until `buffer` holds a line starting with `prefix`, failing after a minute (a hang,
/// not a slow machine).
fn wait_for(buffer: &SharedBuffer, prefix: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while lines_starting(&buffer.text(), prefix).is_empty() {
        assert!(Instant::now() < deadline, "no {prefix}: {}", buffer.text());
        thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn uci_handshake_lists_options_and_switches() {
    let (mut session, buffer) = session();
    let text = answer(&mut session, &buffer, "uci");
    assert!(text.starts_with("id name cb2026"));
    assert!(text.ends_with("uciok\n"));
    assert!(text.contains("option name Hash type spin default 16 min 1 max 33554432\n"));
    assert!(text.contains("option name Threads type spin default 1 min 1 max 256\n"));
    assert!(text.contains("option name Clear Hash type button\n"));
    assert!(text.contains("option name Move Overhead type spin default 50 min 0 max 5000\n"));
    assert!(text.contains("option name ttbuckets type check default false\n"));
    assert!(text.contains("option name lmr type check default true\n"));
    assert_eq!(answer(&mut session, &buffer, "isready"), "readyok\n");
    assert_eq!(session.handle("quit").ok(), Some(Flow::Quit));
}

#[test]
fn a_refused_position_leaves_no_position_until_a_good_one() {
    let (mut session, buffer) = session();
    answer(&mut session, &buffer, "position startpos moves e2e4");
    for bad in [
        "position startpos moves e2e4 e7e5 e1e3",
        "position fen 8/8/8 w - - 0 1",
        "position sideways",
    ] {
        let text = answer(&mut session, &buffer, bad);
        assert!(text.starts_with("info string error: position: "), "{text}");
        assert!(text.ends_with("; no position until a good one\n"), "{text}");
        assert_eq!(session.position(), None);
        for go in [
            "go depth 3",
            "go infinite",
            "go ponder wtime 10 btime 10",
            "go fish",
        ] {
            assert_eq!(
                answer(&mut session, &buffer, go),
                "info string error: no position (the last 'position' was refused)\n\
                 bestmove 0000\n",
                "{bad}, then {go}"
            );
        }
        for command in ["d", "eval", "perft 1"] {
            let text = answer(&mut session, &buffer, command);
            assert!(text.contains("no position"), "{command}: {text}");
        }
        answer(&mut session, &buffer, "position startpos moves e2e4");
    }
    let text = answer(&mut session, &buffer, "go depth 2");
    let best = lines_starting(&text, "bestmove ");
    let m = best[0].split(' ').nth(1).expect("a move");
    let mut after_e4 = Position::startpos();
    after_e4.make_move(after_e4.parse_uci_move("e2e4").expect("legal"));
    assert!(after_e4.parse_uci_move(m).is_ok(), "{text}");
}

#[test]
fn bad_input_is_answered_not_obeyed() {
    let (mut session, buffer) = session();
    let mut said = |line: &str| answer(&mut session, &buffer, line);
    assert_eq!(
        said("fly"),
        "info string error: unknown command 'fly' (try 'help')\n"
    );
    assert!(said("perft x").contains("perft: depth 'x'"));
    assert!(said("setoption name Hash value abc").contains("Hash value 'abc' is not a whole"));
    assert!(said("setoption name Threads value 257").contains("from 1 to 256"));
    assert!(said("setoption name Threads value 0").contains("from 1 to 256"));
    assert!(said("setoption name Nonsense value 1").contains("unknown option 'Nonsense'"));
    assert!(said("setoption name lmr value maybe").contains("lmr value 'maybe'"));
    assert!(said("set nullmvoe off").contains("unknown switch 'nullmvoe'"));
    assert!(said("bench 0").contains("bench: depth '0'"));
    assert!(said("stage 21").contains("info string error: stage: unknown stage '21'"));
    assert!(said("stage M22").contains("info string error: stage: unknown stage 'm22'"));
    assert!(said("stage 3 4").contains("info string error: stage: expected"));
    assert_eq!(said(""), "");
    assert_eq!(session.position(), Some(&Position::startpos()));
    assert_eq!(session.settings.switches, Switches::default());
}

#[test]
fn option_names_are_case_insensitive_and_may_have_spaces() {
    let (mut session, buffer) = session();
    let mut said = |line: &str| answer(&mut session, &buffer, line);
    assert_eq!(said("setoption name move overhead value 120"), "");
    assert_eq!(said("setoption name HASH value 2"), "");
    assert_eq!(said("setoption name NullMove value false"), "");
    assert_eq!(said("setoption name Clear Hash"), "");
    assert_eq!(session.settings.move_overhead, Duration::from_millis(120));
    assert_eq!(session.settings.hash_mb, 2);
    assert!(!session.settings.switches.nullmove);
}

#[test]
fn a_hash_the_machine_cannot_give_is_refused_and_the_old_table_kept() {
    let (mut session, buffer) = session();
    answer(&mut session, &buffer, "setoption name Hash value 2");
    let text = answer(&mut session, &buffer, "setoption name Hash value 10000000");
    assert!(
        text.starts_with("info string error: setoption: Hash: ") && text.ends_with("; kept 2 MB\n"),
        "{text}"
    );
    assert_eq!(session.settings.hash_mb, 2);
    let slots = session.searcher.as_ref().map(|s| s.tt().slot_count());
    assert_eq!(slots, Some(2 * 65_536));
    let text = answer(&mut session, &buffer, "go depth 3");
    assert_eq!(lines_starting(&text, "bestmove ").len(), 1, "{text}");
}

#[test]
fn go_depth_reports_each_iteration_and_one_legal_bestmove() {
    let (mut session, buffer) = session();
    let text = answer(&mut session, &buffer, "go depth 4");
    assert_eq!(lines_starting(&text, "info depth").len(), 4, "{text}");
    let best = lines_starting(&text, "bestmove");
    assert_eq!(best.len(), 1, "{text}");
    let m = best[0].split_whitespace().nth(1).expect("a move");
    assert!(Position::startpos().parse_uci_move(m).is_ok(), "{m}");
}

#[test]
fn every_go_is_answered_whatever_its_parameters() {
    let (mut session, buffer) = session();
    for (go, warning) in [
        (
            "go fish 3 depth 2",
            Some("go: unknown parameter 'fish' ignored"),
        ),
        (
            "go depth 2 searchmoves e2e4",
            Some("go: searchmoves is not supported"),
        ),
        ("go movestogo 0 wtime 2000 btime 2000", None),
        ("go depth 0", None),
        ("go nodes 0", None),
        ("go wtime -100 btime -100 winc -5", None),
        (
            "go btime 5000",
            Some("go: wtime is missing for the side to move; counting it as 0"),
        ),
        ("go depth 99999999999999999999 movetime 100", None),
        ("go mate 0 depth 2", None),
        (
            "go depth 2 depth 1",
            Some("go: depth given twice; the last one counts"),
        ),
    ] {
        let text = answer(&mut session, &buffer, go);
        let best = lines_starting(&text, "bestmove ");
        assert_eq!(best.len(), 1, "{go}: {text}");
        let m = best[0].split(' ').nth(1).expect("a move");
        assert!(
            Position::startpos().parse_uci_move(m).is_ok(),
            "{go}: {text}"
        );
        let warnings = lines_starting(&text, "info string warning: ");
        match warning {
            Some(expected) => assert!(warnings[0].contains(expected), "{go}: {text}"),
            None => assert!(warnings.is_empty(), "{go}: {text}"),
        }
    }
    let text = answer(&mut session, &buffer, "go depth 0");
    assert_eq!(
        lines_starting(&text, "info depth 1 ").len(),
        1,
        "depth 0 is depth 1"
    );
    // nodes 0 searches depth 1 whole, so it plays depth 1's move, not the generator's first.
    answer(&mut session, &buffer, "position startpos moves e2e4 e7e5");
    answer(&mut session, &buffer, "ucinewgame");
    let depth_one = answer(&mut session, &buffer, "go depth 1");
    answer(&mut session, &buffer, "ucinewgame");
    let nodes_zero = answer(&mut session, &buffer, "go nodes 0");
    let best = |text: &str| lines_starting(text, "bestmove ").concat();
    assert_eq!(best(&nodes_zero), best(&depth_one), "{nodes_zero}");
    assert_ne!(best(&nodes_zero), "bestmove e1e2", "{nodes_zero}");
    assert_eq!(lines_starting(&nodes_zero, "info depth 1 ").len(), 1);
    answer(&mut session, &buffer, "position startpos");
    for unreadable in ["go depth x", "go wtime", "go nodes 5k"] {
        let text = answer(&mut session, &buffer, unreadable);
        assert!(text.starts_with("info string error: go: "), "{text}");
        assert!(text.ends_with("\nbestmove 0000\n"), "{text}");
    }
}

#[test]
fn no_legal_move_answers_0000_at_once_with_the_reason() {
    let (mut session, buffer) = session();
    let mated = "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
    let stalemated = "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    for (position, reason) in [(mated, "mate 0"), (stalemated, "cp 0")] {
        answer(&mut session, &buffer, position);
        for go in ["go depth 3", "go movetime 10", "go infinite", "go ponder"] {
            buffer.clear();
            session.handle(go).expect("memory");
            // Answered before handle returns: no search is started, no stop is needed.
            assert_eq!(
                buffer.text(),
                format!("info depth 0 score {reason}\nbestmove 0000\n"),
                "{go}"
            );
            assert!(!session.searching());
        }
    }
}

#[test]
fn mate_stops_the_search_once_the_mate_is_found() {
    let (mut session, buffer) = session();
    // A back-rank mate in one: Re8#.
    answer(
        &mut session,
        &buffer,
        "position fen 6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1",
    );
    let text = answer(&mut session, &buffer, "go mate 1");
    assert!(text.contains("score mate 1"), "{text}");
    assert!(text.ends_with("bestmove e1e8\n"), "{text}");
}

#[test]
fn a_go_while_searching_ends_that_search_first_and_both_answer() {
    let (mut session, buffer) = session();
    session.handle("go infinite").expect("memory");
    session.handle("ucinewgame").expect("memory");
    session
        .handle("setoption name Hash value 2")
        .expect("memory");
    session.handle("go depth 1").expect("memory");
    session.finish();
    let text = buffer.text();
    assert_eq!(
        lines_starting(&text, "info string error: "),
        vec![
            "info string error: ucinewgame: not while searching (send stop first)",
            "info string error: setoption name Hash: not while searching (send stop first)",
        ],
        "{text}"
    );
    assert_eq!(lines_starting(&text, "bestmove ").len(), 2, "{text}");
    assert_eq!(answer(&mut session, &buffer, "ucinewgame"), "");
}

#[test]
fn ponderhit_turns_the_ponder_search_into_the_real_one() {
    let (mut session, buffer) = session();
    session
        .handle("go ponder wtime 100 btime 100")
        .expect("memory");
    thread::sleep(Duration::from_millis(20));
    assert!(
        !buffer.text().contains("bestmove"),
        "pondering must not answer"
    );
    session.handle("ponderhit").expect("memory");
    session.finish();
    assert_eq!(
        lines_starting(&buffer.text(), "bestmove").len(),
        1,
        "{}",
        buffer.text()
    );
}

#[test]
fn position_fen_with_moves_then_perft() {
    let (mut session, buffer) = session();
    answer(
        &mut session,
        &buffer,
        "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1",
    );
    let text = answer(&mut session, &buffer, "perft 1");
    assert!(text.ends_with("\nNodes searched: 3\n\n"), "{text}");
    assert!(answer(&mut session, &buffer, "d").contains("Fen: 4k3/8/8/8/8/8/8/5RK1 b - - 1 1"));
}

#[test]
fn stop_ends_perft_and_bench_and_the_session_goes_on() {
    let (mut session, buffer) = session();
    for (command, name) in [("perft 9", "perft"), ("bench 30", "bench")] {
        buffer.clear();
        session.handle(command).expect("memory");
        let refused = answer_now(&mut session, &buffer, "perft 1");
        assert_eq!(
            refused,
            format!("info string error: perft: not while {name} runs (send stop first)\n")
        );
        assert_eq!(answer_now(&mut session, &buffer, "isready"), "readyok\n");
        session.handle("stop").expect("memory");
        wait_for(&buffer, &format!("info string {name} stopped"));
        let text = buffer.text();
        assert!(
            !text.contains("Nodes searched") && !text.contains(" nps"),
            "{text}"
        );
    }
    let text = answer(&mut session, &buffer, "go depth 2");
    assert_eq!(lines_starting(&text, "bestmove ").len(), 1, "{text}");
    // A go ends a perft too, and is answered.
    session.handle("perft 9").expect("memory");
    let text = answer(&mut session, &buffer, "go depth 1");
    assert!(text.contains("info string perft stopped\n"), "{text}");
    assert_eq!(lines_starting(&text, "bestmove ").len(), 1, "{text}");
}

/// What `line` answers at once, while a job may run on.
fn answer_now(session: &mut Session, buffer: &SharedBuffer, line: &str) -> String {
    buffer.clear();
    session.handle(line).expect("memory");
    buffer.text()
}

#[test]
fn stage_sets_every_switch_and_says_which_stage_they_are() {
    let (mut session, buffer) = session();
    let mut said = |line: &str| answer(&mut session, &buffer, line);
    // The default engine ships some switches off (`ttbuckets`, `corrhist`, ...) and some of
    // the last milestones' on: it is no stage until all of them are set, and then it is the
    // last stage, M21. M14's `eval3`, M15's `eval4`, M17's two and M18's `evalcache` ship on
    // and M13's `kingsafety` off: without M14's to M18's, the rest on make M11 and M12 (which
    // added no switch), with M13's, M13, with M14's too, M14, with M15's, M15 and M16 (which
    // added no switch either), then M17 and M18. M19's three ship off; with them on, M19;
    // M20's `complexity` ships off too, and with it on, M20. M21's `skipquiets` ships on: off
    // until then, and with it on, M21.
    assert_eq!(said("set skipquiets off"), "");
    let shipped_off = Switches::shipped_off_through(Stage::Milestone(18));
    let (last, before) = shipped_off.split_last().expect("switches shipped off");
    for switch in before {
        assert!(said("stage").contains("no stage"), "{switch}");
        assert_eq!(said(&format!("set {switch} on")), "");
    }
    assert!(said("stage").contains("no stage"));
    assert_eq!(said("set eval3 off"), "");
    assert_eq!(said("set eval4 off"), "");
    assert!(said("stage").contains("no stage"));
    assert_eq!(said("set qsttmove off"), "");
    assert_eq!(said("set qsfutility off"), "");
    assert!(said("stage").contains("no stage"));
    assert_eq!(said("set evalcache off"), "");
    assert_eq!(said("stage"), "stage M11 to M12 (the same switches)\n");
    assert_eq!(said(&format!("set {last} on")), "");
    assert_eq!(said("stage"), "stage M13\n");
    assert_eq!(said("set eval3 on"), "");
    assert_eq!(said("stage"), "stage M14\n");
    assert_eq!(said("set eval4 on"), "");
    assert_eq!(said("stage"), "stage M15 to M16 (the same switches)\n");
    assert_eq!(said("set qsttmove on"), "");
    assert!(said("stage").contains("no stage"));
    assert_eq!(said("set qsfutility on"), "");
    assert_eq!(said("stage"), "stage M17\n");
    assert_eq!(said("set evalcache on"), "");
    assert_eq!(said("stage"), "stage M18\n");
    for switch in ["lmrchecks", "lmrnoisy", "ttnoisy"] {
        assert_eq!(said(&format!("set {switch} on")), "");
    }
    assert_eq!(said("stage"), "stage M19\n");
    assert_eq!(said("set complexity on"), "");
    assert_eq!(said("stage"), "stage M20\n");
    assert_eq!(said("set skipquiets on"), "");
    assert_eq!(said("stage"), "stage M21\n");
    assert_eq!(said("stage 9"), "");
    assert_eq!(said("stage"), "stage 9\n");
    assert_eq!(said("stage m5"), "");
    assert_eq!(said("stage"), "stage M5\n");
    assert_eq!(said("set tt off"), "");
    assert!(said("stage").contains("no stage"));
    assert!(said("help").contains("stage [N]"));
    assert!(!session.settings.switches.tt);
    session.handle("stage 12").expect("memory");
    assert_eq!(session.settings.switches, Stage::Chapter(12).switches());
}

#[test]
fn eval_traces_the_evaluation_the_switches_choose() {
    let (mut session, buffer) = session();
    let mut said = |line: &str| answer(&mut session, &buffer, line);
    said("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    assert_eq!(said("set eval2 off"), "");
    let six = said("eval");
    assert!(six.contains("rooks on files") && !six.contains("passed: free path"));
    assert_eq!(said("set eval2 on"), "");
    let two = said("eval");
    let pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .expect("valid");
    // One line per term with White's and Black's mg and eg and the blended total, then the
    // phase, the scale and the total.
    // (M13's king safety inputs are not scores: they show in the king danger.)
    for term in crate::eval2::TERMS {
        let shown = term.start < crate::eval2::KING_SAFETY;
        assert_eq!(two.contains(term.name), shown, "{}: {two}", term.name);
    }
    assert!(two.contains("king danger (*)") && two.contains("scale 64 of 64"));
    // The default engine plays M15's weights with M13's king safety; `eval4` off, M14's;
    // `eval3` off too, M10's teacher weights with M6's king danger; `teacher` off, chapter
    // 19's tuned ones; `tuned` off too, the hand-set ones.
    let total = |set, danger| {
        crate::eval2::evaluate(&pos, &mut crate::eval2::PawnTable::new(), set, danger)
    };
    let m6 = &crate::eval2::KING_DANGER_CHECKS;
    let learnt_danger = &crate::eval2::KING_SAFETY_LEARNT;
    let eval4 = total(crate::eval2::WeightSet::Eval4, learnt_danger);
    assert!(
        two.ends_with(&format!("total (White's view) {eval4}\n")),
        "{two}"
    );
    assert_eq!(said("set eval4 off"), "");
    let eval3 = total(crate::eval2::WeightSet::Eval3, learnt_danger);
    assert_ne!(eval4, eval3, "the two weight sets differ here");
    assert!(said("eval").ends_with(&format!("total (White's view) {eval3}\n")));
    assert_eq!(said("set eval3 off"), "");
    let teacher = total(crate::eval2::WeightSet::Teacher, m6);
    assert_ne!(eval3, teacher, "the two weight sets differ here");
    assert!(said("eval").ends_with(&format!("total (White's view) {teacher}\n")));
    assert_eq!(said("set teacher off"), "");
    let tuned = total(crate::eval2::WeightSet::Tuned, m6);
    assert_ne!(teacher, tuned, "the two weight sets differ here");
    assert!(said("eval").ends_with(&format!("total (White's view) {tuned}\n")));
    assert_eq!(said("set tuned off"), "");
    let hand_set = total(crate::eval2::WeightSet::HandSet, m6);
    assert_ne!(tuned, hand_set, "the two weight sets differ here");
    assert!(said("eval").ends_with(&format!("total (White's view) {hand_set}\n")));
    // M13's `kingsafety`: its own weights and its own king danger, whatever `teacher` says.
    assert_eq!(said("set kingsafety on"), "");
    let learnt = total(crate::eval2::WeightSet::KingSafety, learnt_danger);
    assert!(said("eval").ends_with(&format!("total (White's view) {learnt}\n")));
}
