// Kafka Flow playground: runs the fence in #pg-text with the build's own
// parser, engine and renderer (kflow-wasm.js, started by Go's wasm_exec.js)
// and shows the figure and the problems, positioned line:col as the build
// prints them. The fence travels in the fragment: #f= base64url (no
// padding) of its raw DEFLATE (package playground documents the form).
(() => {
const $ = s => document.getElementById(s);
const text = $('pg-text'), run = $('pg-run'), status = $('pg-status'), list = $('pg-errors'), out = $('pg-figure');
const MAX = 65536; // playground.MaxFenceBytes
const pipe = async (bytes, stream) => new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
const unb64 = s => Uint8Array.from(atob(s), c => c.charCodeAt(0));
const b64 = u => { let s = ''; for (let i = 0; i < u.length; i += 32768) s += String.fromCharCode(...u.subarray(i, i + 32768)); return btoa(s); };
// decode inflates a link's fence, reading no more than MAX + 1 of its
// bytes: raw DEFLATE grows up to a thousandfold, so a 1.9 MB link could
// hold 1.4 GiB. The compressed bytes go in by CHUNK (at most about 260 KB
// once inflated), each only once the last came out, and the stream is
// cancelled past MAX.
const CHUNK = 256;
async function decode(f) {
  const z = unb64(f.replace(/-/g, '+').replace(/_/g, '/'));
  let at = 0;
  const src = new ReadableStream({ pull(c) { at < z.length ? c.enqueue(z.subarray(at, at += CHUNK)) : c.close(); } }, { highWaterMark: 0 });
  const rd = src.pipeThrough(new DecompressionStream('deflate-raw')).getReader(), parts = [];
  for (let n = 0; ;) {
    const { done, value } = await rd.read();
    if (done) {
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(await new Blob(parts).arrayBuffer());
      } catch {
        throw Error('its fence is not UTF-8 text');
      }
    }
    if ((n += value.length) > MAX) {
      rd.cancel();
      throw Error('the fence in the link is longer than ' + MAX + ' bytes');
    }
    parts.push(value);
  }
}
const encode = async t => b64(await pipe(new TextEncoder().encode(t), new CompressionStream('deflate-raw'))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
// stepper.js wires the figures on the page as it loads; a figure drawn
// later is wired with kfStep where stepper.js defines one, else by running
// the script again, which wires every figure.kflow.
const stepperSrc = document.querySelector('script[src$="stepper.js"]').src;
const step = fig => self.kfStep ? (self.kfStep(fig), Promise.resolve()) : new Promise(ok => { const s = document.createElement('script'); s.src = stepperSrc; s.onload = s.onerror = () => { s.remove(); ok(); }; document.body.append(s); });
const frame = () => new Promise(ok => requestAnimationFrame(() => setTimeout(ok)));

// Select line:col (col counts characters, as the parser does) in the editor.
function place(line, col) {
  const lines = text.value.split('\n');
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += [...(lines[line - 1] || '')].slice(0, col - 1).join('').length;
  text.focus();
  text.setSelectionRange(at, at);
}
function show(errors) {
  list.replaceChildren(...errors.map(e => {
    const li = document.createElement('li'), b = document.createElement('button');
    b.type = 'button'; b.className = 'pg-at'; b.textContent = e.line + ':' + e.col;
    b.onclick = () => place(e.line, e.col);
    li.append(b, ': ' + e.msg);
    return li;
  }));
}

// A figure with knobs comes drawn in its default combination alone; the
// others are drawn when a reader first picks one. knobs.js asks
// self.kfVLoad(key) for a combination self.kfV["ID.i"] does not hold
// before it loads the combination's file (which the playground has not):
// here the engine draws it (kflowVariant) and the script the build would
// have written runs, which defines the entry for good and tells knobs.js.
function later(id, r) {
  self.kfV = {};
  self.kfVLoad = key => {
    const dot = key.lastIndexOf('.'), i = +key.slice(dot + 1);
    if (key.slice(0, dot) != id || !(i >= 0 && i < r.knobs)) return false;
    engine.variant(r.run, i).then(script => {
      if (!script) return;
      const s = document.createElement('script');
      s.textContent = script;
      document.head.append(s);
      s.remove();
    });
    return true;
  };
}

// kfRun runs the editor's text and resolves once the figure's first frame
// is drawn, with the module's answer {html, errors, run, knobs, def}. The
// page stays live while the engine works; a Run pressed meanwhile waits
// its turn, and only the latest Run's figure is shown.
let runs = 0;
async function kfRun() {
  await ready;
  const mine = ++runs, t = text.value;
  status.textContent = 'Running…';
  out.ariaBusy = 'true';
  let r;
  try {
    r = await engine.figure(t, 'playground');
  } catch (e) {
    if (mine == runs) status.textContent = 'The engine stopped: ' + e.message + '. Reload the page to start it again.';
    throw e;
  }
  if (mine != runs) return r;
  out.ariaBusy = 'false';
  show(r.errors);
  out.replaceChildren();
  if (r.html) {
    out.innerHTML = r.html;
    if (r.knobs) later(out.firstElementChild.id, r);
    await step(out.firstElementChild);
  }
  const n = r.errors.length;
  status.textContent = (r.html ? 'Drawn' : 'Not drawn') + (n ? '; ' + n + (n == 1 ? ' problem' : ' problems') + ' below' : '; every expect: entry holds');
  await frame();
  // The address follows, after the frame: kfSaved resolves once it holds the text.
  self.kfSaved = encode(t).then(f => history.replaceState(null, '', '#f=' + f));
  return r;
}
self.kfRun = kfRun;

// WARM is run once as soon as the engine has started, drawn out of sight
// and thrown away, so that the reader's first Run does not pay for the
// browser compiling the module's code and the page's first figure layout
// (in Chromium, 3 to 6 times a later run). It touches what the guide's
// fences do: replicas and a crash, a consumer group, a share group, a
// side-by-side compare, knobs (every combination simulated, the default
// drawn, and the other drawn as a pick would), expect: entries of every
// kind and a note; then the
// garbage the warm-up left is collected (kflowIdle). TestWarmFence checks
// that it draws and that every claim in it holds.
const WARM = `id: warm
title: warm-up
brokers: 3
topic: {partitions: 2, replication.factor: 3, min.insync.replicas: 2}
producer: {acks: all, records: 4, keys: [a, b]}
consumer.groups:
  - {id: readers, members: 2}
share.groups:
  - {id: workers, members: 2}
timeline:
  - {at: 3, crash: 1}
  - {at: 6, restart: 1}
beats: 12
knobs:
  producer.acks: [1, all]
compare:
  title: acks=1
  producer: {acks: 1}
expect:
  - {record: 1, outcome: U, when: {producer.acks: all}}
  - {at: 4, partition: 0, leader: 2, leaderEpoch: 1, isr: [2, 3], highWatermark: 0, when: {producer.acks: all}}
  - {at: 4, partition: 0, broker: 2, logEndOffset: 1, when: {producer.acks: all}}
  - {at: 11, group: readers, partition: 0, owner: readers-1, position: 2, committed: 2, when: {producer.acks: all}}
  - {at: 11, group: workers, partition: 0, startOffset: 1, when: {producer.acks: all}}
  - {at: 11, group: workers, partition: 0, offset: 0, state: acknowledged, deliveryCount: 1, when: {producer.acks: all}}
  - {record: 1, outcome: L, variant: compare, when: {producer.acks: all}}
notes:
  - {at: 3, text: "broker 1 crashes"}
`;
async function warm() {
  const r = await engine.figure(WARM, 'playground-warm');
  if (!r.html) return;
  // Drawn at the width of the real figure's place, out of sight, and in a
  // shadow root (with the page's stylesheets), so that nothing that looks
  // for the page's figures meets it.
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.style.cssText = 'position:absolute;left:-10000px;top:0;visibility:hidden;width:' + (out.clientWidth || 800) + 'px';
  const root = box.attachShadow({ mode: 'open' });
  root.innerHTML = r.html;
  root.prepend(...[...document.querySelectorAll('link[rel=stylesheet]')].map(l => l.cloneNode()));
  document.body.append(box);
  const other = engine.variant(r.run, 1 - r.def);
  await step(root.querySelector('figure'));
  await frame();
  box.remove();
  await other;
  await engine.idle();
}

// The module arrives as base64 of its gzip (kflow-wasm.js: a script, since
// a page opened from a file may not fetch). Its inflated bytes stream into
// the compiler (a Response made here needs no fetch), so that compiling
// starts before the last byte is inflated. boot() runs it in the scope
// it is called in, after Go's wasm_exec.js has defined Go there, and
// resolves once the module's functions (kflowFigure, kflowVariant,
// kflowIdle: playground/wasm) are defined.
async function boot(gz) {
  const s = atob(gz), u = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
  const bytes = () => new Blob([u]).stream().pipeThrough(new DecompressionStream('gzip'));
  const go = new Go();
  const { instance } = WebAssembly.instantiateStreaming
    ? await WebAssembly.instantiateStreaming(new Response(bytes(), { headers: { 'Content-Type': 'application/wasm' } }), go.importObject)
    : await WebAssembly.instantiate(await new Response(bytes()).arrayBuffer(), go.importObject);
  go.run(instance);
}
// The engine runs in a Worker, so that a long run never holds the page:
// the reader can scroll and read while it works, and the status line says
// it is running. A page opened from a file may not start a worker from a
// file, so the worker's script is made here, as a Blob, from the source
// text of boot() and served(); the worker loads wasm-exec.js itself (the
// address the page loaded it from) and is sent the module's base64. Each
// call is a message {id, op, args} answered by {id, r} or {id, error}, in
// order. Where no worker starts (no Worker, or a browser that refuses the
// Blob or the script in it), the engine runs on the page as before.
function served() {
  let up;
  self.onmessage = async ({ data: m }) => {
    if (m.gz) up = (async () => { importScripts(m.exec); await boot(m.gz); })();
    try {
      await up;
      postMessage({ id: m.id, r: m.op ? self[m.op](...m.args) : true });
    } catch (e) {
      postMessage({ id: m.id, error: String(e?.message || e) });
    }
  };
}
function inWorker() {
  const exec = document.querySelector('script[src$="wasm-exec.js"]').src;
  const w = new Worker(URL.createObjectURL(new Blob(['"use strict";' + boot + served + 'served();'], { type: 'text/javascript' })));
  const calls = new Map();
  let id = 0;
  const ask = (op, args, extra) => new Promise((ok, no) => {
    calls.set(++id, { ok, no });
    w.postMessage({ id, op, args, ...extra });
  });
  w.onmessage = ({ data: m }) => {
    const c = calls.get(m.id);
    calls.delete(m.id);
    'error' in m ? c.no(Error(m.error)) : c.ok(m.r);
  };
  w.onerror = e => {
    e.preventDefault();
    for (const c of calls.values()) c.no(Error(e.message || 'the engine stopped'));
    calls.clear();
  };
  return ask(undefined, [], { gz: self.kfWasm, exec }).then(() => ({
    where: 'worker',
    figure: (t, slug) => ask('kflowFigure', [t, slug]),
    variant: (run, i) => ask('kflowVariant', [run, i]),
    idle: () => ask('kflowIdle', []),
  }), e => { w.terminate(); throw e; });
}
async function onPage() {
  await boot(self.kfWasm);
  return {
    where: 'page',
    figure: async (t, slug) => kflowFigure(t, slug),
    variant: async (run, i) => kflowVariant(run, i),
    idle: async () => kflowIdle(),
  };
}
let engine;
// linkProblem says why the link's scenario could not be read; it stays in
// the status line once the engine is ready, so that a cut or mangled link
// does not pass for the default scenario.
let linkProblem = '';
async function fromHash() {
  if (!location.hash.startsWith('#f=')) return false;
  const m = /^#f=([A-Za-z0-9_-]*)$/.exec(location.hash);
  text.readOnly = true;
  status.textContent = 'Opening the scenario in the link…';
  try {
    if (!m) throw Error('it holds characters other than A-Z a-z 0-9 - _');
    if (!m[1]) throw Error('nothing follows #f=');
    text.value = await decode(m[1]);
    linkProblem = '';
    status.textContent = 'Loading the engine…';
    return true;
  } catch (e) {
    linkProblem = 'The link holds no readable scenario (' + (e.message || 'it is cut short or was changed') + '); the editor keeps the text it had.';
    status.textContent = linkProblem;
    return false;
  } finally {
    text.readOnly = false;
  }
}
// A link's scenario is restored before anything else starts: the module's
// set-up keeps the page busy for a while, and the reader must not type
// into the default text only to see the link's text replace it. Until it
// is restored the editor is read-only.
const linked = fromHash();
const ready = (async () => {
  await linked;
  try {
    engine = await inWorker();
  } catch (e) {
    console.info('playground: the engine runs on the page, as no worker started:', e?.message || e);
    engine = await onPage();
  }
  // For tests and the benchmark: where the engine runs, and its calls
  // (each answers a promise).
  self.kfEngine = engine;
  try { await warm(); } catch (e) { console.warn('playground warm-up:', e); }
})();
self.kfReady = ready;

// kfLast is the latest run, for tests that press the button.
const start = () => self.kfLast = kfRun();
run.onclick = start;
text.addEventListener('keydown', e => { if (e.key == 'Enter' && (e.ctrlKey || e.metaKey)) e.preventDefault(), start(); });
(async () => {
  const restored = await linked;
  try { await ready; } catch (e) { status.textContent = 'The engine did not start: ' + e.message; return; }
  run.disabled = false;
  status.textContent = linkProblem ? linkProblem + ' Ready: press Run (or Ctrl+Enter)' : 'Ready: press Run (or Ctrl+Enter)';
  if (restored) start();
})();
addEventListener('hashchange', async () => {
  if (await fromHash()) start();
  else if (linkProblem && !run.disabled) status.textContent = linkProblem + ' Ready: press Run (or Ctrl+Enter)';
});
})();
