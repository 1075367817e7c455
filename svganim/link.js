// Kafka Flow deep links: a page opened at #ID@BEAT?KNOB=VALUE&… (what a
// figure's link button writes, or what a reader types) shows figure ID at
// that beat with those knob values. stepper.js loads this script the
// first time the address holds "@" or "?", and at every change of it
// calls kfLink(steppers), steppers mapping each figure's DOM id to its
// stepper ({go, stop, beat}, and restore(query, beat) on a figure with
// knobs). The build checks the links a page's Markdown writes; a link
// typed by hand is checked here, and what it asks that the figure cannot
// show is said in a note at the top of the figure instead of being
// dropped in silence:
//   - a beat that is not a whole number ("@x", "@-1"): the beat is left
//     as it is (a page opens a figure at its start);
//   - a beat past the last: the last beat is shown (the stepper clamps);
//   - a knob the figure does not have, or a value its knob does not
//     offer: that part is left out, and the knob keeps its value.
// Either way the page scrolls to the figure's top (figure.css gives it a
// scroll margin), so its title and its runs' titles are in view.
(() => {
  'use strict';

  self.kfLink = steppers => {
    for (const old of document.querySelectorAll('.kf-linknote')) old.remove();
    const m = /^#([a-z0-9-]+)(?:@([^?]*))?(?:\?(.*))?$/.exec(location.hash);
    const stepper = m && Object.hasOwn(steppers, m[1]) && steppers[m[1]];
    if (!stepper) return;
    const fig = document.getElementById(m[1]);
    const [, , at, query = ''] = m;
    const problems = [];

    let beat;
    if (at !== undefined) {
      const last = +(fig.querySelector('.kf-var') || fig).dataset.last;
      if (!/^\d+$/.test(at)) {
        problems.push(`The link’s “@${at}” names no beat (they run from 0 to ${last}).`);
      } else {
        beat = +at;
        // A figure with knobs: the last beat of the combination shown
        // first, which the fence's beats give every combination unless
        // beats is itself a knob.
        if (beat > last) problems.push(`The link asks for beat ${beat}, but the figure ends at beat ${last}, shown here.`);
      }
    }

    const knobs = [...fig.querySelectorAll('.kf-knob')];
    const paths = knobs.map(k => k.dataset.path);
    const kept = new URLSearchParams();
    for (const [path, value] of new URLSearchParams(query)) {
      const knob = knobs[paths.indexOf(path)];
      const values = knob ? [...knob.querySelectorAll('button')].map(b => b.textContent) : [];
      if (!knobs.length) problems.push(`This figure has no knobs, so the link’s “${path}=${value}” was left out.`);
      else if (!knob) problems.push(`The link’s “${path}” is not a knob of this figure (its knobs: ${paths.join(', ')}), so it was left out.`);
      else if (!values.includes(value)) problems.push(`The link’s ${path}=“${value}” is not one of that knob’s values (${values.join(', ')}), so it keeps its own.`);
      else kept.append(path, value);
    }

    if (stepper.restore) stepper.restore(kept.toString(), beat);
    else if (beat !== undefined) stepper.go(beat);
    if (problems.length) {
      const note = document.createElement('p');
      note.className = 'kf-linknote';
      note.setAttribute('role', 'status');
      note.textContent = problems.join(' ');
      fig.prepend(note);
    }
    fig.focus({ preventScroll: true });
    fig.scrollIntoView({ block: 'start' });
  };
})();
