// kflowgen serve's live-reload client. The server adds it to every HTML
// page it sends (never to `kflowgen build` output). It listens to the
// page's event stream and
//   reload → saves each figure's beat and the scroll position, reloads,
//            and restores both once the new page has loaded;
//   broken → shows the error overlay sent by the server;
//   fixed  → removes the overlay.
(function () {
  'use strict';
  var me = document.currentScript;
  if (!me || !window.EventSource) return;
  var page = me.dataset.page || '', version = me.dataset.version || '';
  var key = 'kflowgen-serve:' + page;

  function save() {
    var beats = {};
    document.querySelectorAll('figure.kflow').forEach(function (f) {
      var scrub = f.querySelector('.kf-scrub');
      if (f.id && scrub) beats[f.id] = +scrub.value;
    });
    try {
      sessionStorage.setItem(key, JSON.stringify({ x: window.scrollX, y: window.scrollY, beats: beats }));
    } catch (e) { /* storage full or disabled: reload without keeping the place */ }
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  }

  function restore() {
    var raw = null;
    try { raw = sessionStorage.getItem(key); sessionStorage.removeItem(key); } catch (e) { return; }
    if (!raw) return;
    var st = JSON.parse(raw);
    Object.keys(st.beats).forEach(function (id) {
      var f = document.getElementById(id), scrub = f && f.querySelector('.kf-scrub');
      if (!scrub) return;
      // The stepper follows its scrubber: set it and tell it, as a hand would.
      scrub.value = st.beats[id];
      scrub.dispatchEvent(new Event('input'));
    });
    window.scrollTo(st.x, st.y);
    if ('scrollRestoration' in history) history.scrollRestoration = 'auto';
  }

  function overlay() { return document.getElementById('kflow-error'); }
  function show(html) {
    var box = document.createElement('div');
    box.innerHTML = html;
    var el = box.firstElementChild, old = overlay();
    if (!el) return;
    if (old) old.replaceWith(el); else document.body.appendChild(el);
  }
  function clear() {
    var old = overlay();
    if (old) old.remove();
  }
  document.addEventListener('click', function (e) {
    var b = e.target.closest && e.target.closest('[data-kflow-hide]');
    if (b && overlay()) overlay().hidden = true;
  });

  var url = '/_kflow/events?page=' + encodeURIComponent(page) + '&v=' + encodeURIComponent(version);
  var es = new EventSource(url);
  es.addEventListener('reload', function () {
    es.close();
    save();
    window.location.reload();
  });
  es.addEventListener('broken', function (e) { show(JSON.parse(e.data).html); });
  es.addEventListener('fixed', clear);
  window.addEventListener('pagehide', function () { es.close(); });

  if (document.readyState === 'complete') restore();
  else window.addEventListener('load', restore);
})();
