// Kafka Flow knobs, for a figure whose reader picks knob values
// (svganim/knobs.go writes its markup): stepper.js loads this script at a
// figure's first pick and calls kfKnobs(figure, Stepper, the default
// combination's stepper). A pick swaps in that combination at the beat
// shown (or its last, if it ends sooner); its script, v/ID.N.js beside
// this one, is loaded with a <script> element the first time (so file://
// works) and its stepper kept for later picks.
(() => {
  'use strict';

  const here = document.currentScript?.src.replace(/[^/]*$/, '') || '';
  const pending = {};
  self.kfVLoaded = key => pending[key]?.();
  self.kfKnobs = (fig, Stepper, first) => {
    const bar = fig.querySelector('.kf-knobs'), groups = [...bar.children];
    const values = groups.map(g => [...g.querySelectorAll('button')].map(b => b.textContent));
    const paths = groups.map(g => g.dataset.path), def = +fig.dataset.kv;
    const choiceOf = i => values.reduceRight((c, v) => { c.unshift(i % v.length); i = i / v.length | 0; return c; }, []);
    const indexOf = c => c.reduce((i, v, k) => i * values[k].length + v, 0);
    const defChoice = choiceOf(def);
    let cur = def, choice = defChoice, wanted;
    const shown = { [def]: fig.querySelector('.kf-var') };
    const built = { [def]: first };

    function select(i, b) {
      const key = fig.id + '.' + i;
      const ready = () => {
        if (wanted !== i) return; // a later pick won
        const from = built[cur];
        b ??= from.beat();
        from.stop();
        if (!shown[i]) {
          const t = document.createElement('template');
          t.innerHTML = self.kfV[key];
          shown[i] = t.content.firstChild;
        }
        if (i !== cur) shown[cur].replaceWith(shown[i]);
        cur = i;
        choice = choiceOf(i);
        groups.forEach((g, k) => g.querySelectorAll('button').forEach((b, v) => b.ariaPressed = v === choice[k]));
        // The stepper's link button names the knobs not at the fence's
        // own value.
        const q = choice.flatMap((v, k) => v === defChoice[k] ? [] : paths[k] + '=' + values[k][v]);
        fig.dataset.q = q.length ? '?' + q.join('&') : '';
        // A flip keeps the isolated key.
        for (const key of shown[i].querySelectorAll('.kf-key')) key.ariaPressed = key.dataset.k === fig.dataset.iso;
        (built[i] ||= Stepper(fig, shown[i])).go(Math.min(b, +shown[i].dataset.last));
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
