//! Chapter 13, futility pruning and aspiration windows: the six positions with each of the
//! chapter's switches off in turn (`rfp`, `futility`, `aspiration`), what each did, and the
//! margins.

use crate::six::{DEPTH, OnOff};
use crate::{Chapter, Figures};
use cb2026::search::pruning::Params;

/// Chapter 13 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch13",
    title: "Futility pruning and aspiration windows",
    bin: "ch13-futility",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The chapter's switches, in the order the page takes them.
const SWITCHES: [&str; 3] = ["rfp", "futility", "aspiration"];

/// The depths at which the page shows the margins.
const MARGIN_DEPTHS: [i32; 3] = [1, 3, 6];

/// Chapter 13's figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch13");
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        if switch == "aspiration" {
            comparison.add_nodes(&mut f, "ch13");
        } else {
            comparison.add_totals(&mut f, "ch13");
        }
        let on = comparison.total_on();
        let count = match switch {
            "rfp" => on.rfp_cutoffs,
            "futility" => on.futility_prunes,
            _ => on.aspiration_researches,
        };
        f.add(&comparison.key("ch13", "six.on.count"), count);
        if switch == "aspiration" {
            comparison.add_moves(&mut f, "ch13");
            for run in comparison.on.iter() {
                f.add(
                    &comparison.key("ch13", &format!("{}.on.count", run.id)),
                    run.stats.aspiration_researches,
                );
            }
        }
    }
    let params = Params::DEFAULT;
    f.add("ch13.rfp.max_depth", params.rfp_max_depth)
        .add("ch13.futility.max_depth", params.futility_max_depth)
        .add("ch13.aspiration.min_depth", params.aspiration_min_depth)
        .add("ch13.aspiration.delta", params.aspiration_delta);
    for depth in MARGIN_DEPTHS {
        f.add(
            &format!("ch13.rfp.margin.d{depth}"),
            params.rfp_margin(depth),
        )
        .add(
            &format!("ch13.futility.margin.d{depth}"),
            params.futility_margin(depth),
        );
    }
    f
}

fn print_tables() {
    for switch in SWITCHES {
        let comparison = OnOff::measure(switch, DEPTH);
        comparison.print();
        let on = comparison.total_on();
        println!(
            "rfp cutoffs {}, futility prunes {}, aspiration re-searches {} (switch on)",
            on.rfp_cutoffs, on.futility_prunes, on.aspiration_researches
        );
    }
    println!();
    print!("{}", figures().to_yaml());
}
