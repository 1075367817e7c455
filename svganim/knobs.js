// Kafka Flow knobs, for a figure whose reader picks knob values
// (svganim/knobs.go writes its markup): stepper.js loads this script at a
// figure's first pick and calls kfKnobs(figure, Stepper, the default
// combination's stepper). A pick shows that combination at the beat
// shown (or its last, if it ends sooner); its script, v/ID.N.js beside
// this one, is loaded with a <script> element the first time (so file://
// works), and its markup and stepper are kept, parked, for later picks.
(() => {
  'use strict';

  const here = document.currentScript?.src.replace(/[^/]*$/, '') || '';
  const pending = {};
  self.kfVLoaded = key => pending[key]?.();

  // Once a reader picks, the figure is kf-picked and every combination
  // loaded is laid out in one place, each of its parts in a row of the
  // figure's grid that all share (a subgrid: the picture's row is as
  // tall as the tallest picture, the caption's as the tallest caption),
  // so that a flip changes no box and each part stays where it was. Those
  // not shown (parked, below) are clipped away whole: not drawn, not hit.
  // Each is a stacking context at all times, so that the clip makes no
  // layer of its own: one made or dropped laid both out again. Grid rows
  // do not collapse margins, so the parts' are set to what they collapsed
  // to (site TestBrowserKnobPickMovesNothing). These rules come with this
  // script, which loads at the first pick, rather than kf-knobs.css,
  // which every page with knobs loads at first paint, where they would
  // do nothing.
  const picked = `
.kf-picked > .kf-var, .kf-picked > .kf-park { grid-area: 2 / 1 / span 7; display: grid; grid-template-rows: subgrid; isolation: isolate; }
.kf-picked > .kf-outcomes { grid-row: 9; }
.kf-picked > * > .kf-title { grid-row: 1; }
.kf-picked > * > .kf-view { grid-row: 2; }
.kf-picked > * > .kf-controls { grid-row: 3; }
.kf-picked > * > .kf-explain { grid-row: 4; margin: 0; }
.kf-picked > * > .kf-legend { grid-row: 5; }
.kf-picked > * > .kf-capbox { grid-row: 6; }
.kf-picked > * > .kf-story { grid-row: 7; }
.kf-picked .kf-explain:empty + .kf-legend, .kf-picked .kf-explain:empty + .kf-capbox, .kf-picked .kf-legend + .kf-capbox { margin-top: 0; }
.kf-park { clip-path: inset(50%); }`;
  document.head.appendChild(document.createElement('style')).textContent = picked;

  self.kfKnobs = (fig, Stepper, first) => {
    const bar = fig.querySelector('.kf-knobs'), groups = [...bar.children];
    const buttons = groups.map(g => [...g.querySelectorAll('button')]), values = buttons.map(bs => bs.map(b => b.textContent));
    const paths = groups.map(g => g.dataset.path), def = +fig.dataset.kv;
    const choiceOf = i => values.reduceRight((c, v) => { c.unshift(i % v.length); i = i / v.length | 0; return c; }, []);
    const indexOf = c => c.reduce((i, v, k) => i * values[k].length + v, 0);
    const defChoice = choiceOf(def);
    let cur = def, choice = defChoice, wanted;
    const shown = { [def]: fig.querySelector('.kf-var') };
    fig.classList.add('kf-picked');
    const built = { [def]: first };

    // A combination not shown stays in the figure, parked: laid out in
    // the same place as the one shown (picked, above) and clipped away
    // whole, so that a flip back to it restyles the two combinations'
    // roots and lays nothing out, and its stepper patches the fields that
    // differ at the beat shown.
    // content-visibility: hidden, which parked them before, laid both
    // out again at every flip (Acks test figure: 0.5 ms of style and 0.3
    // ms of layout a flip); visibility or inert, being inherited, restyle
    // every element inside (700 there, 5 to 9 ms). So a parked
    // combination leaves the accessibility tree by aria-hidden and the
    // tab order by its controls' tabindex, and focus inside it goes back
    // to the figure. Only the shown one is a .kf-var, takes keys
    // (stepper.js) and holds the title's id, which the figure's
    // aria-labelledby names. Of the captions only the one shown can take
    // focus (the others are hidden: figure.css), so park takes out of the
    // tab order the controls outside the captions, found once, and the
    // shown caption's: 13 elements a combination on the Acks test figure,
    // instead of 22.
    const controls = new Map(), parkedControls = new Map();
    const focusable = 'button,input,select,summary,a[href]';
    // The parts of a combination a flip reads, found once: a search of a
    // combination goes through its picture's hundreds of elements.
    const found = new Map();
    const partsOf = v => found.get(v) || found.set(v, {
      title: v.querySelector('.kf-title'), story: v.querySelector('.kf-story'),
      caption: v.querySelector('.kf-caption'), keys: [...v.querySelectorAll('.kf-key')],
    }).get(v);
    function park(v, parked) {
      v.className = parked ? 'kf-park' : 'kf-var';
      v.ariaHidden = parked ? 'true' : null;
      if (parked) {
        if (!controls.has(v)) controls.set(v, [...v.querySelectorAll(focusable)].filter(e => !e.closest('.kf-cap')));
        const out = [...controls.get(v), ...partsOf(v).caption.querySelector('.kf-now')?.querySelectorAll(focusable) || []];
        for (const e of out) e.tabIndex = -1;
        parkedControls.set(v, out);
      } else for (const e of parkedControls.get(v) || []) e.removeAttribute('tabindex');
      if (parked && v.contains(document.activeElement)) fig.focus({ preventScroll: true });
      const title = partsOf(v).title;
      if (parked) title?.removeAttribute('id');
      else if (title) title.id = fig.id + '-t';
    }

    // A flip keeps the whole story and the caption's "n more" open or
    // shut, and shuts them in the combination left: one left open would
    // keep its row of the figure (picked, above) as tall under the others.
    function keepOpen(to, from) {
      const [a, b] = [from, to].map(partsOf), more = p => p.caption.querySelector('.kf-now .kf-rest');
      for (const [was, now] of [[a.story, b.story], [more(a), more(b)]]) {
        if (now && now.open !== !!was?.open) now.open = !!was?.open;
        if (was?.open) was.open = false;
      }
    }

    // The outcome table marks the combination shown (its rows, one per
    // run, in combination order) and names it in its caption. The caption
    // gets every combination's name at once, stacked in one place, and a
    // pick shows one: a text changed inside the table laid it out again,
    // and the table, a size container (kf-knobs.css), then restyled its
    // rows in the layout pass.
    const table = fig.querySelector('.kf-outcomes');
    const names = [...table?.tHead.rows[0].cells || []].slice(0, groups.length).map(th => th.textContent);
    const named = table?.caption?.querySelector('span');
    const combinations = values.reduce((n, v) => n * v.length, 1);
    const nameOf = c => c.map((v, k) => names[k] + '=' + values[k][v]).join(', ');
    // The text after the name (the caption's ")") goes into each name's
    // place, so that the space the longest name keeps falls at the end.
    const tail = named?.nextSibling?.nodeType === Node.TEXT_NODE ? named.nextSibling : null;
    named?.replaceChildren(...Array.from({ length: combinations }, (_, i) => {
      const place = document.createElement('span');
      place.appendChild(document.createElement('span')).textContent = nameOf(choiceOf(i));
      if (tail) place.append(tail.data);
      return place;
    }));
    tail?.remove();
    named?.classList.add('kf-cnames');
    function markOutcome(i) {
      const rows = [...table?.tBodies[0].rows || []], per = rows.length / +fig.dataset.kn;
      rows.forEach((row, r) => row.classList.toggle('kf-on', (r / per | 0) === i));
      named?.querySelector('.kf-shown')?.classList.remove('kf-shown');
      named?.children[i].classList.add('kf-shown');
    }
    markOutcome(def);

    // then, when given, is called with the combination once it shows.
    function select(i, b, then) {
      const key = fig.id + '.' + i;
      const ready = () => {
        if (wanted !== i) return; // a later pick won
        const from = built[cur], left = shown[cur];
        b ??= from.beat();
        from.stop();
        if (i !== cur) {
          park(shown[cur], true);
          if (shown[i]) park(shown[i], false);
          else {
            const t = document.createElement('template');
            t.innerHTML = self.kfV[key];
            shown[i] = t.content.firstChild;
            shown[cur].after(shown[i]);
          }
        }
        cur = i;
        choice = choiceOf(i);
        // Only what differs is written: a write of the same value is still
        // a change to each element.
        const press = (b, on) => b.ariaPressed !== String(on) && (b.ariaPressed = on);
        buttons.forEach((bs, k) => bs.forEach((b, v) => press(b, v === choice[k])));
        markOutcome(i);
        // The stepper's link button names the knobs not at the fence's
        // own value.
        const q = choice.flatMap((v, k) => v === defChoice[k] ? [] : paths[k] + '=' + values[k][v]);
        fig.dataset.q = q.length ? '?' + q.join('&') : '';
        // A flip keeps the isolated key.
        for (const key of partsOf(shown[i]).keys) press(key, key.dataset.k === fig.dataset.iso);
        // A parked combination is where it was left, often at the beat.
        const at = Math.min(b, +shown[i].dataset.last);
        if ((built[i] ||= Stepper(fig, shown[i])).beat() !== at) built[i].go(at);
        if (left !== shown[i]) keepOpen(shown[i], left);
        then?.(shown[i]);
      };
      wanted = i;
      if (shown[i] || self.kfV?.[key]) return ready();
      pending[key] = ready;
      // A page that draws combinations itself (the playground) takes the
      // key and defines self.kfV[key] later, then calls kfVLoaded(key).
      if (self.kfVLoad?.(key)) return;
      const s = document.createElement('script');
      s.src = here + 'v/' + key + '.js';
      document.head.append(s);
    }
    return {
      pick(k, v) {
        const next = choice.slice();
        next[k] = v;
        select(indexOf(next));
      },
      go: b => select(cur, b),
      stop: () => built[cur].stop(),
      // "producer.acks=0&topic.partitions=3"; the knobs left out take
      // the fence's own values. then(combination) follows once it shows
      // (kf-link.js reads its last beat).
      restore(query, b, then) {
        const next = defChoice.slice();
        for (const [path, value] of new URLSearchParams(query)) {
          const k = paths.indexOf(path), v = values[k]?.indexOf(value);
          if (v >= 0) next[k] = v;
        }
        select(indexOf(next), b, then);
      },
    };
  };
})();
