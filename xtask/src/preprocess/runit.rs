//! **Run it here** panels: a page's search, run by the reader's own engine from the page.
//!
//! A page writes, on a line of its own,
//!
//! ```text
//! {{#runit six stage=11 switch=nullmove depth=8 figures=ch11.nullmove.d8}}
//! {{#runit 8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1 id=zugzwang stage=11 switch=nullmove depth=12 figures=ch11.zugzwang}}
//! {{#runit six stage=9 switch=qsearch,see,killers,history depth=8 figures=ch09.*.d8}}
//! ```
//!
//! `six` is the six positions of `data/positions/six.epd` (read by the engine,
//! [`cb2026::bench::six_positions`], as the chapter programs read them); otherwise the
//! argument starts with one FEN, named by `id=`. `stage=`, `switch=` and `depth=` are the
//! settings of the chapter's figures; `switch=` names one switch or several, each with its own
//! toggle. `figures=` is the prefix of their keys: with `six`,
//! `<prefix>.<position>.<on|off>.nodes` for each position and `<prefix>.six.<on|off>.nodes`
//! for their sum; with one FEN, `<prefix>.<on|off>.nodes`; `.best` beside `.nodes` is shown
//! too where it is stored. With several switches, a `*` in the prefix stands for each switch's
//! name: a chapter's figures turn one switch off at a time, so the panel pins a figure for
//! every switch on and for each one off alone (and says it pins none for two off). Every value
//! comes from the stored figures when the book is built, so the number the panel compares with
//! is the pinned one, never a number typed into the page; a key that is not stored is an error
//! (`cargo xtask verify` reports it at the line).
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

/// The pinned figures of one search: its node count, and its best move where stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PinnedSearch {
    pub nodes: Option<Pinned>,
    pub best: Option<Pinned>,
}

/// The pinned figures of one position (or of the six together): every switch of the panel on,
/// and each switch off alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PinnedFigures {
    pub on: PinnedSearch,
    /// One per switch of the panel, in its order: that switch off, the others on.
    pub off: Vec<PinnedSearch>,
}

/// One position of a panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanelPosition {
    /// `opening`, ..., or the `id=` of a single FEN.
    pub id: String,
    pub board: Board,
    pub pinned: PinnedFigures,
}

/// A parsed `{{#runit ...}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panel {
    pub positions: Vec<PanelPosition>,
    pub stage: Stage,
    /// The chapter's switches, as the engine names them: one toggle each.
    pub switches: Vec<&'static str>,
    pub depth: u32,
    /// The six together, when the panel has the six positions and figures.
    pub total: Option<PinnedFigures>,
    /// The chapter id the figures belong to (`ch11`), for the chapter's program.
    pub chapter: Option<String>,
}

/// The settings a directive names before its positions are read.
struct Settings<'a> {
    stage: Option<Stage>,
    switches: Vec<&'static str>,
    depth: Option<u32>,
    figures: Option<&'a str>,
    id: Option<&'a str>,
}

/// In `figures=`, the place of the switch's name when a panel has several switches.
const ANY_SWITCH: char = '*';

impl Panel {
    /// Parses the directive's argument; `stored` gives a stored figure's value by key.
    pub fn parse(argument: &str, stored: &dyn Fn(&str) -> Option<String>) -> Result<Panel, String> {
        let (what, options) = split_fen(argument);
        let settings = settings(options)?;
        let missing = |name: &str| format!("a Run it here panel needs {name}=");
        let stage = settings.stage.ok_or_else(|| missing("stage"))?;
        if settings.switches.is_empty() {
            return Err(missing("switch"));
        }
        let depth = settings.depth.ok_or_else(|| missing("depth"))?;
        if let Some(figures) = settings.figures
            && settings.switches.len() > 1
            && !figures.contains(ANY_SWITCH)
        {
            return Err(format!(
                "figures={figures} names one switch's figures; with several switches, write \
                 {ANY_SWITCH} where each switch's name goes (figures=ch09.{ANY_SWITCH}.d8)"
            ));
        }
        let figures = |position: &str| -> Result<PinnedFigures, String> {
            match settings.figures {
                Some(prefix) => pinned_figures(prefix, position, &settings.switches, stored),
                None => Ok(PinnedFigures::default()),
            }
        };
        let mut positions = Vec::new();
        let mut total = None;
        if what == SIX {
            if settings.id.is_some() {
                return Err("id= names a single FEN; the six have their own ids".to_string());
            }
            for six in six_positions() {
                positions.push(PanelPosition {
                    id: six.id.to_string(),
                    board: board_of(six.fen, six.id)?,
                    pinned: figures(six.id)?,
                });
            }
            if settings.figures.is_some() {
                total = Some(figures(SIX)?);
            }
        } else {
            if what.is_empty() {
                return Err("a Run it here panel needs `six` or a FEN before its options".into());
            }
            let id = settings
                .id
                .ok_or_else(|| "a panel with one FEN needs id= to name it".to_string())?;
            positions.push(PanelPosition {
                id: id.to_string(),
                board: board_of(&what, id)?,
                pinned: figures("")?,
            });
        }
        let chapter = settings
            .figures
            .and_then(|prefix| prefix.split('.').next())
            .map(str::to_string);
        Ok(Panel {
            positions,
            stage,
            switches: settings.switches,
            depth,
            total,
            chapter,
        })
    }
}

