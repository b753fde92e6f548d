// The **Run it here** panels (`{{#runit ...}}` in a page, drawn by xtask/src/preprocess/runit.rs).
//
// A panel shows the chapter's positions and settings (the stage, a toggle for each of the
// chapter's switches, depth or time). Opened from disk, it shows the console commands that run
// that search, rewritten as the reader chooses; the script makes no request. Served by `cargo xtask serve`, it asks the server
// for its engine (`/__engine/hello`, see xtask/src/live) and, once the engine is ready, shows
// Run and Stop instead. A run streams the engine's `info` lines (server-sent events over a fetch,
// so a refused request's message can be read) into a table, one row per iteration, beside the
// pinned figure for the same settings, which the page carries from the snapshots: every switch
// on, or one of them off (the chapter's figures turn one off at a time).
//
// For the browser test (`cargo xtask browser`), `?runit=autorun` presses Run on load, after
// `position=ID`, `switch=NAME:on|off`, `stage=N`, `depth=N` have set the first panel that has
// that position; the results are written into the DOM as data attributes.
(function () {
    'use strict';

    // Formats a count as the book prints it: 1,603,390.
    function count(n) {
        return Number(n).toLocaleString('en-US');
    }

    // Creates an element with a class and a text.
    function element(tag, className, text) {
        const node = document.createElement(tag);
        if (className) {
            node.className = className;
        }
        if (text !== undefined) {
            node.textContent = text;
        }
        return node;
    }

    // Reads an `info` line into its fields: depth, seldepth, score, nodes, nps, time, pv.
    function parseInfo(line) {
        const words = line.trim().split(/\s+/);
        const info = {};
        for (let i = 1; i < words.length; i++) {
            const word = words[i];
            if (word === 'string') {
                info.string = words.slice(i + 1).join(' ');
                break;
            } else if (word === 'pv') {
                info.pv = words.slice(i + 1).join(' ');
                break;
            } else if (word === 'score') {
                info.score = words[i + 1] + ' ' + words[i + 2];
                i += 2;
            } else if (['depth', 'seldepth', 'nodes', 'nps', 'time', 'hashfull'].includes(word)) {
                info[word] = Number(words[i + 1]);
                i += 1;
            }
        }
        return info;
    }

    // Splits a growing text of server-sent events into whole events; returns the rest.
    function takeEvents(buffer, onEvent) {
        let end;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let name = 'message';
            const data = [];
            for (const line of block.split('\n')) {
                if (line.startsWith('event: ')) {
                    name = line.slice(7);
                } else if (line.startsWith('data: ')) {
                    data.push(line.slice(6));
                } // a line starting with ':' is a comment: the server's heartbeat
            }
            if (data.length > 0 || name !== 'message') {
                onEvent(name, data.join('\n'));
            }
        }
        return buffer;
    }

    // One panel and its state.
    class Panel {
        constructor(root, index) {
            this.root = root;
            this.page = 'p' + index + '-' + Math.random().toString(36).slice(2, 10);
            this.choices = Array.from(root.querySelectorAll('.runit-position'));
            this.consoleCode = root.querySelector('.runit-console code');
            this.live = root.querySelector('.runit-live');
            this.stage = root.querySelector('.runit-stage');
            this.toggles = Array.from(root.querySelectorAll('.runit-switch'));
            this.limit = root.querySelector('.runit-limit');
            this.amount = root.querySelector('.runit-amount');
            this.run = root.querySelector('.runit-run');
            this.stop = root.querySelector('.runit-stop');
            this.status = root.querySelector('.runit-status');
            this.results = root.querySelector('.runit-results');
            this.sent = root.querySelector('.runit-sent code');
            this.extraSwitch = null; // test-only: a switch the panel has no toggle for
            this.abort = null;
            for (const choice of this.choices) {
                choice.addEventListener('click', () => this.choose(choice));
                choice.addEventListener('keydown', (event) => {
                    if (event.key === 'Enter' || event.key === ' ') {
                        event.preventDefault();
                        this.choose(choice);
                    }
                });
            }
            this.run.addEventListener('click', () => this.start());
            this.stop.addEventListener('click', () => this.abort && this.abort.abort());
            for (const toggle of this.toggles) {
                toggle.addEventListener('change', () => this.showConsole());
            }
            this.stage.addEventListener('change', () => this.showConsole());
            this.amount.addEventListener('change', () => this.showConsole());
            this.limit.addEventListener('change', () => this.showConsole());
        }

        chosen() {
            return this.choices.find(c => c.getAttribute('aria-pressed') === 'true') || this.choices[0];
        }

        choose(choice) {
            for (const c of this.choices) {
                c.setAttribute('aria-pressed', String(c === choice));
            }
            this.showConsole();
        }

        // The positions a run searches: the chosen one, or all of them for "all six".
        positions() {
            const chosen = this.chosen();
            const boards = this.choices.filter(c => c.dataset.fen);
            return chosen.dataset.fen ? [chosen] : boards;
        }

        // `name:on` or `name:off` for each of the panel's switches.
        switchStates() {
            return this.toggles.map(t => t.dataset.switch + ':' + (t.checked ? 'on' : 'off'));
        }

        // The names of the switches turned off.
        switchesOff() {
            return this.toggles.filter(t => !t.checked).map(t => t.dataset.switch);
        }

        // The console commands for the chosen position and settings.
        showConsole() {
            const data = this.root.dataset;
            const first = this.positions()[0];
            const go = this.limit.value === 'movetime' ? 'go movetime ' : 'go depth ';
            this.consoleCode.textContent = [
                'stage ' + this.stage.value,
                ...this.switchStates().map(state => 'set ' + state.replace(':', ' ')),
                'ucinewgame',
                'position fen ' + first.dataset.fen,
                go + (this.amount.value || data.depth),
            ].join('\n');
        }

        // Whether the settings are the book's, so that a pinned figure applies.
        booksSettings() {
            const data = this.root.dataset;
            return this.stage.value === data.stage && this.limit.value === 'depth' &&
                this.amount.value === data.depth && this.extraSwitch === null;
        }

        // The pinned figure of `choice` for the switches as set (all on, or one off), or null.
        pinned(choice, what) {
            const off = this.switchesOff();
            if (!this.booksSettings() || off.length > 1) {
                return null;
            }
            const state = off.length === 0 ? 'On' : 'Off' + cap(off[0]);
            const value = choice.dataset['pinned' + state + cap(what)];
            const key = choice.dataset['key' + state + cap(what)];
            return value === undefined ? null : { value, key };
        }

        query(fen) {
            const params = new URLSearchParams();
            params.set('page', this.page);
            params.set('fen', fen);
            params.set('stage', this.stage.value);
            for (const state of this.switchStates()) {
                params.append('switch', state);
            }
            if (this.extraSwitch !== null) {
                params.append('switch', this.extraSwitch);
            }
            params.set(this.limit.value, this.amount.value);
            return '/__engine/search?' + params.toString();
        }

        setState(state) {
            this.root.dataset.state = state;
            this.run.disabled = state === 'running';
            this.stop.disabled = state !== 'running';
        }

        // Runs the chosen position(s), one search after another.
        async start() {
            this.results.textContent = '';
            this.sent.textContent = '';
            this.setState('running');
            const positions = this.positions();
            let total = 0;
            let ended = 'done';
            for (const choice of positions) {
                const outcome = await this.search(choice);
                if (outcome.ended !== 'done') {
                    ended = outcome.ended;
                    break;
                }
                total += outcome.nodes;
            }
            if (ended === 'done' && positions.length > 1) {
                this.summary(total);
            }
            if (ended === 'done') {
                this.status.textContent = 'Done.';
            }
            this.setState(ended);
        }

        // One search: its block of results, filled as the events come.
        async search(choice) {
            const block = new Result(this, choice);
            this.results.appendChild(block.root);
            this.status.textContent = 'Searching ' + choice.dataset.id + '…';
            this.abort = new AbortController();
            let response;
            try {
                response = await fetch(this.query(choice.dataset.fen), { signal: this.abort.signal });
            } catch (error) {
                this.status.textContent = 'The server did not answer: ' + error.message;
                return { ended: 'failed' };
            }
            if (!response.ok) {
                const message = (await response.text()).trim();
                this.status.textContent = 'Refused (' + response.status + '): ' + message;
                this.root.dataset.error = message;
                return { ended: 'refused' };
            }
            const reader = response.body.getReader();
            const decoder = new TextDecoder();
            let buffer = '';
            let ended = 'failed';
            try {
                for (;;) {
                    const { value, done } = await reader.read();
                    if (done) {
                        break;
                    }
                    buffer = takeEvents(buffer + decoder.decode(value, { stream: true }), (name, data) => {
                        if (name === 'command') {
                            this.sent.textContent += data + '\n';
                        } else if (name === 'info') {
                            block.info(parseInfo(data));
                        } else if (name === 'bestmove') {
                            block.bestmove(data.split(/\s+/)[1]);
                        } else if (name === 'done') {
                            ended = 'done';
                        } else if (name === 'stopped' || name === 'error') {
                            ended = 'stopped';
                            this.status.textContent = data;
                        }
                    });
                }
            } catch (error) {
                ended = 'stopped';
                this.status.textContent = 'Stopped.';
            }
            block.finish();
            return { ended, nodes: block.nodes };
        }

        // After "all six": the sum beside the pinned sum.
        summary(total) {
            const all = this.choices.find(c => !c.dataset.fen);
            const block = element('div', 'runit-result runit-sum');
            block.dataset.position = all ? all.dataset.id : 'all';
            block.dataset.nodes = String(total);
            block.appendChild(element('p', null, 'All together: ' + count(total) + ' nodes.'));
            const pinned = all ? this.pinned(all, 'nodes') : null;
            compare(block, total, pinned);
            this.results.appendChild(block);
        }

        // Shows the controls once the server's engine is ready; says why while it is not.
        async connect() {
            let hello;
            try {
                const response = await fetch('/__engine/hello', { cache: 'no-store' });
                hello = response.ok ? await response.json() : null;
            } catch (error) {
                hello = null;
            }
            if (!hello) {
                return false; // not served by `cargo xtask serve`: the static panel stays
            }
            this.live.hidden = false;
            this.run.hidden = false;
            this.stop.hidden = false;
            this.root.classList.add('runit-served');
            this.amount.max = String(hello.max_depth);
            if (hello.engine === 'ready') {
                this.status.textContent = 'The engine on your machine is ready.';
                this.setState('ready');
                return true;
            }
            this.run.disabled = true;
            this.status.textContent = hello.engine === 'building'
                ? 'The server is building the engine (see its terminal)…'
                : 'The server has no engine: ' + hello.message;
            if (hello.engine === 'building') {
                await new Promise(resolve => setTimeout(resolve, 2000));
                return this.connect();
            }
            return false;
        }

        // Test-only: `?runit=autorun&position=ID&switch=NAME:on|off&stage=N&depth=N`.
        autorun(params) {
            const wanted = params.get('position');
            const choice = this.choices.find(c => c.dataset.id === wanted);
            if (choice) {
                this.choose(choice);
            }
            for (const value of params.getAll('switch')) {
                const [name, state] = value.split(':');
                const toggle = this.toggles.find(t => t.dataset.switch === name);
                if (toggle) {
                    toggle.checked = state === 'on';
                } else {
                    this.extraSwitch = value;
                }
            }
            if (params.has('stage')) {
                this.stage.value = params.get('stage');
            }
            if (params.has('depth')) {
                this.amount.value = params.get('depth');
            }
            this.showConsole();
            this.start();
        }
    }

    function cap(word) {
        return word.charAt(0).toUpperCase() + word.slice(1);
    }

    // Writes the comparison with the pinned figure under a result, and its verdict as data.
    function compare(block, nodes, pinned) {
        if (!pinned) {
            block.dataset.match = 'none';
            block.appendChild(element('p', 'runit-compare',
                'The book pins no figure for these settings (its own: the stage and depth the panel opened with, ' +
                'every switch on or one of them off).'));
            return;
        }
        const same = String(nodes) === pinned.value;
        block.dataset.pinned = pinned.value;
        block.dataset.key = pinned.key;
        block.dataset.match = String(same);
        const verdict = same ? 'the same count.' : 'a different count: the engine has changed since the figure was pinned.';
        const p = element('p', 'runit-compare ' + (same ? 'runit-same' : 'runit-differs'));
        p.textContent = 'The book’s figure (' + pinned.key + '): ' + count(pinned.value) + ' nodes; this run: ' +
            count(nodes) + ', ' + verdict;
        block.appendChild(p);
    }

    // The results of one search: a row per iteration, the pinned figure beside the count.
    class Result {
        constructor(panel, choice) {
            this.panel = panel;
            this.choice = choice;
            this.nodes = 0;
            this.best = null;
            this.root = element('div', 'runit-result');
            this.root.dataset.position = choice.dataset.id;
            this.pinnedNodes = panel.pinned(choice, 'nodes');
            this.pinnedBest = panel.pinned(choice, 'best');
            const head = element('p', 'runit-head');
            head.appendChild(element('strong', null, choice.dataset.id));
            this.counter = element('span', 'runit-count', ': 0 nodes');
            head.appendChild(this.counter);
            if (this.pinnedNodes) {
                head.appendChild(element('span', 'runit-pinned',
                    ' · pinned: ' + count(this.pinnedNodes.value) + ' nodes'));
            }
            this.root.appendChild(head);
            const table = element('table', 'runit-iterations');
            const header = table.createTHead().insertRow();
            for (const title of ['depth', 'nodes', 'time, ms', 'nps', 'score', 'line']) {
                header.appendChild(element('th', null, title));
            }
            this.body = table.createTBody();
            this.root.appendChild(table);
        }

        info(info) {
            if (info.string !== undefined) {
                this.root.appendChild(element('p', 'runit-note', info.string));
                return;
            }
            if (info.nodes === undefined) {
                return;
            }
            this.nodes = info.nodes;
            this.counter.textContent = ': ' + count(info.nodes) + ' nodes';
            const row = this.body.insertRow();
            const cells = [info.depth, count(info.nodes), info.time, info.nps === undefined ? '' : count(info.nps),
                info.score || '', info.pv || ''];
            for (const cell of cells) {
                row.appendChild(element('td', null, cell === undefined ? '' : String(cell)));
            }
        }

        bestmove(move) {
            this.best = move;
        }

        finish() {
            this.root.dataset.nodes = String(this.nodes);
            if (this.best === null) {
                return;
            }
            this.root.dataset.best = this.best;
            let text = 'Best move ' + this.best + ' after ' + count(this.nodes) + ' nodes';
            if (this.pinnedBest) {
                text += ' (the book’s: ' + this.pinnedBest.value + ')';
            }
            this.root.appendChild(element('p', 'runit-best', text + '.'));
            compare(this.root, this.nodes, this.pinnedNodes);
        }
    }

    function start() {
        const roots = Array.from(document.querySelectorAll('.runit'));
        if (roots.length === 0) {
            return;
        }
        const panels = roots.map((root, index) => new Panel(root, index));
        panels.forEach(panel => panel.showConsole());
        if (location.protocol !== 'http:' && location.protocol !== 'https:') {
            return; // opened from disk: no server to ask
        }
        const params = new URLSearchParams(location.search);
        panels.forEach(panel => {
            panel.connect().then(ready => {
                if (ready && params.get('runit') === 'autorun' && panel === autorunPanel(panels, params)) {
                    panel.autorun(params);
                }
            });
        });
    }

    // The first panel with the position the test asks for, else the first panel.
    function autorunPanel(panels, params) {
        const wanted = params.get('position');
        return panels.find(p => p.choices.some(c => c.dataset.id === wanted)) || panels[0];
    }

    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', start);
    } else {
        start();
    }
})();
