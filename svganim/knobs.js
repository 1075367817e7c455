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
  self.kfKnobs = (fig, Stepper, first) => {
    const bar = fig.querySelector('.kf-knobs'), groups = [...bar.children];
    const buttons = groups.map(g => [...g.querySelectorAll('button')]), values = buttons.map(bs => bs.map(b => b.textContent));
    const paths = groups.map(g => g.dataset.path), def = +fig.dataset.kv;
    const choiceOf = i => values.reduceRight((c, v) => { c.unshift(i % v.length); i = i / v.length | 0; return c; }, []);
    const indexOf = c => c.reduce((i, v, k) => i * values[k].length + v, 0);
    const defChoice = choiceOf(def);
    let cur = def, choice = defChoice, wanted;
    const shown = { [def]: fig.querySelector('.kf-var') };
    const built = { [def]: first };

    // A combination not shown stays in the figure, parked: laid out in
    // the same grid cell as the one shown (kf-knobs.css) and clipped away
    // whole, so that a flip back to it restyles the two combinations'
    // roots, lays nothing out when the two are of one height, and its
    // stepper patches the fields that differ at the beat shown.
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
    function park(v, parked) {
      v.className = parked ? 'kf-park' : 'kf-var';
      v.ariaHidden = parked ? 'true' : null;
      if (parked) {
        if (!controls.has(v)) controls.set(v, [...v.querySelectorAll(focusable)].filter(e => !e.closest('.kf-cap')));
        const out = [...controls.get(v), ...v.querySelector('.kf-cap.kf-now')?.querySelectorAll(focusable) || []];
        for (const e of out) e.tabIndex = -1;
        parkedControls.set(v, out);
      } else for (const e of parkedControls.get(v) || []) e.removeAttribute('tabindex');
      if (parked && v.contains(document.activeElement)) fig.focus({ preventScroll: true });
      const title = v.querySelector('.kf-title');
      if (parked) title?.removeAttribute('id');
      else if (title) title.id = fig.id + '-t';
    }

    // The figure takes the height of the combination shown: a parked one
    // taller than it is size-contained (its box 0 high, its content laid
    // out as it was), the others are left as they are. heights holds
    // each combination's content height (scrollHeight, contained or
    // not), read before a flip changes anything, from the last frame's
    // layout.
    const measure = () => Object.keys(shown).map(k => [shown[k], shown[k].scrollHeight]);
    function fit(i, heights) {
      const h = heights.find(([v]) => v === shown[i])[1];
      for (const [v, vh] of heights) {
        const contain = v !== shown[i] && vh > h ? 'size' : '';
        if (v.style.contain !== contain) v.style.contain = contain;
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

    function select(i, b) {
      const key = fig.id + '.' + i;
      const ready = () => {
        if (wanted !== i) return; // a later pick won
        const from = built[cur];
        b ??= from.beat();
        from.stop();
        const flip = i !== cur;
        const heights = flip && shown[i] && measure();
        if (flip) {
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
        for (const key of shown[i].querySelectorAll('.kf-key')) press(key, key.dataset.k === fig.dataset.iso);
        // A parked combination is where it was left, often at the beat.
        const at = Math.min(b, +shown[i].dataset.last);
        if ((built[i] ||= Stepper(fig, shown[i])).beat() !== at) built[i].go(at);
        if (flip) fit(i, heights || measure());
      };
      wanted = i;
      if (shown[i] || self.kfV?.[key]) return ready();
      pending[key] = ready;
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
      // the fence's own values.
      restore(query, b) {
        const next = defChoice.slice();
        for (const [path, value] of new URLSearchParams(query)) {
          const k = paths.indexOf(path), v = values[k]?.indexOf(value);
          if (v >= 0) next[k] = v;
        }
        select(indexOf(next), b);
      },
    };
  };
})();
