//! **Run it here** panels: a page's search, run by the reader's own engine from the page.
//!
//! A page writes, on a line of its own,
//!
//! ```text
//! {{#runit six stage=11 switch=nullmove depth=8 figures=ch11.nullmove.d8}}
//! {{#runit 8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1 id=zugzwang stage=11 switch=nullmove depth=12 figures=ch11.zugzwang}}
//! ```
//!
//! `six` is the six positions of `data/positions/six.epd` (read by the engine,
//! [`cb2026::bench::six_positions`], as the chapter programs read them); otherwise the
//! argument starts with one FEN, named by `id=`. `stage=`, `switch=` and `depth=` are the
//! settings of the chapter's figures. `figures=` is the prefix of their keys: with `six`,
//! `<prefix>.<position>.<on|off>.nodes` for each position and `<prefix>.six.<on|off>.nodes`
//! for their sum; with one FEN, `<prefix>.<on|off>.nodes`; `.best` beside `.nodes` is shown
//! too where it is stored. Every value comes from the stored figures when the book is built,
//! so the number the panel compares with is the pinned one, never a number typed into the page;
//! a key that is not stored is an error (`cargo xtask verify` reports it at the line).
//!
//! The panel is one HTML block: the positions as board diagrams ([`super::board`]) to choose
//! from, the commands that run the same search in a terminal, and controls (stage, the switch,
//! depth or time, Run) that `book/runit.js` reveals only when the page was served by `cargo
//! xtask serve` and its engine answers (see `xtask/src/live`). Opened from disk, the page
//! shows the commands instead, and the script makes no request.

use super::board::{self, Board, escape, options_of, split_fen};
use crate::live::request::MAX_DEPTH;
use cb2026::bench::six_positions;
use cb2026::switches::{Stage, Switches};
use std::fmt::Write as _;

/// The directive's name: `{{#runit ...}}`.
pub const KIND: &str = "runit";

/// The word that stands for the six positions instead of a FEN.
const SIX: &str = "six";

/// A pinned figure the panel compares with: its key and stored value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pinned {
    pub key: String,
    pub value: String,
}

/// The pinned figures of one position (or of the six together) with the switch on and off.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PinnedPair {
    /// `[on, off]` node counts.
    pub nodes: [Option<Pinned>; 2],
    /// `[on, off]` best moves, where stored.
    pub best: [Option<Pinned>; 2],
}

/// One position of a panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanelPosition {
    /// `opening`, ..., or the `id=` of a single FEN.
    pub id: String,
    pub board: Board,
    pub pinned: PinnedPair,
}

/// A parsed `{{#runit ...}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panel {
    pub positions: Vec<PanelPosition>,
    pub stage: Stage,
    /// The chapter's switch, as the engine names it.
    pub switch: &'static str,
    pub depth: u32,
    /// The six together, when the panel has the six positions and figures.
    pub total: Option<PinnedPair>,
    /// The chapter id the figures belong to (`ch11`), for the chapter's program.
    pub chapter: Option<String>,
}

/// The settings a directive names before its positions are read.
struct Settings<'a> {
    stage: Option<Stage>,
    switch: Option<&'static str>,
    depth: Option<u32>,
    figures: Option<&'a str>,
    id: Option<&'a str>,
}

