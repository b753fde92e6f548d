#!/usr/bin/env python3
"""Plays cb2026 against itself through python-chess, an independent UCI client.

python-chess (https://python-chess.readthedocs.io) is a GUI's view of the engine: it starts
the process, shakes hands, sets options, sends positions and `go`, and parses every `info` and
`bestmove` line. This script plays three short games (one from the start position, two from
the arena's openings, each under a different kind of limit, one of them pondering), and runs an
analysis, then checks:

- every move the engine plays is legal (python-chess also refuses an illegal `bestmove`);
- every `info` line parses: python-chess does not raise on a bad `info` line, it logs the error
  and drops the field, so any error logged by `chess.engine` fails the run, and each iteration
  must carry depth, seldepth, score, nodes, nps, hashfull, time and a legal pv;
- the options advertised are the ones a GUI needs.

Usage: play_games.py ENGINE OPENINGS_EPD. Exits 0 when every check passes, 1 otherwise.
"""

import logging
import sys

import chess
import chess.engine

MAX_PLIES = 60
FIELDS = ("depth", "seldepth", "score", "nodes", "nps", "hashfull", "time", "pv")


class ErrorCollector(logging.Handler):
    """Remembers every error python-chess logs (bad info lines, protocol errors)."""

    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.errors = []

    def emit(self, record):
        self.errors.append(record.getMessage())


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def check_info(board, info, where):
    """An iteration's info must have every field, and its pv must be legal from `board`."""
    missing = [field for field in FIELDS if field not in info]
    check(not missing, f"{where}: info without {missing}: {info}")
    check(info["hashfull"] <= 1000, f"{where}: hashfull {info['hashfull']}")
    position = board.copy()
    for move in info["pv"]:
        check(move in position.legal_moves, f"{where}: pv move {move} illegal in {position.fen()}")
        position.push(move)


def play_game(engine, name, board, limit, ponder=False):
    """Plays until the game ends or MAX_PLIES; returns the plies played."""
    plies = 0
    while not board.is_game_over() and plies < MAX_PLIES:
        if isinstance(limit, dict):  # a clock: both sides' time, shrinking as the game goes
            move_limit = chess.engine.Limit(
                white_clock=limit["clock"], black_clock=limit["clock"],
                white_inc=limit["inc"], black_inc=limit["inc"])
        else:
            move_limit = limit
        result = engine.play(board, move_limit, info=chess.engine.INFO_ALL, ponder=ponder)
        check(result.move is not None, f"{name}: no move in {board.fen()}")
        check(result.move in board.legal_moves, f"{name}: illegal {result.move} in {board.fen()}")
        if result.info.get("depth", 0) > 0:
            check_info(board, result.info, f"{name} ply {plies}")
        board.push(result.move)
        plies += 1
    return plies


def analyse(engine):
    """Every iteration of an analysis parses, in order."""
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    depths = []
    with engine.analysis(board, chess.engine.Limit(depth=6), info=chess.engine.INFO_ALL) as analysis:
        for info in analysis:
            if "depth" in info and "pv" in info:
                check_info(board, info, f"analysis depth {info['depth']}")
                depths.append(info["depth"])
    check(depths == list(range(1, 7)), f"analysis depths {depths}")
    mate = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3RR1K1 w - - 0 1")
    info = engine.analyse(mate, chess.engine.Limit(depth=4))
    check(info["score"].white() == chess.engine.Mate(1), f"mate in one scored {info['score']}")


def main():
    engine_path, openings_path = sys.argv[1], sys.argv[2]
    collector = ErrorCollector()
    logging.getLogger("chess.engine").addHandler(collector)
    with open(openings_path, encoding="utf-8") as openings_file:
        openings = [line.split(";")[0].strip() for line in openings_file if line.strip()][:2]
    engine = chess.engine.SimpleEngine.popen_uci(engine_path, timeout=30)
    try:
        check(engine.id.get("name", "").startswith("cb2026"), f"id name {engine.id}")
        for option in ("Hash", "Threads", "Move Overhead", "Clear Hash", "Ponder", "nullmove"):
            check(option in engine.options, f"option {option} not advertised: {list(engine.options)}")
        engine.configure({"Hash": 8, "Move Overhead": 50})
        games = [
            ("startpos, movetime 50 ms", chess.Board(), chess.engine.Limit(time=0.05), False),
            ("opening 1, depth 4", chess.Board(openings[0]), chess.engine.Limit(depth=4), False),
            ("opening 2, clock 2 s + 50 ms, pondering, 4 threads", chess.Board(openings[1]),
             {"clock": 2.0, "inc": 0.05}, True),
        ]
        for name, board, limit, ponder in games:
            if ponder:
                # The last game and the analysis search with four threads (chapter 17).
                engine.configure({"Threads": 4})
            plies = play_game(engine, name, board, limit, ponder)
            outcome = board.outcome()
            print(f"{name}: {plies} plies, {outcome.result() if outcome else 'unfinished'}")
        analyse(engine)
        print("analysis: depths 1 to 6 parsed, mate in one found")
    finally:
        engine.quit()
    check(not collector.errors, f"python-chess logged errors: {collector.errors}")
    print("all checks passed")


if __name__ == "__main__":
    try:
        main()
    except (AssertionError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
        print(f"FAILED: {error}", file=sys.stderr)
        sys.exit(1)
