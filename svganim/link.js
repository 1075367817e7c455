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
//   - a beat past the last: the last beat is shown (the stepper clamps),
//     the last of the knob combination the link picks (beats may be a
//     knob), which the note names once that combination shows;
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

    // The beat asked for, when it is a whole number; the note about it
    // is written once the combination the link picks shows, as its last
    // beat is the one to name (beats may itself be a knob).
    const beat = at !== undefined && /^\d+$/.test(at) ? +at : undefined;

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

    // shown is the combination shown (a .kf-var), or the figure itself.
    const hash = location.hash;
    const note = shown => {
      if (location.hash !== hash) return; // a later link is followed
      const last = +shown.dataset.last;
      if (at !== undefined && beat === undefined) problems.unshift(`The link’s “@${at}” names no beat (they run from 0 to ${last}).`);
      else if (beat > last) problems.unshift(`The link asks for beat ${beat}, but the figure ends at beat ${last}, shown here.`);
      if (!problems.length) return;
      const p = document.createElement('p');
      p.className = 'kf-linknote';
      p.setAttribute('role', 'status');
      p.textContent = problems.join(' ');
      fig.prepend(p);
      fig.scrollIntoView({ block: 'start' }); // the note moved the figure's runs down
    };
    if (stepper.restore) stepper.restore(kept.toString(), beat, note);
    else {
      if (beat !== undefined) stepper.go(beat);
      note(fig);
    }
    fig.focus({ preventScroll: true });
    fig.scrollIntoView({ block: 'start' });
  };
})();
