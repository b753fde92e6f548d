//! One game between two engines: the arena keeps the board, the clocks and the rules; the engines
//! only propose moves.
//!
//! **The clock.** The arena measures each move from writing `go` to reading `bestmove` (the reader
//! thread stamps each line as it arrives), subtracts it from the mover's clock and adds the
//! increment, as fastchess and cutechess-cli do. An engine loses on time when a move takes longer
//! than its remaining time plus a *margin* (default 100 ms; cutechess calls it `timemargin`): a
//! small allowance for the pipe and the operating system's scheduling, which the engine cannot
//! control. A move that overruns within the margin leaves the clock at zero. Under a fixed node
//! count or depth there is no clock; a move that takes longer than `move_timeout` is scored as a
//! loss on time too (the engine hung).
//!
//! **Faults.** An illegal or unparsable move, a crash (the process exits or closes its pipes) and a
//! loss on time end the game against the offender. The offending engine's process is ended, and a
//! fresh one is started for its next game.

use crate::adjudication::{Adjudicated, Adjudication, Adjudicator};
use crate::openings::Opening;
use crate::rules::{self, History, RulesEnd};
use crate::spec::{EngineSpec, TimeControl};
use crate::uci::{EngineError, ProtocolCounts, Score, UciEngine};
use cozy_chess::{Board, Color, Move};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What a game needs besides its players and opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameSettings {
    pub time_control: TimeControl,
    /// How far past its clock a move may run before it loses on time.
    pub time_margin: Duration,
    /// The longest a move may take under a fixed node count or depth.
    pub move_timeout: Duration,
    pub adjudication: Adjudication,
}

/// A game's result, White's point of view as in PGN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// The result as PGN writes it.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    fn win_for(color: Color) -> Self {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The points `color` scored: 1, ½ or 0.
    pub fn points_for(self, color: Color) -> f64 {
        match (self, color) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// Why a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Termination {
    Rules(RulesEnd),
    DrawAdjudication,
    /// Resign adjudication against this side.
    ResignAdjudication(Color),
    /// This side sent a move that is not legal here (the text it sent).
    IllegalMove(Color, String),
    /// This side's process exited, closed its pipes, or could not be started.
    Crash(Color),
    /// This side ran out of time (or hung under a node or depth limit).
    TimeForfeit(Color),
}

/// The kinds of engine fault, counted separately in match records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    Illegal,
    Crash,
    Time,
}

impl Termination {
    /// The result this ending gives, given the side to move in the final position.
    fn result(&self, side_to_move: Color) -> GameResult {
        match self {
            Termination::Rules(RulesEnd::Checkmate) => GameResult::win_for(!side_to_move),
            Termination::Rules(_) | Termination::DrawAdjudication => GameResult::Draw,
            Termination::ResignAdjudication(loser)
            | Termination::IllegalMove(loser, _)
            | Termination::Crash(loser)
            | Termination::TimeForfeit(loser) => GameResult::win_for(!*loser),
        }
    }

    /// The side at fault and the kind of fault, for endings that are an engine's failure.
    pub fn fault(&self) -> Option<(Color, Fault)> {
        match self {
            Termination::IllegalMove(side, _) => Some((*side, Fault::Illegal)),
            Termination::Crash(side) => Some((*side, Fault::Crash)),
            Termination::TimeForfeit(side) => Some((*side, Fault::Time)),
            _ => None,
        }
    }

    /// A short stable name, used as a key in match records: `checkmate`, `time_forfeit`, ...
    pub fn key(&self) -> &'static str {
        match self {
            Termination::Rules(RulesEnd::Checkmate) => "checkmate",
            Termination::Rules(RulesEnd::Stalemate) => "stalemate",
            Termination::Rules(RulesEnd::ThreefoldRepetition) => "threefold_repetition",
            Termination::Rules(RulesEnd::FiftyMoves) => "fifty_moves",
            Termination::Rules(RulesEnd::InsufficientMaterial) => "insufficient_material",
            Termination::DrawAdjudication => "draw_adjudication",
            Termination::ResignAdjudication(_) => "resign_adjudication",
            Termination::IllegalMove(..) => "illegal_move",
            Termination::Crash(_) => "crash",
            Termination::TimeForfeit(_) => "time_forfeit",
        }
    }

    /// The PGN standard's `Termination` tag value (PGN spec 9.8.1).
    pub fn pgn_tag(&self) -> &'static str {
        match self {
            Termination::Rules(_) => "normal",
            Termination::DrawAdjudication | Termination::ResignAdjudication(_) => "adjudication",
            Termination::IllegalMove(..) => "rules infraction",
            Termination::Crash(_) => "abandoned",
            Termination::TimeForfeit(_) => "time forfeit",
        }
    }

    /// A sentence for people: "Black loses on time", "draw by threefold repetition".
    pub fn describe(&self) -> String {
        let side = |c: &Color| if *c == Color::White { "White" } else { "Black" };
        match self {
            Termination::Rules(RulesEnd::Checkmate) => "checkmate".into(),
            Termination::Rules(RulesEnd::Stalemate) => "draw by stalemate".into(),
            Termination::Rules(RulesEnd::ThreefoldRepetition) => {
                "draw by threefold repetition".into()
            }
            Termination::Rules(RulesEnd::FiftyMoves) => "draw by the fifty-move rule".into(),
            Termination::Rules(RulesEnd::InsufficientMaterial) => {
                "draw by insufficient material".into()
            }
            Termination::DrawAdjudication => "draw by adjudication".into(),
            Termination::ResignAdjudication(c) => format!("{} resigns (adjudication)", side(c)),
            Termination::IllegalMove(c, text) => {
                format!("{} makes an illegal move: {text}", side(c))
            }
            Termination::Crash(c) => format!("{} crashes or disconnects", side(c)),
            Termination::TimeForfeit(c) => format!("{} loses on time", side(c)),
        }
    }
}