impl Panel {
    /// Parses the directive's argument; `stored` gives a stored figure's value by key.
    pub fn parse(argument: &str, stored: &dyn Fn(&str) -> Option<String>) -> Result<Panel, String> {
        let (what, options) = split_fen(argument);
        let settings = settings(options)?;
        let missing = |name: &str| format!("a Run it here panel needs {name}=");
        let stage = settings.stage.ok_or_else(|| missing("stage"))?;
        let switch = settings.switch.ok_or_else(|| missing("switch"))?;
        let depth = settings.depth.ok_or_else(|| missing("depth"))?;
        let lookup = |key: String, required: bool| -> Result<Option<Pinned>, String> {
            match stored(&key) {
                Some(value) => Ok(Some(Pinned { key, value })),
                None if required => Err(format!("no stored figure {key}")),
                None => Ok(None),
            }
        };
        let pair = |prefix: &str| -> Result<PinnedPair, String> {
            let mut pair = PinnedPair::default();
            for (i, state) in ["on", "off"].into_iter().enumerate() {
                pair.nodes[i] = lookup(format!("{prefix}.{state}.nodes"), true)?;
                pair.best[i] = lookup(format!("{prefix}.{state}.best"), false)?;
            }
            Ok(pair)
        };
        let mut positions = Vec::new();
        let mut total = None;
        if what == SIX {
            if settings.id.is_some() {
                return Err("id= names a single FEN; the six have their own ids".to_string());
            }
            for six in six_positions() {
                let pinned = match settings.figures {
                    Some(prefix) => pair(&format!("{prefix}.{}", six.id))?,
                    None => PinnedPair::default(),
                };
                positions.push(PanelPosition {
                    id: six.id.to_string(),
                    board: board_of(six.fen, six.id)?,
                    pinned,
                });
            }
            if let Some(prefix) = settings.figures {
                total = Some(pair(&format!("{prefix}.{SIX}"))?);
            }
        } else {
            if what.is_empty() {
                return Err("a Run it here panel needs `six` or a FEN before its options".into());
            }
            let id = settings
                .id
                .ok_or_else(|| "a panel with one FEN needs id= to name it".to_string())?;
            let pinned = match settings.figures {
                Some(prefix) => pair(prefix)?,
                None => PinnedPair::default(),
            };
            positions.push(PanelPosition {
                id: id.to_string(),
                board: board_of(&what, id)?,
                pinned,
            });
        }
        let chapter = settings
            .figures
            .and_then(|prefix| prefix.split('.').next())
            .map(str::to_string);
        Ok(Panel {
            positions,
            stage,
            switch,
            depth,
            total,
            chapter,
        })
    }
}

/// Reads the `name=value` options of a panel.
fn settings(options: &str) -> Result<Settings<'_>, String> {
    let mut settings = Settings {
        stage: None,
        switch: None,
        depth: None,
        figures: None,
        id: None,
    };
    let mut seen = Vec::new();
    for (name, value) in options_of(options)? {
        if seen.contains(&name) {
            return Err(format!("option {name}= is given twice"));
        }
        seen.push(name);
        match name {
            "stage" => settings.stage = Some(Stage::parse(value).map_err(|e| e.to_string())?),
            "switch" => {
                settings.switch = Some(Switches::info(value).map_err(|e| e.to_string())?.name)
            }
            "depth" => settings.depth = Some(depth(value)?),
            "figures" => settings.figures = Some(value),
            "id" => settings.id = Some(value),
            other => {
                return Err(format!(
                    "unknown option {other}= (a panel knows stage=, switch=, depth=, figures=, id=)"
                ));
            }
        }
    }
    Ok(settings)
}

/// A depth the live server accepts.
fn depth(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(depth) if (1..=MAX_DEPTH).contains(&depth) => Ok(depth),
        _ => Err(format!("depth={text} is not a depth from 1 to {MAX_DEPTH}")),
    }
}

/// The board diagram of a position, captioned with its id.
fn board_of(fen: &str, id: &str) -> Result<Board, String> {
    let mut board = Board::parse(fen)?;
    board.caption = Some(id.to_string());
    Ok(board)
}

/// The command that runs a chapter's program, for the static page.
pub type ProgramOf<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The panel as one HTML block (no blank line, so that markdown keeps it whole).
pub fn render(panel: &Panel, program: ProgramOf) -> String {
    let mut html = String::new();
    let _ = writeln!(
        html,
        "<div class=\"runit\" data-stage=\"{}\" data-switch=\"{}\" data-depth=\"{}\">",
        panel.stage, panel.switch, panel.depth
    );
    let _ = writeln!(
        html,
        "<p class=\"runit-title\"><strong>Run it here</strong>: stage {}, <code>{}</code> on or \
         off, depth {}, a 16 MB table emptied first, one thread, as the chapter's figures.</p>",
        panel.stage, panel.switch, panel.depth
    );
    html.push_str(&positions(panel));
    html.push_str(&controls(panel));
    html.push_str(&static_part(panel, program));
    html.push_str(&live_part());
    html.push_str("</div>\n");
    html
}

