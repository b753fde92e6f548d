//! Pins every chapter's figures (ARCHITECTURE.md, "Figures").
//!
//! Each chapter's map is snapshotted by insta into the top-level `snapshots/<id>.snap`, which
//! `cargo xtask verify` compares with the numbers quoted in the book. A change to the engine that
//! moves a figure fails here until someone reviews it (`cargo insta review`, or
//! `INSTA_UPDATE=always cargo test -p chapters --test figures`), then re-reads the prose around it.
//! Under `CI=true` a mismatch or a missing snapshot fails and nothing is written.

#[test]
fn every_chapter_figures_match_its_snapshot() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| {
        for chapter in chapters::CHAPTERS {
            let figures = (chapter.figures)();
            assert!(!figures.is_empty(), "{} has no figures", chapter.id);
            insta::assert_yaml_snapshot!(chapter.id, figures);
        }
    });
}