/// A move as played, with what the engine said about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    pub san: String,
    pub uci: String,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub elapsed_ms: u64,
}

/// A finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    pub opening: Opening,
    pub white: String,
    pub black: String,
    pub moves: Vec<PlayedMove>,
    pub result: GameResult,
    pub termination: Termination,
    /// Protocol faults of White's and Black's engine during the game.
    pub protocol: [ProtocolCounts; 2],
}

/// An engine seat: its spec (with every option to set) and, once started, its process.
#[derive(Debug)]
pub struct Player {
    pub spec: EngineSpec,
    engine: Option<UciEngine>,
    /// Protocol faults of processes already ended, not yet handed to a game.
    ended_protocol: ProtocolCounts,
}

/// How long an engine that ran out of time has, after `stop`, to send the `bestmove` it owes.
const STOP_GRACE: Duration = Duration::from_secs(1);

impl Player {
    pub fn new(spec: EngineSpec) -> Self {
        Player {
            spec,
            engine: None,
            ended_protocol: ProtocolCounts::default(),
        }
    }

    /// The protocol faults since the last call, of this process and of any ended before it.
    fn take_protocol(&mut self) -> ProtocolCounts {
        let mut counts = std::mem::take(&mut self.ended_protocol);
        if let Some(engine) = &mut self.engine {
            counts.add(std::mem::take(&mut engine.protocol));
        }
        counts
    }

    /// The running engine, started and configured if needed, after `ucinewgame`.
    fn ready_for_game(&mut self, abort: &AtomicBool) -> Result<&mut UciEngine, EngineError> {
        if self.engine.is_none() {
            let engine = UciEngine::start(&self.spec)?;
            self.engine = Some(engine);
            let engine = self.engine.as_mut().expect("started above");
            if let Err(e) = engine.configure(&self.spec.options) {
                self.restart_later();
                return Err(e);
            }
        }
        let engine = self.engine.as_mut().expect("started above");
        if let Err(e) = engine.new_game(abort) {
            self.restart_later();
            return Err(e);
        }
        Ok(self.engine.as_mut().expect("still running"))
    }

    /// Ends the process (a faulty engine gets a fresh one next game), keeping its counts.
    fn restart_later(&mut self) {
        if let Some(engine) = self.engine.take() {
            self.ended_protocol.add(engine.protocol);
        }
    }

    /// An engine that lost on time is sent `stop`: a GUI would wait for its `bestmove`.
    fn collect_late_answer(&mut self) {
        if let Some(engine) = &mut self.engine {
            engine.stop_and_collect(STOP_GRACE);
        }
    }
}

/// The state of one game in progress.
struct Table {
    board: Board,
    history: History,
    position: String,
    moves: Vec<PlayedMove>,
    clocks: [Duration; 2],
}