/// The boards to choose from, each carrying its FEN and its pinned figures; "all six" too.
fn positions(panel: &Panel) -> String {
    let mut html = String::from("<div class=\"runit-positions\">\n");
    for (index, position) in panel.positions.iter().enumerate() {
        let _ = writeln!(
            html,
            "<div class=\"runit-position\" role=\"button\" tabindex=\"0\" aria-pressed=\"{}\" \
             data-id=\"{}\" data-fen=\"{}\"{}>",
            index == 0,
            escape(&position.id),
            escape(&position.board.fen),
            pinned_attributes(&position.pinned)
        );
        html.push_str(&board::render(&position.board));
        html.push_str("</div>\n");
    }
    if let Some(total) = &panel.total {
        let _ = writeln!(
            html,
            "<div class=\"runit-position runit-all\" role=\"button\" tabindex=\"0\" \
             aria-pressed=\"false\" data-id=\"{SIX}\"{}><span>all six, one after another</span></div>",
            pinned_attributes(total)
        );
    }
    html.push_str("</div>\n");
    html
}

/// `data-pinned-on-nodes="306121" data-key-on-nodes="ch11..."` and so on.
fn pinned_attributes(pair: &PinnedPair) -> String {
    let mut out = String::new();
    for (what, figures) in [("nodes", &pair.nodes), ("best", &pair.best)] {
        for (state, figure) in ["on", "off"].iter().zip(figures) {
            if let Some(figure) = figure {
                let _ = write!(
                    out,
                    " data-pinned-{state}-{what}=\"{}\" data-key-{state}-{what}=\"{}\"",
                    escape(&figure.value),
                    escape(&figure.key)
                );
            }
        }
    }
    out
}

/// What the static page shows: the commands that run the same search.
fn static_part(panel: &Panel, program: ProgramOf) -> String {
    let mut html = String::from("<div class=\"runit-static\">\n");
    html.push_str(
        "<p>Served by <code>cargo xtask serve</code>, this panel runs the search with the engine \
         on your machine. Opened from disk, it shows how to run it yourself: in the engine's \
         console (<code>cargo build --release -p cb2026</code>, then \
         <code>target/release/cb2026</code>), for the position and settings chosen above:</p>\n",
    );
    let first = &panel.positions[0];
    let _ = writeln!(
        html,
        "<pre class=\"runit-console\"><code>{}</code></pre>",
        escape(&console_lines(panel, &first.board.fen, true))
    );
    if let Some(command) = panel.chapter.as_deref().and_then(program) {
        let _ = writeln!(
            html,
            "<p>Every figure of the chapter, the switch on and off: <code>{}</code>.</p>",
            escape(&command)
        );
    }
    html.push_str("</div>\n");
    html
}

/// The console session for one search (the script rewrites it when the reader chooses).
pub fn console_lines(panel: &Panel, fen: &str, on: bool) -> String {
    format!(
        "stage {}\nset {} {}\nucinewgame\nposition fen {fen}\ngo depth {}",
        panel.stage,
        panel.switch,
        if on { "on" } else { "off" },
        panel.depth
    )
}

