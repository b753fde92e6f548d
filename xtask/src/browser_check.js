// The in-page half of `cargo xtask browser` (xtask/src/browser.rs injects it into a copy of each
// built page; readers never load it). After the page and its fonts have loaded it measures what
// only a browser can, and writes what is wrong into the DOM, one paragraph per problem, in a
// hidden div with the id cb2026-check at the end of the body, which Chromium's --dump-dom prints:
//
// - every code block (`pre > code`) in every theme asked for, and in the print view: a block
//   whose content is wider than its box (scrollWidth > clientWidth) makes the reader scroll
//   sideways;
// - every board diagram (`svg.board`): 64 squares, as many pieces drawn as its FEN has, and
//   chess glyphs the fonts really have (six different, non-empty shapes).
//
// It must log nothing: any console message fails the page.
(function () {
    'use strict';
    const options = window.CB2026_CHECK || {};
    const THEMES = ['light', 'rust', 'coal', 'navy', 'ayu'];

    // The id of the nearest heading before `element`, for the report: "page.html#that-id".
    function anchorOf(element) {
        let found = '';
        for (const heading of document.querySelectorAll('main h1[id], main h2[id], main h3[id], main h4[id]')) {
            if (heading.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING) {
                found = heading.id;
            }
        }
        return found;
    }

    // The first line of a block, shortened, so a person can find it on the page.
    function firstLine(element) {
        const line = (element.textContent || '').split('\n').find(l => l.trim() !== '') || '';
        return line.trim().slice(0, 60);
    }

    // Switches the theme the way mdBook's own theme picker does: one class on <html>.
    function useTheme(theme) {
        const html = document.documentElement;
        THEMES.forEach(t => html.classList.remove(t));
        html.classList.add(theme);
        void html.offsetWidth; // lay the page out again now
    }

    // Applies the print stylesheets on screen: `<link media="print">` to all media, and every
    // `@media print` rule to screen as well. Chromium's headless mode offers no print media
    // switch without the DevTools protocol; this is the same CSS at the window's width.
    function emulatePrint() {
        for (const link of document.querySelectorAll('link[rel="stylesheet"][media="print"]')) {
            link.media = 'all';
        }
        for (const sheet of document.styleSheets) {
            let rules;
            try {
                rules = sheet.cssRules;
            } catch (e) {
                continue; // another origin's sheet: not ours
            }
            for (const rule of rules) {
                if (rule instanceof CSSMediaRule && rule.media.mediaText.includes('print')) {
                    rule.media.appendMedium('screen');
                }
            }
        }
        void document.documentElement.offsetWidth;
    }

    // Code blocks wider than their box, in the view called `view`.
    function overflowingCode(view, problems) {
        const blocks = document.querySelectorAll('main pre > code');
        blocks.forEach((code, index) => {
            for (const box of [code, code.parentElement]) {
                if (box.scrollWidth > box.clientWidth) {
                    problems.push(`overflow: ${view}: code block ${index + 1} at #${anchorOf(code)} ` +
                        `("${firstLine(code)}") is ${box.scrollWidth} px wide in a ` +
                        `${box.clientWidth} px ${box.tagName.toLowerCase()}`);
                    break;
                }
            }
        });
    }

    // The number of pieces a FEN's placement field names.
    function piecesInFen(fen) {
        const placement = (fen || '').split(' ')[0];
        return (placement.match(/[prnbqkPRNBQK]/g) || []).length;
    }

    // A fingerprint of how `text` draws in `font` on a canvas: its ink, pixel by pixel.
    function drawn(text, font) {
        const canvas = document.createElement('canvas');
        canvas.width = 48;
        canvas.height = 48;
        const context = canvas.getContext('2d', { willReadFrequently: true });
        context.font = `32px ${font}`;
        context.fillStyle = '#000';
        context.fillText(text, 4, 38);
        const alpha = context.getImageData(0, 0, 48, 48).data.filter((_, i) => i % 4 === 3);
        const ink = alpha.reduce((sum, a) => sum + a, 0);
        return { ink, print: alpha.join(',') };
    }

    // Each board: 64 squares, its FEN's pieces, and glyphs that are really drawn.
    function boardProblems(problems) {
        const boards = document.querySelectorAll('svg.board');
        boards.forEach((board, index) => {
            const where = `board ${index + 1} at #${anchorOf(board)}`;
            const squares = board.querySelectorAll('rect.square').length;
            if (squares !== 64) {
                problems.push(`board: ${where} has ${squares} squares, not 64`);
            }
            const pieces = board.querySelectorAll('text.piece');
            const expected = piecesInFen(board.getAttribute('data-fen'));
            if (pieces.length !== expected) {
                problems.push(`board: ${where} draws ${pieces.length} pieces, its FEN has ${expected}`);
            }
            for (const piece of pieces) {
                if (piece.getBBox().width < 1) {
                    problems.push(`board: ${where}: the piece ${piece.getAttribute('data-piece')} draws nothing`);
                }
            }
        });
        if (boards.length === 0) {
            return;
        }
        const pieces = document.querySelector('svg.board g.pieces');
        const font = pieces ? getComputedStyle(pieces).fontFamily : 'sans-serif';
        const glyphs = ['\u265A', '\u265B', '\u265C', '\u265D', '\u265E', '\u265F'];
        const missing = drawn('\u0378', font); // an unassigned code point: the missing-glyph box
        const prints = new Set();
        for (const glyph of glyphs) {
            const shape = drawn(glyph + '\uFE0E', font);
            if (shape.ink === 0 || shape.print === missing.print) {
                problems.push(`board: the font (${font}) has no glyph U+${glyph.codePointAt(0).toString(16).toUpperCase()}`);
            }
            prints.add(shape.print);
        }
        if (prints.size !== glyphs.length) {
            problems.push(`board: the six chess glyphs draw as ${prints.size} different shapes in ${font}`);
        }
    }

    // Removes what comes before `target` in the page's text, so a screenshot starts with it.
    // (Scrolling instead leaves headless Chromium's screenshot blank.)
    function startAt(target) {
        const main = document.querySelector('main');
        let child = target;
        while (child && child.parentElement !== main) {
            child = child.parentElement;
        }
        while (child && child.previousElementSibling) {
            child.previousElementSibling.remove();
        }
    }

    function report(problems) {
        const out = document.createElement('div');
        out.id = 'cb2026-check';
        out.hidden = true;
        for (const problem of problems) {
            const p = document.createElement('p');
            p.textContent = problem;
            out.appendChild(p);
        }
        out.setAttribute('data-done', 'true');
        out.setAttribute('data-width', String(document.documentElement.clientWidth));
        document.body.appendChild(out);
    }

    function check() {
        const problems = [];
        if (options.startAt) {
            startAt(document.querySelector(options.startAt));
        }
        if (options.measure) {
            for (const theme of options.themes || []) {
                useTheme(theme);
                overflowingCode(theme, problems);
            }
            if (options.print) {
                emulatePrint();
                overflowingCode('print', problems);
            }
            boardProblems(problems);
        }
        report(problems);
    }

    window.addEventListener('load', () => document.fonts.ready.then(check));
})();