/// The stored figures of one position (`""` for a panel's single FEN): for each switch, the
/// keys `<prefix>.<position>.<on|off>.<nodes|best>`, its name put in the prefix for
/// [`ANY_SWITCH`]. Node counts must be stored; best moves may be. Every switch's "on" search
/// is the same search (the stage as it is), so their stored counts must agree: the panel
/// compares with one.
fn pinned_figures(
    figures: &str,
    position: &str,
    switches: &[&str],
    stored: &dyn Fn(&str) -> Option<String>,
) -> Result<PinnedFigures, String> {
    let lookup = |key: String, required: bool| -> Result<Option<Pinned>, String> {
        match stored(&key) {
            Some(value) => Ok(Some(Pinned { key, value })),
            None if required => Err(format!("no stored figure {key}")),
            None => Ok(None),
        }
    };
    let search = |prefix: &str, state: &str| -> Result<PinnedSearch, String> {
        Ok(PinnedSearch {
            nodes: lookup(format!("{prefix}.{state}.nodes"), true)?,
            best: lookup(format!("{prefix}.{state}.best"), false)?,
        })
    };
    let mut pinned = PinnedFigures::default();
    for (i, switch) in switches.iter().enumerate() {
        let mut prefix = figures.replace(ANY_SWITCH, switch);
        if !position.is_empty() {
            prefix = format!("{prefix}.{position}");
        }
        let on = search(&prefix, "on")?;
        if i == 0 {
            pinned.on = on;
        } else if on.nodes.as_ref().map(|p| &p.value) != pinned.on.nodes.as_ref().map(|p| &p.value)
        {
            let key = |search: &PinnedSearch| search.nodes.clone().map(|p| p.key);
            return Err(format!(
                "{:?} and {:?} should be one search (every switch on) but differ",
                key(&pinned.on),
                key(&on)
            ));
        }
        pinned.off.push(search(&prefix, "off")?);
    }
    Ok(pinned)
}

/// Reads the `name=value` options of a panel.
fn settings(options: &str) -> Result<Settings<'_>, String> {
    let mut settings = Settings {
        stage: None,
        switches: Vec::new(),
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
                for name in value.split(',') {
                    let name = Switches::info(name).map_err(|e| e.to_string())?.name;
                    if settings.switches.contains(&name) {
                        return Err(format!("switch {name} is named twice"));
                    }
                    settings.switches.push(name);
                }
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
        panel.stage,
        panel.switches.join(","),
        panel.depth
    );
    let _ = writeln!(
        html,
        "<p class=\"runit-title\"><strong>Run it here</strong>: stage {}, {} on or off, depth {}, \
         a 16 MB table emptied first, one thread, as the chapter's figures.</p>",
        panel.stage,
        switch_list(&panel.switches),
        panel.depth
    );
    html.push_str(&positions(panel));
    html.push_str(&controls(panel));
    html.push_str(&static_part(panel, program));
    html.push_str(&live_part());
    html.push_str("</div>\n");
    html
}

/// `<code>see</code>, <code>killers</code> and <code>history</code>`.
fn switch_list(switches: &[&str]) -> String {
    let names: Vec<String> = switches
        .iter()
        .map(|s| format!("<code>{s}</code>"))
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
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
            pinned_attributes(&position.pinned, &panel.switches)
        );
        html.push_str(&board::render(&position.board));
        html.push_str("</div>\n");
    }
    if let Some(total) = &panel.total {
        let _ = writeln!(
            html,
            "<div class=\"runit-position runit-all\" role=\"button\" tabindex=\"0\" \
             aria-pressed=\"false\" data-id=\"{SIX}\"{}><span>all six, one after another</span></div>",
            pinned_attributes(total, &panel.switches)
        );
    }
    html.push_str("</div>\n");
    html
}