/// The settings (which rewrite the console commands, served or not), Run and Stop (shown only
/// when the script finds the engine), and where the results go.
fn controls(panel: &Panel) -> String {
    let mut html = String::from("<p class=\"runit-controls\">");
    html.push_str("<label>stage <select class=\"runit-stage\">");
    let chapters = (1..=Stage::LAST_CHAPTER).map(Stage::Chapter);
    for stage in chapters.chain((1..=Stage::LAST_MILESTONE).map(Stage::Milestone)) {
        let selected = if stage == panel.stage {
            " selected"
        } else {
            ""
        };
        let _ = write!(html, "<option value=\"{stage}\"{selected}>{stage}</option>");
    }
    html.push_str("</select></label> ");
    let _ = write!(
        html,
        "<label><input type=\"checkbox\" class=\"runit-switch\" checked> <code>{}</code></label> ",
        panel.switch
    );
    let _ = write!(
        html,
        "<label><select class=\"runit-limit\"><option value=\"depth\" selected>depth</option>\
         <option value=\"movetime\">time, ms</option></select> \
         <input type=\"number\" class=\"runit-amount\" min=\"1\" value=\"{}\"></label> ",
        panel.depth
    );
    html.push_str(
        "<button type=\"button\" class=\"runit-run\" hidden>Run</button> \
         <button type=\"button\" class=\"runit-stop\" hidden disabled>Stop</button></p>\n",
    );
    html
}

/// The results, hidden until the script finds the engine.
fn live_part() -> String {
    let mut html = String::from("<div class=\"runit-live\" hidden>\n");
    html.push_str("<p class=\"runit-status\" aria-live=\"polite\"></p>\n");
    html.push_str("<div class=\"runit-results\"></div>\n");
    html.push_str(
        "<details class=\"runit-sent\"><summary>What the server sent the engine</summary>\
         <pre><code></code></pre></details>\n",
    );
    html.push_str("</div>\n");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stored figures for the tests: every key ending in `nodes` is stored, as `123`.
    fn stored(key: &str) -> Option<String> {
        key.ends_with(".nodes").then(|| "123".to_string())
    }

    #[test]
    fn the_six_have_their_boards_and_pinned_figures_and_a_total() {
        let panel = Panel::parse(
            "six stage=11 switch=nullmove depth=8 figures=ch11.nullmove.d8",
            &stored,
        )
        .unwrap();
        assert_eq!(panel.positions.len(), 6);
        assert_eq!(panel.positions[0].id, "opening");
        let pinned = &panel.positions[4].pinned.nodes[1];
        assert_eq!(
            pinned.as_ref().map(|p| p.key.as_str()),
            Some("ch11.nullmove.d8.rook-endgame.off.nodes")
        );
        assert!(panel.total.is_some());
        assert_eq!(panel.chapter.as_deref(), Some("ch11"));
        let html = render(&panel, &|id| Some(format!("run {id}")));
        assert_eq!(html.matches("<svg class=\"board\"").count(), 6);
        assert!(html.contains("data-pinned-off-nodes=\"123\""));
        assert!(html.contains("run ch11"));
        assert!(html.contains("set nullmove on\nucinewgame\nposition fen r1bqkbnr"));
        assert!(
            !html.contains("\n\n"),
            "a blank line would end the HTML block"
        );
    }

    #[test]
    fn one_fen_needs_an_id_and_a_stored_key_for_each_state() {
        let fen = "8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1";
        let panel = Panel::parse(
            &format!("{fen} id=zugzwang stage=11 switch=nullmove depth=12 figures=ch11.zugzwang"),
            &stored,
        )
        .unwrap();
        assert_eq!(panel.positions[0].board.fen, fen);
        assert!(panel.total.is_none());
        let error = |argument: &str| Panel::parse(argument, &|_| None).unwrap_err();
        assert!(error(&format!("{fen} stage=11 switch=nullmove depth=12")).contains("id="));
        assert!(
            error(&format!(
                "{fen} id=z stage=11 switch=nullmove depth=12 figures=ch11.z"
            ))
            .contains("no stored figure ch11.z.on.nodes")
        );
        assert!(error("six stage=11 switch=nosuch depth=8").contains("nosuch"));
        assert!(error("six stage=11 switch=nullmove depth=31").contains("from 1 to 30"));
        assert!(error("six stage=21 switch=nullmove depth=8").contains("stage"));
        assert!(error("six switch=nullmove depth=8").contains("needs stage="));
        assert!(
            error("six stage=11 switch=nullmove depth=8 colour=red").contains("unknown option")
        );
        assert!(error("8/8 w - - id=x stage=11 switch=nullmove depth=8").contains("refuses"));
    }
}
