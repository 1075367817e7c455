// Kafka Flow stepper for every <figure class="kflow"> (markup and JSON: svganim).
(() => {
const all = {}, W = window.kfWords;
// Buttons and keys: ±1 beat, the first (2) or last (3); ↑/↓ visit marks.
const moves = { fwd: 1, back: -1, first: 2, last: 3, ArrowRight: 1, ArrowLeft: -1, Home: 2, End: 3 }, ups = { ArrowDown: 1, ArrowUp: -1 };
// kf-words.js (loaded first): controls, title phrases (svganim/words.go).
const words = s => s.replace(/~([^])/g, (m, c) => c == '~' ? c : W.w[W.a.indexOf(c)]);
const val = (t, b) => { let i = t.b.length - 1; while (t.b[i] > b) i--; return t.v[i]; };

function Stepper(fig) {
  const q = s => fig.querySelector(s), last = +fig.dataset.last;
  let beat = +fig.dataset.poster, timer = 0, speed = 1, cur = -1, slid = 0;
  q('.kf-view').insertAdjacentHTML('afterend', W.c);
  const scrub = q('.kf-scrub'), at = q('.kf-at'), cap = q('.kf-caption'), play = q('.kf-play'), ex = q('.kf-explain');
  const story = fig.querySelectorAll('.kf-story li'), data = JSON.parse(q('.kf-tracks').textContent);
  const counter = q('.kf-counter text'), marks = [...fig.querySelectorAll('.kf-svg>g')], tracks = [], ch = [];
  scrub.max = last;
  marks.forEach((g, i) => { g.insertAdjacentHTML('afterbegin', '<title>'); g.firstChild.textContent = words(data.t[i]); });
  // Tracks: [mark, field, value at beat 0, beats later, value, …]; the SVG shows the poster.
  for (const [m, f, ...a] of data.k) {
    const e = marks[m], t = { e, f, b: [0], v: [a[0]], x: e.querySelectorAll('text') };
    for (let i = 1, n = 0; i < a.length; i += 2) t.b.push(n += a[i]), t.v.push(a[i + 1]), (ch[n] ||= []).push(t);
    const now = t.now = val(t, beat), xy = e.getAttribute('transform').match(/-?\d+/g), w = t.w = +e.ownerSVGElement.dataset.cw;
    if (f == 't') e.firstChild.textContent = words(now);
    if (f == 'c') t.k = e.getAttribute('class').split(' ').filter(c => !now.split(' ').includes(c)).join(' ');
    t.p = v => f == 'p' ? v.split(',') : [xy[0] - (now - v) * w, xy[1]];
    t.s = t.x[0]?.textContent.slice(0, -('' + now).length);
    tracks.push(t);
  }
  // A step to a neighbouring beat touches only what changes; it slides (CSS)
  // unless it jumps or the last slide still runs: slides that pile up
  // restyle every frame.
  function apply(b, from) {
    const near = Math.abs(b - from) == 1, now = performance.now();
    fig.classList.toggle('kf-cut', !near || now - slid < 320);
    slid = now;
    for (const t of near ? ch[Math.max(b, from)] || [] : tracks) {
      const v = val(t, b), e = t.e, f = t.f;
      if (v === t.now) continue;
      if (f == 't') e.firstChild.textContent = words(v);
      else if (f == 'c') e.setAttribute('class', t.k + ' ' + v);
      else if (f == 'n') e.querySelector('rect').setAttribute('width', v * t.w);
      else if (f > '9') {
        const p = t.p(v);
        e.setAttribute('transform', `translate(${p})`);
        e.style.transform = `translate(${p[0]}px,${p[1]}px)`;
        if (f == 'v') t.x[0].textContent = t.s + v;
      } else t.x[f].textContent = v;
      t.now = v;
    }
  }
  function show(b) {
    b = Math.max(0, Math.min(last, b | 0));
    if (b != beat) apply(b, beat);
    beat = b;
    counter.textContent = 'beat ' + (at.value = b + ' / ' + last);
    scrub.value = b;
    cap.textContent = `beat ${b} — ` + story[b].textContent; // the list numbers its items
    if (cur >= 0) explain(marks[cur].matches('.kf-gone') ? -1 : cur);
  }
  function stop() { clearTimeout(timer); timer = 0; play.textContent = 'play'; }
  const tick = () => { timer = setTimeout(() => { if (beat < last) show(beat + 1), tick(); else stop(); }, 900 / speed); };
  function toggle() {
    if (timer) return stop();
    if (beat >= last) show(0);
    play.textContent = 'pause';
    tick();
  }
  const go = b => { stop(); show(b); };
  const move = m => go(m < 2 ? beat + m : m == 2 ? 0 : last);
  // ↑/↓ focus each mark shown in turn and write out its title.
  const explain = i => ex.textContent = i < 0 ? '' : marks[i].firstChild.textContent;
  function step(d) {
    let n = marks.length, k = n, i = cur < 0 ? (d > 0 ? -1 : 0) : cur;
    do i = (i + d + n) % n; while (marks[i].matches('.kf-gone,.sn') && --k);
    cur = i;
    marks[i].tabIndex = -1;
    marks[i].focus();
    explain(i);
  }
  fig.addEventListener('click', e => {
    const t = e.target.closest('button'), a = t?.dataset.a;
    if (a in moves) move(moves[a]);
    else if (a == 'play') toggle();
    else if (a == 'link') {
      history.replaceState(null, '', '#' + fig.id + '@' + beat);
      navigator.clipboard?.writeText(location.href).catch(() => {});
      t.textContent = 'copied';
      setTimeout(() => t.textContent = 'link', 1500);
    } else if (t?.dataset.k) {
      const on = t.ariaPressed != 'true';
      fig.querySelectorAll('.kf-key').forEach(o => o.ariaPressed = o == t && on);
      if (on) fig.dataset.iso = t.dataset.k; else delete fig.dataset.iso;
    }
  });
  scrub.addEventListener('input', () => go(+scrub.value));
  q('.kf-speed').addEventListener('change', e => speed = parseFloat(e.target.value));
  fig.addEventListener('keydown', e => {
    const tag = e.target.tagName, k = e.key;
    if (/INPUT|SELECT/.test(tag) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (k in moves) move(moves[k]);
    else if (k in ups) step(ups[k]);
    else if (k == 'Escape') cur = -1, explain(-1), fig.focus();
    else if (k == ' ' && tag != 'BUTTON') toggle();
    else return;
    e.preventDefault();
  });
  show(beat);
  return { go, stop };
}

function fromHash() {
  const m = /^#([a-z0-9-]+)@(\d+)$/.exec(location.hash), s = m && all[m[1]];
  if (s) s.go(+m[2]), document.getElementById(m[1]).focus();
}
// Off-screen figures pause; nothing ever plays by itself.
const seen = new IntersectionObserver(es => es.forEach(e => e.isIntersecting || all[e.target.id].stop()));
if (W) document.querySelectorAll('figure.kflow').forEach(f => {
  all[f.id] = Stepper(f);
  seen.observe(f);
});
addEventListener('hashchange', fromHash);
addEventListener('beforeprint', () => document.querySelectorAll('.kf-story').forEach(d => d.open = true));
fromHash();
})();
