//! Static exchange evaluation (chapter 9): what a capture wins or loses once every piece that
//! can join the fight on the target square has taken its turn, cheapest first.
//!
//! The swap algorithm of the Chess Programming Wiki ("SEE - The Swap Algorithm"): list the
//! gains of each successive capture on the square, then let each side, from the last capture
//! back to the first, choose between taking and stopping. Pieces are removed from a copy of the
//! occupancy as they capture, so sliders behind them (x-rays) join in. Pins are ignored, as in
//! most engines: SEE orders and prunes, it does not decide.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::position::{PieceKind, Position};
use crate::square::{Color, Square};

/// Piece values for exchanges: pawn, knight, bishop, rook, queen, king. The king's is larger
/// than everything else together, so an exchange never "wins" by letting it be taken.
pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

/// The piece a promotion makes, or `None` for other moves.
pub fn promotion_kind(m: Move) -> Option<PieceKind> {
    match m.kind() {
        MoveKind::KnightPromotion | MoveKind::KnightPromotionCapture => Some(PieceKind::Knight),
        MoveKind::BishopPromotion | MoveKind::BishopPromotionCapture => Some(PieceKind::Bishop),
        MoveKind::RookPromotion | MoveKind::RookPromotionCapture => Some(PieceKind::Rook),
        MoveKind::QueenPromotion | MoveKind::QueenPromotionCapture => Some(PieceKind::Queen),
        _ => None,
    }
}

// ANCHOR: see
/// The material `m` wins (positive) or loses (negative) for the side to move, after the best
/// sequence of recaptures on its target square for both sides. `m` must be legal here.
pub fn see(pos: &Position, m: Move) -> i32 {
    let to = m.to();
    let mover = pos.piece_moved(m);
    let promotion = promotion_kind(m);
    let captured = pos
        .captured_piece(m)
        .map_or(0, |p| SEE_VALUES[p.kind.index()]);
    let promotion_gain = promotion.map_or(0, |kind| {
        SEE_VALUES[kind.index()] - SEE_VALUES[PieceKind::Pawn.index()]
    });

    // gains[d]: what the side making the d-th capture wins, if the exchange stopped there.
    let mut gains = [0i32; 32];
    gains[0] = captured + promotion_gain;
    let mut on_square = SEE_VALUES[promotion.unwrap_or(mover.kind).index()];
    let mut occupied = pos.occupied().without(m.from());
    if m.kind() == MoveKind::EnPassant {
        occupied = occupied.without(en_passant_victim(to, mover.color));
    }
    let mut side = mover.color.flip();
    let mut depth = 0;
    while depth + 1 < gains.len() {
        let attackers = pos.attackers_to(to, occupied) & occupied & pos.colour(side);
        let Some((square, kind)) = least_valuable(pos, attackers, side) else {
            break;
        };
        depth += 1;
        gains[depth] = on_square - gains[depth - 1];
        occupied = occupied.without(square);
        on_square = SEE_VALUES[kind.index()];
        side = side.flip();
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}
// ANCHOR_END: see

/// Whether `m` does not lose material: `see(pos, m) >= 0`, answered without the exchange when
/// the victim is worth at least the capturer (the opponent's recapture can cost no more).
pub fn is_non_negative(pos: &Position, m: Move) -> bool {
    if promotion_kind(m).is_none()
        && let Some(victim) = pos.captured_piece(m)
        && SEE_VALUES[victim.kind.index()] >= SEE_VALUES[pos.piece_moved(m).kind.index()]
    {
        return true;
    }
    see(pos, m) >= 0
}

/// The square of the pawn an en-passant capture to `to` by `mover` removes.
fn en_passant_victim(to: Square, mover: Color) -> Square {
    match mover {
        Color::White => Square::new(to.index() as u8 - 8),
        Color::Black => Square::new(to.index() as u8 + 8),
    }
}

/// `side`'s cheapest piece among `attackers`, and its kind.
fn least_valuable(pos: &Position, attackers: Bitboard, side: Color) -> Option<(Square, PieceKind)> {
    PieceKind::ALL.into_iter().find_map(|kind| {
        (attackers & pos.pieces(side, kind))
            .first()
            .map(|square| (square, kind))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let m = pos.parse_uci_move(uci).expect("legal move");
        see(&pos, m)
    }

    #[test]
    fn undefended_piece_is_won_whole() {
        // CPW's first SEE example: Rxe5 wins the undefended pawn.
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
    }

    #[test]
    fn defended_pawn_costs_the_knight() {
        // CPW's second example: Nxe5 wins a pawn but loses the knight to the x-ray battery.
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert_eq!(see_of(fen, "d3e5"), -200);
    }

    #[test]
    fn equal_trade_is_zero_and_x_rays_count() {
        // Rxd5 RxR RxR: the rooks behind each other join in; a pawn is won for nothing.
        let fen = "3r2k1/8/8/3p4/8/8/3R4/3R2K1 w - - 0 1";
        assert_eq!(see_of(fen, "d2d5"), 100);
        // Queen takes a pawn defended by a pawn: loses 800.
        assert_eq!(see_of("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), -800);
    }

    #[test]
    fn quick_test_agrees_with_full_exchange() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .expect("valid");
        for m in pos.legal_moves().iter().copied().filter(|m| m.is_capture()) {
            assert_eq!(is_non_negative(&pos, m), see(&pos, m) >= 0, "{m}");
        }
    }
}
