// Kafka Flow stepper: makes every <figure class="kflow"> on the page step
// through its beats. The markup and the JSON it reads are written by the
// Go package svganim (figure.go, patch.go); kf-words.js, loaded first,
// holds what every figure shares (the controls' markup, the phrases of
// mark titles: svganim/words.go). No dependencies.
(() => {
  'use strict';

  const words = window.kfWords;
  const steppers = {}; // figure id → its stepper, for deep links
  const here = document.currentScript?.src.replace(/[^/]*$/, '') || '';

  // Buttons (data-a) and keys that move: by one beat, or to the first or
  // the last beat.
  const FIRST = 'first', LAST = 'last';
  const moves = {
    fwd: 1, back: -1, first: FIRST, last: LAST,
    ArrowRight: 1, ArrowLeft: -1, Home: FIRST, End: LAST,
  };
  // ↑ and ↓ move keyboard focus through the marks shown.
  const markKeys = { ArrowDown: 1, ArrowUp: -1 };

  // A step shorter than a slide (figure.css: .3 s) cuts instead of
  // sliding.
  const SLIDE_MS = 320;
  // Time between two beats while playing, at speed 1.
  const PLAY_MS = 900;

  // Titles are written with their common phrases as "~" and one token
  // character (words.go); "~~" is a "~" of the title itself.
  function decodeTitle(s) {
    return s.replace(/~([^])/g, (_, c) => c === '~' ? '~' : words.w[words.a.indexOf(c)]);
  }

  // setText changes the text node of el in place: a node replaced
  // (textContent, an output's value) is styled and laid out afresh.
  function setText(el, s) {
    if (el.firstChild) el.firstChild.data = s;
    else el.textContent = s;
  }

  // A track is one field of one mark over the beats: its value at beat 0
  // and each later change. valueAt finds the value at beat b.
  function valueAt(track, b) {
    let i = track.beats.length - 1;
    while (track.beats[i] > b) i--;
    return track.values[i];
  }

  // root: the figure, or one knob combination's .kf-var.
  function Stepper(fig, root = fig) {
    const $ = sel => root.querySelector(sel);
    const last = +root.dataset.last;
    // The picture shows the poster beat until the stepper sets another.
    let beat = +root.dataset.poster;
    let timer = 0, speed = 1, lastSlide = 0;
    let focused = -1; // index of the mark ↑/↓ focused, −1 for none

    $('.kf-view').insertAdjacentHTML('afterend', words.c);
    const scrubber = $('.kf-scrub'), counterText = $('.kf-at'), playButton = $('.kf-play');
    const caption = $('.kf-caption'), explanation = $('.kf-explain');
    const counter = $('.kf-counter text');
    const story = root.querySelectorAll('.kf-story > ol > li');
    const data = JSON.parse($('.kf-tracks').textContent);
    const marks = [...root.querySelectorAll('.kf-svg > g')];
    scrubber.max = last;

    // Each mark gets back its <title>, which the poster leaves out.
    marks.forEach((g, i) => {
      g.insertAdjacentHTML('afterbegin', '<title>');
      g.firstChild.textContent = decodeTitle(data.t[i]);
    });

    // Tracks: [mark, field, value at beat 0, beats later, value, …]
    // (patch.go lists the fields). changesAt[b] holds the tracks whose
    // value changes at beat b.
    const tracks = [], changesAt = [];
    for (const [markIndex, field, ...rest] of data.k) {
      const g = marks[markIndex];
      const track = { g, field, beats: [0], values: [rest[0]], texts: g.querySelectorAll('text') };
      for (let i = 1, at = 0; i < rest.length; i += 2) {
        at += rest[i];
        track.beats.push(at);
        track.values.push(rest[i + 1]);
        (changesAt[at] ||= []).push(track);
      }
      // The poster shows the values of the poster beat.
      const shown = track.now = valueAt(track, beat);
      if (field === 't') g.firstChild.textContent = decodeTitle(shown);
      if (field === 'c') {
        // The classes a mark has at every beat; the track holds the rest.
        const flags = shown.split(' ');
        track.fixedClasses = g.getAttribute('class').split(' ')
          .filter(c => !flags.includes(c) && c !== 'kf-new').join(' ');
      }
      // A mark at an offset ("o", "v") moves by the offset width per
      // offset from where the poster draws it; "p" holds the position.
      const xy = g.getAttribute('transform').match(/-?\d+/g);
      const offsetWidth = +g.ownerSVGElement.dataset.cw;
      track.position = v => field === 'p' ? v.split(',') : [xy[0] - (shown - v) * offsetWidth, xy[1]];
      // "v": the first text is a fixed prefix and the offset ("HW 3").
      if (field === 'v') track.prefix = track.texts[0].textContent.slice(0, -String(shown).length);
      tracks.push(track);
    }

    // cut: the change shows at once (a jump, or a step while the last
    // slide runs), not by sliding or fading.
    function setField(track, v, cut) {
      const g = track.g;
      switch (track.field) {
        case 't': setText(g.firstChild, decodeTitle(v)); break;
        case 'c': // with its ring at the beat shown (markChanges)
          if (!cut && !still.matches && !v.includes('kf-gone') && g.matches('.kf-msg.kf-gone')) landing.push(g);
          g.toggleAttribute('data-cut', cut);
          g.setAttribute('class', track.fixedClasses + ' ' + v + (ringing.has(g) ? ' kf-new' : ''));
          rewritten.add(g);
          break;
        case '0': case '1': case '2': setText(track.texts[track.field], v); break;
        default: { // 'p', 'o', 'v': a position
          const p = track.position(v);
          // Only as a CSS transform, which overrides the poster's transform
          // attribute (left as drawn: changing both restyles the mark
          // twice) and slides (figure.css transitions it).
          g.toggleAttribute('data-cut', cut);
          g.style.transform = `translate(${p[0]}px,${p[1]}px)`;
          if (track.field === 'v') setText(track.texts[0], track.prefix + v);
        }
      }
      track.now = v;
    }

    // Show beat b, coming from beat from. A step to a neighbouring beat
    // touches only what changes between the two, and slides, unless the
    // last slide still runs; a jump sets every track and cuts. A mark cuts
    // by its own data-cut, set with its change (a class on the figure
    // would restyle every mark); kf-cut says how the last step went.
    function apply(b, from) {
      const near = Math.abs(b - from) === 1, now = performance.now();
      const cut = !near || now - lastSlide < SLIDE_MS;
      fig.classList.toggle('kf-cut', cut);
      lastSlide = now;
      if (cut) flights.splice(0).forEach(a => a.cancel());
      for (const track of near ? changesAt[Math.max(b, from)] || [] : tracks) {
        const v = valueAt(track, b);
        if (v !== track.now) setField(track, v, cut);
      }
      landing.splice(0).forEach(fly);
    }

    // A token a sliding step shows again flies in from its sender's side:
    // Chromium composites a Web Animation of transform on SVG, not CSS
    // translate. It cuts to its place (a slide outranks a flight).
    const still = matchMedia('(prefers-reduced-motion: reduce)');
    const landing = [], flights = [];
    function fly(g) {
      const dy = g.matches('.kf-down') ? -14 : g.matches('.kf-up') ? 14 : 0;
      const [x, y] = (g.style.transform || g.getAttribute('transform')).match(/-?\d+/g);
      g.toggleAttribute('data-cut', true);
      flights.push(g.animate({ transform: [`translate(${x}px,${+y + dy}px)`, `translate(${x}px,${y}px)`], opacity: [0, 1] },
        { duration: 500, easing: 'ease-out' }));
    }

    // Marks that look different from the beat before carry kf-new (a
    // ring): those whose tracks change at b, but not for a title alone,
    // nor the wire, nor a mark absent at b. Each beat's set is
    // worked out once; a step changes the class of only the marks that
    // ring at one of the two beats, once (setField adds it to new classes).
    const classTrack = new Map(); // mark → its "c" track
    for (const track of tracks) if (track.field === 'c') classTrack.set(track.g, track);
    const goneAt = (g, b) => classTrack.has(g)
      ? valueAt(classTrack.get(g), b).split(' ').includes('kf-gone') : g.classList.contains('kf-gone');
    const ringsAt = [];
    function ringsOf(b) {
      if (!ringsAt[b]) {
        ringsAt[b] = new Set();
        for (const { g, field } of changesAt[b] || []) {
          if (field !== 't' && !g.matches('.sw,.sa') && !goneAt(g, b)) ringsAt[b].add(g);
        }
      }
      return ringsAt[b];
    }
    let ringed = new Set(root.querySelectorAll('.kf-new')); // the marks with a ring now
    let ringing = ringed; // the marks to ring at the beat being shown
    const rewritten = new Set(); // the marks whose classes setField wrote for it
    function markChanges() {
      for (const g of ringed) if (!ringing.has(g) && !rewritten.has(g)) g.classList.remove('kf-new');
      for (const g of ringing) if (!ringed.has(g) && !rewritten.has(g)) g.classList.add('kf-new');
      ringed = ringing;
      rewritten.clear();
    }

    // A beat's caption is its storyboard item after its number, with the
    // other events (one per line) under "n more".
    function captionOf(b) {
      const box = document.createElement('div');
      box.className = 'kf-cap';
      box.innerHTML = story[b].innerHTML;
      box.firstChild.prepend(`beat ${b} — `);
      const rest = box.querySelector('.kf-rest');
      if (rest) {
        const more = document.createElement('details');
        more.className = 'kf-rest';
        more.innerHTML = `<summary>${rest.textContent.split('\n').length} more</summary>`;
        rest.replaceWith(more);
        rest.removeAttribute('class');
        more.append(rest);
      }
      return box;
    }
    // Every beat's caption is built once and one is shown (figure.css:
    // .kf-cap), so a step lays nothing out. An "n more" opened stays open.
    const captions = [...story].map((_, b) => captionOf(b));
    caption.replaceChildren(...captions);
    let captionShown;
    function showCaption(b) {
      const was = captionShown, next = captionShown = captions[b];
      if (next === was) return;
      const opened = was?.querySelector('details');
      if (opened?.open) {
        opened.open = false;
        const more = next.querySelector('details');
        if (more) more.open = true;
      }
      was?.classList.remove('kf-now');
      next.classList.add('kf-now');
    }

    function show(b) {
      b = Math.max(0, Math.min(last, b | 0));
      ringing = ringsOf(b);
      if (b !== beat) apply(b, beat);
      beat = b;
      markChanges();
      const at = b + ' / ' + last;
      setText(counterText, at);
      setText(counter, 'beat ' + at);
      scrubber.value = b;
      showCaption(b);
      if (focused >= 0) explain(marks[focused].matches('.kf-gone') ? -1 : focused);
    }

    function stop() {
      if (!timer) return;
      clearTimeout(timer);
      timer = 0;
      playButton.textContent = 'play';
    }
    function tick() {
      timer = setTimeout(() => {
        if (beat < last) {
          show(beat + 1);
          tick();
        } else stop();
      }, PLAY_MS / speed);
    }
    function togglePlay() {
      if (timer) return stop();
      if (beat >= last) show(0);
      playButton.textContent = 'pause';
      tick();
    }

    const go = b => { stop(); show(b); };
    const move = m => go(m === FIRST ? 0 : m === LAST ? last : beat + m);

    // ↑/↓ focus each mark shown in turn and write out its title.
    function explain(i) {
      explanation.textContent = i < 0 ? '' : marks[i].firstChild.textContent;
    }
    function focusMark(direction) {
      const n = marks.length;
      let i = focused < 0 ? (direction > 0 ? -1 : 0) : focused, tries = n;
      do i = (i + direction + n) % n; while (marks[i].matches('.kf-gone,.sn') && --tries);
      focused = i;
      marks[i].tabIndex = -1;
      marks[i].focus();
      explain(i);
    }

    function copyLink(button) {
      history.replaceState(null, '', '#' + fig.id + '@' + beat + (fig.dataset.q || ''));
      navigator.clipboard?.writeText(location.href).catch(() => {});
      button.textContent = 'copied';
      setTimeout(() => button.textContent = 'link', 1500);
    }

    // A key's legend button isolates it: the other keys' marks fade.
    function isolate(button) {
      const on = button.ariaPressed !== 'true';
      for (const other of root.querySelectorAll('.kf-key')) other.ariaPressed = other === button && on;
      if (on) fig.dataset.iso = button.dataset.k;
      else delete fig.dataset.iso;
    }

    root.addEventListener('click', e => {
      const button = e.target.closest('button'), action = button?.dataset.a;
      if (action in moves) move(moves[action]);
      else if (action === 'play') togglePlay();
      else if (action === 'link') copyLink(button);
      else if (button?.dataset.k) isolate(button);
    });
    scrubber.addEventListener('input', () => go(+scrubber.value));
    $('.kf-speed').addEventListener('change', e => speed = parseFloat(e.target.value));
    fig.addEventListener('keydown', e => {
      const tag = e.target.tagName, key = e.key;
      // A knob combination not shown (kf-knobs.js parks it) takes no keys.
      if (/INPUT|SELECT/.test(tag) || e.altKey || e.ctrlKey || e.metaKey || root.matches('.kf-park')) return;
      if (key in moves) move(moves[key]);
      else if (key in markKeys) focusMark(markKeys[key]);
      else if (key === 'Escape') {
        focused = -1;
        explain(-1);
        fig.focus();
      } else if (key === ' ' && tag !== 'BUTTON') togglePlay();
      else return;
      e.preventDefault();
    });

    // Open at the start of the story (or the beat the author chose).
    show(+root.dataset.open || 0);
    return { go, stop, beat: () => beat };
  }

  // A script loaded from beside this one at its first use (an export
  // holds it inline); resolves to its global.
  const loads = {};
  const script = (file, global) => loads[file] ||= new Promise(ok => {
    if (self[global]) return ok(self[global]);
    const s = document.head.appendChild(document.createElement('script'));
    s.onload = () => ok(self[global]);
    s.src = here + file;
  });

  // kf-knobs.js, which swaps knob combinations, loads at the first pick.
  function Knobbed(fig) {
    const bar = fig.querySelector('.kf-knobs'), first = Stepper(fig, fig.querySelector('.kf-var'));
    let host;
    const later = f => script('kf-knobs.js', 'kfKnobs').then(kfKnobs => f(host ||= kfKnobs(fig, Stepper, first)));
    bar.hidden = false;
    bar.onclick = e => {
      const b = e.target.closest('button');
      if (b) later(h => h.pick(+b.dataset.kb, +b.dataset.kval));
    };
    return { go: b => (host || first).go(b), stop: () => (host || first).stop(), restore: (q, b, then) => later(h => h.restore(q, b, then)) };
  }

  // kf-link.js follows a deep link, #ID@BEAT?KNOB=VALUE&….
  function followHash() {
    if (/[@?]/.test(location.hash)) script('kf-link.js', 'kfLink').then(kfLink => kfLink(steppers));
  }

  // Nothing plays by itself, and a figure scrolled out of view pauses.
  const offScreen = new IntersectionObserver(entries => {
    for (const e of entries) if (!e.isIntersecting) steppers[e.target.id].stop();
  });
  // kfStep wires a figure drawn later (the playground's).
  if (words) {
    self.kfStep = fig => {
      steppers[fig.id] = fig.dataset.kn ? Knobbed(fig) : Stepper(fig);
      offScreen.observe(fig);
    };
    for (const fig of document.querySelectorAll('figure.kflow')) kfStep(fig);
  }
  addEventListener('hashchange', followHash);
  // Printed, every storyboard opens.
  addEventListener('beforeprint', () => {
    for (const d of document.querySelectorAll('.kf-story')) d.open = true;
  });
  followHash();
})();
