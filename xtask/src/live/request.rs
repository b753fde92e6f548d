//! What a page may ask the engine: a search request, read from the query string of
//! `GET /__engine/search?...` and checked before anything reaches the engine.
//!
//! The panel sends exactly these parameters, and the server accepts nothing else:
//!
//! | parameter | value | checked by |
//! |---|---|---|
//! | `page` | the page's token, 1 to 32 letters, digits, `-` or `_` | [`page_token`] |
//! | `fen` | a position | the engine's own FEN parser, [`Position::from_fen`] |
//! | `stage` | `1` to `20` or `M1` to `M5` | [`Stage::parse`] |
//! | `switch` (repeatable) | `NAME:on` or `NAME:off` | [`Switches::info`], [`Switches::parse_value`] |
//! | `depth` or `movetime` (exactly one) | 1 to [`MAX_DEPTH`], or 1 to [`MAX_MOVETIME_MS`] ms | [`limit`] |
//!
//! Anything else (an unknown parameter, one given twice, a value out of range) is refused with
//! a message that says what was wrong. No text of the request is ever passed on as it came:
//! the engine gets the FEN as the engine's parser printed it again, switch names from the
//! engine's own table, and numbers the server formatted. Nothing reaches a shell or a path.

use cb2026::position::Position;
use cb2026::switches::{Stage, Switches};

/// The deepest search a page may ask for. A depth-30 search of a middlegame does not end in a
/// reader's afternoon, so [`MAX_MOVETIME_MS`] also caps every search's wall time.
pub const MAX_DEPTH: u32 = 30;

/// The longest `movetime` a page may ask for, and the longest any search may run.
pub const MAX_MOVETIME_MS: u64 = 60_000;

/// The longest FEN accepted: a FEN of a legal position is under 90 characters.
const MAX_FEN_LENGTH: usize = 100;

/// How the search is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `go depth N`.
    Depth(u32),
    /// `go movetime N` (milliseconds).
    Movetime(u64),
}

impl Limit {
    /// The UCI `go` command for this limit.
    pub fn go_command(self) -> String {
        match self {
            Limit::Depth(depth) => format!("go depth {depth}"),
            Limit::Movetime(ms) => format!("go movetime {ms}"),
        }
    }
}

/// A checked search request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchRequest {
    /// Which page asked: one search at a time runs per page.
    pub page: String,
    /// The position, parsed by the engine.
    pub position: Position,
    /// The stage the switches start from.
    pub stage: Stage,
    /// Every switch's state: the stage's, then the request's `switch=` overrides.
    pub switches: Switches,
    pub limit: Limit,
}

impl SearchRequest {
    /// Reads and checks the query string (the part after `?`, still percent-encoded).
    pub fn parse(query: &str) -> Result<SearchRequest, String> {
        let mut page = None;
        let mut fen = None;
        let mut stage = None;
        let mut overrides = Vec::new();
        let mut limit = None;
        for (name, value) in query_pairs(query)? {
            match name.as_str() {
                "page" => {
                    once(&page, &name)?;
                    page = Some(page_token(&value)?);
                }
                "fen" => {
                    once(&fen, &name)?;
                    fen = Some(position(&value)?);
                }
                "stage" => {
                    once(&stage, &name)?;
                    stage = Some(Stage::parse(&value).map_err(|e| format!("stage: {e}"))?);
                }
                "switch" => overrides.push(switch(&value)?),
                "depth" | "movetime" => {
                    if limit.is_some() {
                        return Err("give one of depth and movetime, once".to_string());
                    }
                    limit = Some(self::limit(&name, &value)?);
                }
                other => {
                    return Err(format!(
                        "unknown parameter '{}' (a search takes page, fen, stage, switch, \
                         depth or movetime)",
                        shorten(other)
                    ));
                }
            }
        }
        let missing = |what: &str| format!("missing parameter: {what}");
        let stage = stage.ok_or_else(|| missing("stage"))?;
        let mut switches = stage.switches();
        for (name, on) in overrides {
            switches.set(name, on).map_err(|e| format!("switch: {e}"))?;
        }
        Ok(SearchRequest {
            page: page.ok_or_else(|| missing("page"))?,
            position: fen.ok_or_else(|| missing("fen"))?,
            stage,
            switches,
            limit: limit.ok_or_else(|| missing("depth or movetime"))?,
        })
    }
}

/// Refuses a parameter given a second time.
fn once<T>(slot: &Option<T>, name: &str) -> Result<(), String> {
    match slot {
        Some(_) => Err(format!("{name} is given twice")),
        None => Ok(()),
    }
}

/// The `name=value` pairs of a query string, decoded (`+` is a space, as forms and
/// `URLSearchParams` write it).
pub fn query_pairs(query: &str) -> Result<Vec<(String, String)>, String> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            Ok((decode(name)?, decode(value)?))
        })
        .collect()
}

/// Percent-decoding of one query component.
fn decode(text: &str) -> Result<String, String> {
    crate::serve::percent_decode(&text.replace('+', " "))
        .ok_or_else(|| format!("'{}' is not percent-encoded UTF-8", shorten(text)))
}

/// A page's token: short, and made of characters that need no escaping anywhere.
fn page_token(text: &str) -> Result<String, String> {
    let fits = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if (1..=32).contains(&text.len()) && text.chars().all(fits) {
        Ok(text.to_string())
    } else {
        Err("page: expected 1 to 32 letters, digits, '-' or '_'".to_string())
    }
}

