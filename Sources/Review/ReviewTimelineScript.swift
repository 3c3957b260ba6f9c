/// The review page's timeline (docs/REVIEW.md): a wall-clock axis over every camera, from days
/// down to single frames. Per camera a row: what is recorded (files darker, the ring brighter),
/// outages shaded, motion (level graph and events), saves and their uploads; the playhead and the
/// in and out handles on top. Wheel, pinch and buttons zoom; a press moves the playhead (previews
/// while dragging, the exact frames when it stops); the handles drag and snap to frames.
enum ReviewTimelineScript {
    static let source = #"""
let view = [Date.now() / 1000 - 120, Date.now() / 1000 + 5];
let follow = true;   // the window keeps the live edge in view until the user moves it
const AXIS = 26, ROW = 34, COLORS = {file: "#1f5f3a", ring: "#2f9a5a", gap: "#c0392b", motion: "#f3c53a", event: "#ff4d4d",
  save: "#5aa9ff", uploaded: "#37d4c8", failed: "#ff8c1a", playhead: "#ffffff", handle: "#ffd54a", range: "rgba(255,213,74,.18)"};
const tl = $("tl");
const x2t = x => view[0] + (view[1] - view[0]) * x / tl.clientWidth;
const t2x = t => (t - view[0]) / (view[1] - view[0]) * tl.clientWidth;
const STEPS = [0.001, 0.01, 0.04, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];
function spansOf(cam) {
  const r = cam.rec, u = s => toUnix(cam, s), out = {files: [], ring: null, gaps: [], saves: []};
  if (!r) return out;
  out.files = (r.files || []).map(f => [u(f.start), u(f.end)]);
  if (r.ring) out.ring = [u(r.ring.start), u(r.ring.end)];
  out.gaps = (r.gaps || []).map(g => [u(g.start), u(g.end)]);
  out.saves = (r.saves || []).map(s => ({from: u(s.from), to: u(s.to), upload: s.upload}));
  return out;
}
function draw() {
  const w = tl.clientWidth, list = [...cams.values()], dpr = devicePixelRatio || 1;
  const h = AXIS + Math.max(1, list.length) * ROW;
  if (follow && playhead === null) { const n = now(), len = view[1] - view[0]; view = [n - len * 0.97, n + len * 0.03]; }
  tl.width = Math.round(w * dpr); tl.height = Math.round(h * dpr); tl.style.height = h + "px";
  const g = tl.getContext("2d"); g.setTransform(dpr, 0, 0, dpr, 0, 0); g.clearRect(0, 0, w, h);
  const fill = (a, b, y, hh, c) => { const x = t2x(a); g.fillStyle = c; g.fillRect(x, y, Math.max(1, t2x(b) - x), hh); };
  // The axis: a step that gives labels at least 90 px apart; frames as ticks once they are 4 px apart.
  const len = view[1] - view[0], step = STEPS.find(s => s / len * w >= 90) || 86400;
  g.fillStyle = "#ddd"; g.font = "12px system-ui,sans-serif"; g.textBaseline = "top";
  for (let t = Math.ceil(view[0] / step) * step; t <= view[1]; t += step) {
    const x = t2x(t); g.fillRect(x, 16, 1, 10);
    const d = new Date(t * 1000), p = n => String(n).padStart(2, "0");
    let label = step >= 86400 ? d.toLocaleDateString() : p(d.getHours()) + ":" + p(d.getMinutes()) + (step < 60 ? ":" + p(d.getSeconds()) : "");
    if (step < 1) label += "." + String(d.getMilliseconds()).padStart(3, "0");
    g.fillText(label, x + 3, 2);
  }
  const ref = reference();
  if (ref && len * ref.rec.frame_rate <= w / 4) {
    g.fillStyle = "#999";
    const k0 = Math.ceil((view[0] - ref.rec.started_at) * ref.rec.frame_rate);
    for (let k = k0; ref.rec.started_at + k / ref.rec.frame_rate <= view[1]; k++) g.fillRect(t2x(ref.rec.started_at + k / ref.rec.frame_rate), 20, 1, 6);
  }
  list.forEach((cam, i) => {
    const y = AXIS + i * ROW, s = spansOf(cam);
    g.fillStyle = "#222"; g.fillRect(0, y, w, ROW - 4);
    for (const [a, b] of s.files) fill(a, b, y, ROW - 4, COLORS.file);
    if (s.ring) fill(s.ring[0], s.ring[1], y + 6, ROW - 16, COLORS.ring);
    for (const [a, b] of s.gaps) { fill(a, b, y, ROW - 4, COLORS.gap); }
    const ev = cam.ev;
    if (ev) {
      (ev.levels || []).forEach((v, j) => { if (v > 0) { const a = toUnix(cam, ev.from + j * ev.step); fill(a, a + ev.step, y + ROW - 4 - Math.max(2, Math.sqrt(v) * 20), Math.max(2, Math.sqrt(v) * 20), COLORS.motion); } });
      for (const e of ev.events || []) fill(toUnix(cam, e.start), toUnix(cam, e.end), y, 3, COLORS.event);
    }
    for (const v of s.saves) fill(v.from, v.to, y + ROW - 8, 4, v.upload === "done" ? COLORS.uploaded : v.upload === "failed" ? COLORS.failed : COLORS.save);
    g.fillStyle = "#fff"; g.fillText(cam.name, 4, y + 2);
  });
  if (inT !== null && outT !== null) fill(inT, outT, AXIS, h - AXIS, COLORS.range);
  for (const t of [inT, outT]) if (t !== null) {
    const x = t2x(t); g.fillStyle = COLORS.handle; g.fillRect(x - 1, AXIS, 2, h - AXIS);
    g.beginPath(); g.moveTo(x - 6, AXIS - 8); g.lineTo(x + 6, AXIS - 8); g.lineTo(x, AXIS); g.fill();
  }
  const p = playhead ?? now(); g.fillStyle = playhead === null ? "#ff5a5a" : COLORS.playhead; g.fillRect(t2x(p) - 1, 12, 2, h - 12);
}
function zoom(f, at) {
  const c = at ?? (playhead ?? now()), len = Math.min(7 * 86400, Math.max(0.2, (view[1] - view[0]) * f));
  const k = (c - view[0]) / (view[1] - view[0]);
  view = [c - len * k, c - len * k + len]; follow = playhead === null && view[1] >= now(); draw();
}
function fitAll() {
  let a = Infinity, b = now();
  for (const c of cams.values()) { const s = spansOf(c); for (const [x] of s.files) a = Math.min(a, x); if (s.ring) a = Math.min(a, s.ring[0]); }
  if (!isFinite(a)) a = b - 60;
  const pad = (b - a) * 0.03 + 0.5; view = [a - pad, b + pad]; follow = false; draw();
}
$("zin").onclick = () => zoom(0.5); $("zout").onclick = () => zoom(2); $("fit").onclick = fitAll;
tl.addEventListener("wheel", e => { e.preventDefault(); zoom(Math.pow(1.2, e.deltaY / 100), x2t(ex(e))); }, {passive: false});
// A press near a handle drags it; elsewhere it moves the playhead (previews while dragging).
// Two fingers pinch to zoom.
const pointers = new Map(), ex = e => e.clientX - tl.getBoundingClientRect().left;
let drag = null;
tl.addEventListener("pointerdown", e => {
  try { tl.setPointerCapture(e.pointerId); } catch (_) {}
  pointers.set(e.pointerId, ex(e));
  if (pointers.size === 2) { const [a, b] = [...pointers.values()]; drag = {pinch: Math.abs(a - b), view: view.slice()}; return; }
  const near = t => t !== null && Math.abs(t2x(t) - ex(e)) <= 8;
  drag = ROLE === "export" && near(inT) ? {handle: "in"} : ROLE === "export" && near(outT) ? {handle: "out"} : {playhead: true};
  follow = false; play(0);
  if (drag.playhead) seek(x2t(ex(e)), false);
});
tl.addEventListener("pointermove", e => {
  if (!drag || !pointers.has(e.pointerId)) return;
  pointers.set(e.pointerId, ex(e));
  if (drag.pinch !== undefined && pointers.size === 2) {
    const [a, b] = [...pointers.values()], f = drag.pinch / Math.max(1, Math.abs(a - b)), c = x2t((a + b) / 2);
    const len = Math.min(7 * 86400, Math.max(0.2, (drag.view[1] - drag.view[0]) * f)); view = [c - len / 2, c + len / 2]; draw(); return;
  }
  const t = x2t(ex(e));
  if (drag.handle === "in") { inT = snap(t); showHandles(); }
  else if (drag.handle === "out") { outT = snap(t); showHandles(); }
  else if (drag.playhead) seek(t, false);
});
const release = e => {
  pointers.delete(e.pointerId);
  if (!drag) return;
  if (drag.playhead && pointers.size === 0) seek(snap(x2t(ex(e))), true);
  if (drag.handle && inT !== null && outT !== null && inT > outT) { [inT, outT] = [outT, inT]; showHandles(); }
  if (pointers.size === 0) drag = null;
};
tl.addEventListener("pointerup", release); tl.addEventListener("pointercancel", release);
addEventListener("resize", draw);

// Opening a link: `#t=UNIX[&in=UNIX&out=UNIX]` puts the playhead (and the handles) there.
function openHash() {
  const q = new URLSearchParams(location.hash.slice(1));
  if (q.has("in")) inT = +q.get("in"); if (q.has("out")) outT = +q.get("out");
  if (q.has("t")) { const t = +q.get("t"); const len = view[1] - view[0]; view = [t - len / 2, t + len / 2]; follow = false; seek(snap(t)); }
  showHandles();
}
(async () => {
  await refresh(true);
  if (/[#&]t=/.test(location.hash)) openHash();
  refreshExports();
  setInterval(refresh, 2000);
  setInterval(() => { if (playhead === null) draw(); }, 250);
})();
"""#
}