/// `data-pinned-on-nodes="306121" data-key-on-nodes="ch11..."` for every switch on, and
/// `data-pinned-off-nullmove-nodes=".." data-key-off-nullmove-nodes=".."` for each switch off
/// alone; the same with `best` where a best move is stored.
fn pinned_attributes(pinned: &PinnedFigures, switches: &[&str]) -> String {
    let mut out = String::new();
    let states = std::iter::once(("on".to_string(), &pinned.on)).chain(
        switches
            .iter()
            .zip(&pinned.off)
            .map(|(switch, off)| (format!("off-{switch}"), off)),
    );
    for (state, search) in states {
        for (what, figure) in [("nodes", &search.nodes), ("best", &search.best)] {
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
        escape(&console_lines(panel, &first.board.fen))
    );
    if let Some(command) = panel.chapter.as_deref().and_then(program) {
        let _ = writeln!(
            html,
            "<p>Every figure of the chapter, each switch on and off: <code>{}</code>.</p>",
            escape(&command)
        );
    }
    html.push_str("</div>\n");
    html
}

/// The console session for one search with every switch on (the script rewrites it when the
/// reader chooses).
pub fn console_lines(panel: &Panel, fen: &str) -> String {
    let mut lines = format!("stage {}\n", panel.stage);
    for switch in &panel.switches {
        let _ = writeln!(lines, "set {switch} on");
    }
    let _ = write!(
        lines,
        "ucinewgame\nposition fen {fen}\ngo depth {}",
        panel.depth
    );
    lines
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
    for switch in &panel.switches {
        let _ = write!(
            html,
            "<label><input type=\"checkbox\" class=\"runit-switch\" data-switch=\"{switch}\" \
             checked> <code>{switch}</code></label> "
        );
    }
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
        let pinned = &panel.positions[4].pinned.off[0].nodes;
        assert_eq!(
            pinned.as_ref().map(|p| p.key.as_str()),
            Some("ch11.nullmove.d8.rook-endgame.off.nodes")
        );
        assert!(panel.total.is_some());
        assert_eq!(panel.chapter.as_deref(), Some("ch11"));
        let html = render(&panel, &|id| Some(format!("run {id}")));
        assert_eq!(html.matches("<svg class=\"board\"").count(), 6);
        assert!(html.contains("data-pinned-off-nullmove-nodes=\"123\""));
        assert!(html.contains("data-key-on-nodes=\"ch11.nullmove.d8.six.on.nodes\""));
        assert!(html.contains("run ch11"));
        assert!(html.contains("set nullmove on\nucinewgame\nposition fen r1bqkbnr"));
        assert!(
            !html.contains("\n\n"),
            "a blank line would end the HTML block"
        );
    }

    #[test]
    fn several_switches_have_a_toggle_and_an_off_figure_each_and_one_on_figure() {
        let panel = Panel::parse(
            "six stage=9 switch=see,killers depth=8 figures=ch09.*.d8",
            &stored,
        )
        .unwrap();
        assert_eq!(panel.switches, ["see", "killers"]);
        let opening = &panel.positions[0].pinned;
        let key = |search: &PinnedSearch| search.nodes.clone().unwrap().key;
        assert_eq!(key(&opening.on), "ch09.see.d8.opening.on.nodes");
        assert_eq!(key(&opening.off[1]), "ch09.killers.d8.opening.off.nodes");
        let html = render(&panel, &|_| None);
        assert_eq!(html.matches("class=\"runit-switch\"").count(), 2);
        assert!(html.contains("data-key-off-killers-nodes=\"ch09.killers.d8.six.off.nodes\""));
        assert!(html.contains("set see on\nset killers on\nucinewgame"));
        assert!(html.contains("<code>see</code> and <code>killers</code> on or off"));
        let error = |argument: &str, stored: &dyn Fn(&str) -> Option<String>| {
            Panel::parse(argument, stored).unwrap_err()
        };
        let without_star = "six stage=9 switch=see,killers depth=8 figures=ch09.see.d8";
        assert!(error(without_star, &stored).contains("write *"));
        let twice = "six stage=9 switch=see,see depth=8 figures=ch09.*.d8";
        assert!(error(twice, &stored).contains("named twice"));
        // The searches with every switch on are one search: stored counts that differ are an error.
        let differing = |key: &str| match key {
            "ch09.killers.d8.opening.on.nodes" => Some("124".to_string()),
            _ => stored(key),
        };
        let argument = "six stage=9 switch=see,killers depth=8 figures=ch09.*.d8";
        assert!(error(argument, &differing).contains("differ"));
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
