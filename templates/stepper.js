// Kafka Flow stepper: steps every <figure class="kflow"> on the page
// through its beats. No dependencies; each figure is independent.
(function () {
  'use strict';
  var reduce = window.matchMedia && matchMedia('(prefers-reduced-motion: reduce)');
  var all = {};

  function Stepper(fig) {
    var q = function (s) { return fig.querySelector(s); };
    var last = +fig.dataset.last, beat = +fig.dataset.poster, timer = 0, speed = 1;
    var scrub = q('.kf-scrub'), at = q('.kf-at'), cap = q('.kf-caption'), play = q('.kf-play');
    var story = fig.querySelectorAll('.kf-story li'), frames = fig.querySelectorAll('.kf-frame');
    var data = q('.kf-tracks'), counter = data && fig.querySelector('.kf-counter text'), tracks = [];
    q('.kf-controls').hidden = false;
    // Tracks: [mark, field, beat, value, beat, value, …]; the SVG shows the
    // poster beat. A track's value at beat b is the last one set at or
    // before b.
    if (data) {
      var marks = q('.kf-svg').querySelectorAll(':scope > g');
      JSON.parse(data.textContent).forEach(function (a) {
        var t = { e: marks[a[0]], f: a[1], b: [], v: [] };
        for (var i = 2; i < a.length; i += 2) { t.b.push(a[i]); t.v.push(a[i + 1]); }
        t.now = at_(t, beat);
        if (t.f === 'c') {
          var drop = t.now.split(' ');
          t.base = t.e.getAttribute('class').split(' ').filter(function (c) { return drop.indexOf(c) < 0; }).join(' ');
        }
        tracks.push(t);
      });
    }
    function at_(t, b) {
      var i = t.b.length - 1;
      while (i > 0 && t.b[i] > b) i--;
      return t.v[i];
    }
    function px(v) { var p = v.split(','); return 'translate(' + p[0] + 'px,' + p[1] + 'px)'; }
    function apply(b, tween) {
      tracks.forEach(function (t) {
        var v = at_(t, b), e = t.e, f = t.f;
        if (v === t.now) return;
        if (f === 'c') e.setAttribute('class', v ? t.base + ' ' + v : t.base);
        else if (f === 'p') {
          if (tween && e.animate) e.animate([{ transform: px(t.now) }, { transform: px(v) }], { duration: 300, easing: 'ease-out' });
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
        if (frames.length > 1) { frames[beat].hidden = true; frames[b].hidden = false; }
        apply(b, Math.abs(b - beat) === 1 && !(reduce && reduce.matches));
        beat = b;
      }
      if (counter) counter.textContent = 'beat ' + b + ' / ' + last;
      scrub.value = b;
      at.textContent = b + ' / ' + last;
      if (story[b]) cap.textContent = story[b].textContent;
    }
    function stop() {
      clearTimeout(timer); timer = 0;
      play.textContent = 'play'; play.setAttribute('aria-label', 'play');
    }
    function tick() {
      if (beat >= last) return stop();
      show(beat + 1);
      timer = setTimeout(tick, 900 / speed);
    }
    function start() {
      if (beat >= last) show(0);
      play.textContent = 'pause'; play.setAttribute('aria-label', 'pause');
      timer = setTimeout(tick, 900 / speed);
    }
    function toggle() { if (timer) stop(); else start(); }
    function go(b) { stop(); show(b); }

    fig.addEventListener('click', function (e) {
      var t = e.target.closest('button');
      if (!t || !fig.contains(t)) return;
      var a = t.dataset.a;
      if (a === 'first') go(0);
      else if (a === 'back') go(beat - 1);
      else if (a === 'fwd') go(beat + 1);
      else if (a === 'last') go(last);
      else if (a === 'play') toggle();
      else if (a === 'link') link(t);
      else if (t.dataset.k != null) isolate(t);
    });
    scrub.addEventListener('input', function () { go(+scrub.value); });
    q('.kf-speed').addEventListener('change', function (e) { speed = +e.target.value || 1; });
    fig.addEventListener('keydown', function (e) {
      var tag = e.target.tagName;
      if (tag === 'INPUT' || tag === 'SELECT' || e.altKey || e.ctrlKey || e.metaKey) return;
      var k = e.key;
      if (k === 'ArrowRight') go(beat + 1);
      else if (k === 'ArrowLeft') go(beat - 1);
      else if (k === 'Home') go(0);
      else if (k === 'End') go(last);
      else if ((k === ' ' || k === 'Spacebar') && tag !== 'BUTTON') toggle();
      else return;
      e.preventDefault();
    });

    function link(btn) {
      var h = '#' + fig.id + '@' + beat;
      history.replaceState(null, '', h);
      if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(function () {});
      btn.textContent = 'link copied';
      setTimeout(function () { btn.textContent = 'link'; }, 1500);
    }
    function isolate(btn) {
      var on = btn.getAttribute('aria-pressed') !== 'true';
      fig.querySelectorAll('.kf-key').forEach(function (k) { k.setAttribute('aria-pressed', 'false'); });
      if (on) { fig.dataset.iso = btn.dataset.k; btn.setAttribute('aria-pressed', 'true'); }
      else delete fig.dataset.iso;
    }
    return { go: go, stop: stop };
  }

  function fromHash() {
    var m = /^#([a-z0-9-]+)@(\d+)$/.exec(location.hash);
    var s = m && all[m[1]];
    if (!s) return;
    s.go(+m[2]);
    var fig = document.getElementById(m[1]);
    fig.scrollIntoView();
    fig.focus({ preventScroll: true });
  }

  var seen = window.IntersectionObserver && new IntersectionObserver(function (es) {
    es.forEach(function (e) { if (!e.isIntersecting) all[e.target.id].stop(); });
  });
  document.querySelectorAll('figure.kflow').forEach(function (fig) {
    all[fig.id] = Stepper(fig);
    if (seen) seen.observe(fig);
  });
  window.addEventListener('hashchange', fromHash);
  window.addEventListener('beforeprint', function () {
    document.querySelectorAll('.kf-story').forEach(function (d) { d.open = true; });
  });
  fromHash();
})();