/// Plays one game from `opening`, `players[0]` with White. Returns `None` if `abort` was set
/// before the game ended (the game is abandoned, not scored).
pub fn play_game(
    players: [&mut Player; 2],
    opening: &Opening,
    settings: &GameSettings,
    abort: &AtomicBool,
) -> Option<Game> {
    let [white, black] = players;
    let names = (white.spec.name.clone(), black.spec.name.clone());
    let finish = |table: Table, termination: Termination, players: [&mut Player; 2]| {
        let result = termination.result(table.board.side_to_move());
        Game {
            opening: opening.clone(),
            white: names.0.clone(),
            black: names.1.clone(),
            moves: table.moves,
            result,
            termination,
            protocol: players.map(Player::take_protocol),
        }
    };
    let mut players = [white, black];
    for color in [Color::White, Color::Black] {
        match players[color as usize].ready_for_game(abort) {
            Ok(_) => {}
            Err(EngineError::Aborted) => return None,
            Err(_) => {
                players[color as usize].restart_later();
                let table = Table::new(opening, settings);
                return Some(finish(table, Termination::Crash(color), players));
            }
        }
    }
    let mut table = Table::new(opening, settings);
    let mut adjudicator = Adjudicator::new(settings.adjudication);
    loop {
        if let Some(end) = rules::game_over(&table.board, &table.history) {
            return Some(finish(table, Termination::Rules(end), players));
        }
        let side = table.board.side_to_move();
        let player = &mut players[side as usize];
        let ending = match table.next_move(player, settings, abort) {
            Ok(score) => adjudicator
                .after_move(side, score, table.board.fullmove_number())
                .map(|a| match a {
                    Adjudicated::Draw => Termination::DrawAdjudication,
                    Adjudicated::Resign(loser) => Termination::ResignAdjudication(loser),
                }),
            Err(MoveFailure::Aborted) => return None,
            Err(MoveFailure::Fault(termination)) => {
                if let Termination::TimeForfeit(_) = termination {
                    player.collect_late_answer();
                }
                player.restart_later();
                Some(termination)
            }
        };
        if let Some(termination) = ending {
            return Some(finish(table, termination, players));
        }
    }
}

enum MoveFailure {
    Aborted,
    Fault(Termination),
}

impl Table {
    fn new(opening: &Opening, settings: &GameSettings) -> Self {
        let board = opening.board();
        let mut history = History::default();
        history.push(&board);
        let base = match settings.time_control {
            TimeControl::Clock { base_ms, .. } => Duration::from_millis(base_ms),
            _ => Duration::ZERO,
        };
        Table {
            board,
            history,
            position: format!("position fen {} moves", opening.fen),
            moves: Vec::new(),
            clocks: [base; 2],
        }
    }

    /// The `go` command for the side to move.
    fn go_command(&self, time_control: TimeControl) -> String {
        match time_control {
            TimeControl::Clock { inc_ms, .. } => {
                let [w, b] = self.clocks.map(|c| c.as_millis());
                format!("go wtime {w} btime {b} winc {inc_ms} binc {inc_ms}")
            }
            TimeControl::Nodes(n) => format!("go nodes {n}"),
            TimeControl::Depth(d) => format!("go depth {d}"),
        }
    }

    /// Asks the side to move for its move, checks time and legality, and plays it. Returns the
    /// score the engine reported.
    fn next_move(
        &mut self,
        player: &mut Player,
        settings: &GameSettings,
        abort: &AtomicBool,
    ) -> Result<Option<Score>, MoveFailure> {
        let side = self.board.side_to_move();
        let limit = match settings.time_control {
            TimeControl::Clock { .. } => self.clocks[side as usize] + settings.time_margin,
            _ => settings.move_timeout,
        };
        let go = self.go_command(settings.time_control);
        let engine = player
            .engine
            .as_mut()
            .ok_or(MoveFailure::Fault(Termination::Crash(side)))?;
        let position = if self.moves.is_empty() {
            self.position.trim_end_matches(" moves")
        } else {
            &self.position
        };
        let reply = match engine.go(position, &go, limit, abort) {
            Ok(reply) => reply,
            Err(EngineError::Aborted) => return Err(MoveFailure::Aborted),
            Err(EngineError::Timeout) => {
                return Err(MoveFailure::Fault(Termination::TimeForfeit(side)));
            }
            Err(_) => return Err(MoveFailure::Fault(Termination::Crash(side))),
        };
        if let TimeControl::Clock { inc_ms, .. } = settings.time_control {
            let clock = &mut self.clocks[side as usize];
            if reply.elapsed > limit {
                return Err(MoveFailure::Fault(Termination::TimeForfeit(side)));
            }
            *clock = clock.saturating_sub(reply.elapsed) + Duration::from_millis(inc_ms);
        }
        let Some(mv) = rules::move_from_uci(&self.board, &reply.bestmove) else {
            return Err(MoveFailure::Fault(Termination::IllegalMove(
                side,
                reply.bestmove,
            )));
        };
        let san = cozy_chess::util::display_san_move(&self.board, mv).to_string();
        let uci = rules::move_to_uci(&self.board, mv);
        self.position.push(' ');
        self.position.push_str(&uci);
        self.board.play(mv);
        self.history.push(&self.board);
        self.moves.push(PlayedMove {
            mv,
            san,
            uci,
            score: reply.score,
            depth: reply.depth,
            elapsed_ms: reply.elapsed.as_millis() as u64,
        });
        Ok(reply.score)
    }
}