/// The position of a FEN, by the engine's parser.
fn position(text: &str) -> Result<Position, String> {
    if text.len() > MAX_FEN_LENGTH {
        return Err(format!(
            "fen: {} characters is too long for a FEN",
            text.len()
        ));
    }
    Position::from_fen(text).map_err(|e| format!("fen: the engine refuses it: {e}"))
}

/// `NAME:on` or `NAME:off`, the name one of the engine's switches.
fn switch(text: &str) -> Result<(&'static str, bool), String> {
    let Some((name, value)) = text.split_once(':') else {
        return Err(format!(
            "switch: expected NAME:on or NAME:off, found '{}'",
            shorten(text)
        ));
    };
    let info = Switches::info(name).map_err(|e| format!("switch: {e}"))?;
    let on = Switches::parse_value(value).map_err(|e| format!("switch {}: {e}", info.name))?;
    Ok((info.name, on))
}

/// `depth` from 1 to [`MAX_DEPTH`], or `movetime` from 1 to [`MAX_MOVETIME_MS`].
fn limit(name: &str, text: &str) -> Result<Limit, String> {
    let number: Option<u64> = text.parse().ok();
    match (name, number) {
        ("depth", Some(depth @ 1..)) if depth <= u64::from(MAX_DEPTH) => {
            Ok(Limit::Depth(depth as u32))
        }
        ("movetime", Some(ms @ 1..=MAX_MOVETIME_MS)) => Ok(Limit::Movetime(ms)),
        ("depth", _) => Err(format!(
            "depth: '{}' is not a number from 1 to {MAX_DEPTH}",
            shorten(text)
        )),
        _ => Err(format!(
            "movetime: '{}' is not a number of milliseconds from 1 to {MAX_MOVETIME_MS}",
            shorten(text)
        )),
    }
}

/// At most 30 characters of `text`, for a message.
fn shorten(text: &str) -> String {
    text.chars().take(30).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOK_ENDGAME: &str = "1K1k4%2F1P6%2F8%2F8%2F8%2F8%2Fr7%2F2R5+w+-+-+0+1";

    fn parse(query: &str) -> Result<SearchRequest, String> {
        SearchRequest::parse(query)
    }

    #[test]
    fn what_the_panel_sends_is_read_with_the_stage_and_its_overrides() {
        let request = parse(&format!(
            "page=p1&fen={ROOK_ENDGAME}&stage=11&switch=nullmove%3Aoff&depth=8"
        ))
        .unwrap();
        assert_eq!(request.page, "p1");
        assert_eq!(
            request.position.to_fen(),
            "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1"
        );
        assert_eq!(request.stage, Stage::Chapter(11));
        let mut expected = Stage::Chapter(11).switches();
        expected.nullmove = false;
        assert_eq!(request.switches, expected);
        assert_eq!(request.limit.go_command(), "go depth 8");
        let timed = parse(&format!("page=p&fen={ROOK_ENDGAME}&stage=M5&movetime=500")).unwrap();
        assert_eq!(timed.limit, Limit::Movetime(500));
        assert_eq!(timed.switches, Stage::Milestone(5).switches());
    }

    #[test]
    fn anything_else_is_refused_with_what_was_wrong() {
        let base = format!("page=p&fen={ROOK_ENDGAME}&stage=11");
        let refused = |query: String, says: &str| {
            let error = parse(&query).unwrap_err();
            assert!(error.contains(says), "{query}: {error}");
        };
        refused(
            "page=p&fen=8%2F8+w+-+-&stage=11&depth=8".to_string(),
            "fen: the engine refuses it",
        );
        refused(format!("{base}&switch=nosuch:off&depth=8"), "switch: ");
        refused(
            format!("{base}&switch=nullmove:maybe&depth=8"),
            "switch nullmove",
        );
        refused(format!("{base}&switch=nullmove&depth=8"), "NAME:on");
        refused(format!("{base}&depth=31"), "from 1 to 30");
        refused(format!("{base}&depth=0"), "from 1 to 30");
        refused(format!("{base}&movetime=60001"), "from 1 to 60000");
        refused(
            format!("{base}&depth=8&movetime=100"),
            "one of depth and movetime",
        );
        refused(format!("{base}&depth=8&cmd=rm"), "unknown parameter 'cmd'");
        refused(format!("{base}&depth=8&stage=12"), "stage is given twice");
        refused(
            format!("page=p&fen={ROOK_ENDGAME}&stage=21&depth=8"),
            "stage: ",
        );
        refused(
            format!("page=p&fen={ROOK_ENDGAME}&depth=8"),
            "missing parameter: stage",
        );
        refused(
            format!("page=../x&fen={ROOK_ENDGAME}&stage=1&depth=8"),
            "page: ",
        );
        refused(base.clone(), "missing parameter: depth or movetime");
        refused(format!("{base}&depth=8&fen=%ZZ"), "percent-encoded");
    }

    #[test]
    fn a_fen_with_a_command_after_it_is_no_fen() {
        // A line break would end the `position` command and start another: the parser refuses
        // the extra text, and the engine is sent `to_fen()`, never the request's text.
        let query = format!("page=p&fen={ROOK_ENDGAME}%0Aquit&stage=11&depth=8");
        assert!(parse(&query).unwrap_err().contains("fen: "));
    }
}
