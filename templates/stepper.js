// Kafka Flow stepper for every <figure class="kflow"> (markup: svganim).
(function () {
var mq = matchMedia('(prefers-reduced-motion: reduce)'), all = {};
// Buttons and keys that move by a beat, or to the first (2) or last (3).
var moves = { fwd: 1, back: -1, first: 2, last: 3, ArrowRight: 1, ArrowLeft: -1, Home: 2, End: 3 };

function Stepper(fig) {
  var q = function (s) { return fig.querySelector(s); };
  var last = +fig.dataset.last, beat = +fig.dataset.poster, timer = 0, speed = 1, cur = -1;
  var scrub = q('.kf-scrub'), at = q('.kf-at'), cap = q('.kf-caption'), play = q('.kf-play');
  var story = fig.querySelectorAll('.kf-story li'), data = q('.kf-tracks');
  var counter = q('.kf-counter text'), marks = fig.querySelectorAll('.kf-svg>g'), tracks = [], byMark = {};
  var ex = cap.parentNode.insertBefore(document.createElement('p'), cap);
  ex.className = 'kf-explain';
  q('.kf-controls').hidden = false;
  // Tracks: [mark, field, beat, value, …]; a field's value at beat b is the
  // last one set at or before b. The SVG shows the poster beat.
  JSON.parse(data.textContent).forEach(function (a) {
    var t = { e: marks[a[0]], f: a[1], b: [], v: [] };
    for (var i = 2; i < a.length; i += 2) { t.b.push(a[i]); t.v.push(a[i + 1]); }
    t.now = val(t, beat);
    if (t.f === 'c') {
      var drop = t.now.split(' ');
      t.base = t.e.getAttribute('class').split(' ').filter(function (c) { return drop.indexOf(c) < 0; }).join(' ');
      byMark[a[0]] = t;
    } else t.c = byMark[a[0]];
    tracks.push(t);
  });
  function val(t, b) { for (var i = t.b.length - 1; i > 0 && t.b[i] > b;) i--; return t.v[i]; }
  function gone(t, b) { return t.c && val(t.c, b).indexOf('kf-gone') >= 0; }
  function px(v) { return 'translate(' + v.replace(',', 'px,') + 'px)'; }
  function apply(b, from, tween) {
    tracks.forEach(function (t) {
      var v = val(t, b), e = t.e, f = t.f;
      if (v === t.now) return;
      if (f === 'c') e.setAttribute('class', v ? t.base + ' ' + v : t.base);
      else if (f === 'p') {
        if (t.a) t.a.cancel();
        t.a = tween && !gone(t, from) && !gone(t, b) && e.animate([{ transform: px(t.now) }, { transform: px(v) }], { duration: 300, easing: 'ease-out' });
        e.setAttribute('transform', 'translate(' + v + ')');
      } else if (f === 't') e.firstElementChild.textContent = v;
      else if (f === 'w') e.querySelector('rect').setAttribute('width', v);
      else e.querySelectorAll('text')[+f].textContent = v;
      t.now = v;
    });
  }
  function show(b) {
    b = Math.max(0, Math.min(last, b | 0));
    if (b !== beat) {
      apply(b, beat, Math.abs(b - beat) === 1 && !mq.matches);
      beat = b;
    }
    counter.textContent = 'beat ' + b + ' / ' + last;
    scrub.value = b;
    at.textContent = b + ' / ' + last;
    if (story[b]) cap.textContent = story[b].textContent;
    if (cur >= 0) explain(/kf-gone/.test(marks[cur].getAttribute('class')) ? null : marks[cur]);
  }
  function stop() { clearTimeout(timer); timer = 0; play.textContent = 'play'; }
  function tick() { timer = setTimeout(function () { if (beat < last) { show(beat + 1); tick(); } else stop(); }, 900 / speed); }
  function toggle() {
    if (timer) return stop();
    if (beat >= last) show(0);
    play.textContent = 'pause';
    tick();
  }
  function go(b) { stop(); show(b); }
  function move(m) { go(m < 2 ? beat + m : m === 2 ? 0 : last); }
  // ↑/↓ focus the marks shown in turn and write out the focused one's title.
  function explain(g) { ex.textContent = g ? g.firstElementChild.textContent : ''; }
  function step(d) {
    var n = marks.length, i = cur < 0 ? (d > 0 ? n - 1 : 0) : cur;
    for (var k = 0; k < n; k++) {
      i = (i + d + n) % n;
      if (!/kf-gone|sn/.test(marks[i].getAttribute('class'))) break;
    }
    cur = i;
    marks[i].setAttribute('tabindex', '-1');
    marks[i].focus();
    explain(marks[i]);
  }
  fig.addEventListener('click', function (e) {
    var t = e.target.closest('button');
    if (!t) return;
    var a = t.dataset.a;
    if (a in moves) move(moves[a]);
    else if (a === 'play') toggle();
    else if (a === 'link') link(t);
    else if (t.dataset.k != null) isolate(t);
  });
  scrub.addEventListener('input', function () { go(+scrub.value); });
  q('.kf-speed').addEventListener('change', function (e) { speed = +e.target.value || 1; });
  fig.addEventListener('keydown', function (e) {
    var tag = e.target.tagName, k = e.key;
    if (/INPUT|SELECT/.test(tag) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (k in moves) move(moves[k]);
    else if (k === 'ArrowDown' || k === 'ArrowUp') step(k === 'ArrowDown' ? 1 : -1);
    else if (k === 'Escape') { cur = -1; explain(); fig.focus(); }
    else if (k === ' ' && tag !== 'BUTTON') toggle();
    else return;
    e.preventDefault();
  });
  function link(b) {
    history.replaceState(null, '', '#' + fig.id + '@' + beat);
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(function () {});
    b.textContent = 'copied';
    setTimeout(function () { b.textContent = 'link'; }, 1500);
  }
  function isolate(btn) {
    var on = btn.getAttribute('aria-pressed') !== 'true';
    fig.querySelectorAll('.kf-key').forEach(function (k) { k.setAttribute('aria-pressed', k === btn && on); });
    if (on) fig.dataset.iso = btn.dataset.k; else delete fig.dataset.iso;
  }
  return { go: go, stop: stop };
}

function fromHash() {
  var m = /^#([a-z0-9-]+)@(\d+)$/.exec(location.hash), s = m && all[m[1]];
  if (!s) return;
  s.go(+m[2]);
  var f = document.getElementById(m[1]);
  f.scrollIntoView();
  f.focus();
}
// Off-screen figures pause; nothing ever plays by itself.
var seen = new IntersectionObserver(function (es) {
  es.forEach(function (e) { if (!e.isIntersecting) all[e.target.id].stop(); });
});
document.querySelectorAll('figure.kflow').forEach(function (f) {
  all[f.id] = Stepper(f);
  seen.observe(f);
});
addEventListener('hashchange', fromHash);
addEventListener('beforeprint', function () {
  document.querySelectorAll('.kf-story').forEach(function (d) { d.open = true; });
});
fromHash();
})();
