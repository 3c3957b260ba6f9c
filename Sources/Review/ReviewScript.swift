/// The review page's cameras, playhead, playback, keyboard and exports (docs/REVIEW.md). Times
/// on the page are Unix seconds; a session's own times are seconds since its first frame, and
/// `started_at` (its `/api/recordings`) turns one into the other.
enum ReviewScript {
    static let source = #"""
history.replaceState(null, "", "/" + location.hash);
const $ = id => document.getElementById(id);
const msg = t => { $("msg").textContent = t; };
const post = (url, body) => fetch(url, {method: "POST", headers: {"X-Rec-Token": TOKEN, "Content-Type": "application/json"}, body: JSON.stringify(body)});
const cams = new Map();          // name -> camera
let playhead = null;             // Unix seconds, or null at the live edge
let rate = 0, lastTick = 0;      // playback: 0 paused, ±1, ±2, ±4
let inT = null, outT = null;
let serverSkew = 0;              // the box's clock minus this browser's, from /api/box
const now = () => Date.now() / 1000 + serverSkew;
$("role").textContent = ROLE === "export" ? "may watch and export" : "may watch";
if (ROLE !== "export") for (const id of ["setin", "setout", "export"]) $(id).disabled = true;

function localText(t, ms = true) {
  const d = new Date(t * 1000), p = (n, w = 2) => String(n).padStart(w, "0");
  return d.getFullYear() + "-" + p(d.getMonth() + 1) + "-" + p(d.getDate()) + " " + p(d.getHours()) + ":" + p(d.getMinutes()) + ":" + p(d.getSeconds())
    + (ms ? "." + p(d.getMilliseconds(), 3) : "");
}
// A camera: its tile, live player, recordings (session times) and motion.
function addCamera(c) {
  const fig = document.createElement("figure"); fig.className = "tile"; fig.tabIndex = -1;
  const video = document.createElement("video"); video.muted = true; video.autoplay = true; video.playsInline = true;
  video.setAttribute("aria-label", c.name + " live");
  const img = document.createElement("img"); img.alt = c.name + " at the playhead"; img.hidden = true;
  const cap = document.createElement("figcaption"), name = document.createElement("b"), when = document.createElement("span");
  name.textContent = c.name; when.className = "when";
  const pick = document.createElement("label"), box = document.createElement("input");
  box.type = "checkbox"; box.checked = true; box.disabled = ROLE !== "export"; pick.append(box, "export");
  box.setAttribute("aria-label", "Export " + c.name);
  cap.append(name, when, pick); fig.append(video, img, cap); $("grid").append(fig);
  const cam = {name: c.name, live: c.live, fig, video, img, when, box, player: null, rec: null, ev: null, busy: false, shown: null};
  if (!c.live) { const n = document.createElement("div"); n.className = "note"; n.textContent = c.name + " " + c.note; fig.insertBefore(n, cap); video.hidden = true; }
  cams.set(c.name, cam);
  showMode(cam);
  return cam;
}
function removeCamera(cam) {
  if (cam.player) cam.player.stop();
  cam.fig.remove(); cams.delete(cam.name);
}
const base = cam => "/cam/" + encodeURIComponent(cam.name);
const toSession = (cam, t) => t - cam.rec.started_at;
const toUnix = (cam, s) => cam.rec.started_at + s;
// The first camera with a frame rate sets the grid the playhead and the handles snap to.
function reference() { for (const c of cams.values()) if (c.rec && c.rec.started_at && c.rec.frame_rate) return c; return null; }
function snap(t) {
  const c = reference(); if (!c) return t;
  const k = Math.round((t - c.rec.started_at) * c.rec.frame_rate);
  return c.rec.started_at + k / c.rec.frame_rate;
}
const frameStep = () => { const c = reference(); return c ? 1 / c.rec.frame_rate : 1 / 30; };

// Live: every tile plays its session's live stream, all of them over one connection (the grid,
// ReviewGridScript: a browser opens at most 6 connections to one server and each stream would hold
// one). At a playhead: the exact frame at that instant.
function showMode(cam) {
  const live = playhead === null && cam.live;
  cam.video.hidden = !live; cam.img.hidden = live || !cam.live;
  if (live && !cam.player) {
    cam.player = startLivePlayer(cam.video, base(cam), {fetch: gridFetch, onMessage: m => { cam.when.textContent = m; }});
    cam.when.textContent = "live";
  } else if (!live && cam.player) {
    cam.player.stop(); cam.player = null;
  }
}
function goLive() {
  playhead = null; rate = 0; $("play").textContent = "Play";
  $("golive").setAttribute("aria-pressed", "true"); $("tl").setAttribute("aria-valuetext", "live");
  history.replaceState(null, "", "/");
  for (const c of cams.values()) showMode(c);
  draw();
}
// Moves the playhead; `exact` loads each camera's exact frame, else a cheap preview (a keyframe).
function seek(t, exact = true) {
  const wasLive = playhead === null;
  playhead = Math.min(t, now());
  $("golive").setAttribute("aria-pressed", "false");
  $("tl").setAttribute("aria-valuetext", localText(playhead));
  if (wasLive) for (const c of cams.values()) showMode(c);
  for (const c of cams.values()) { c.want = {t: playhead, exact}; loadFrame(c); }
  draw();
}
// One request at a time per camera: when one comes back, the newest wish is asked for.
async function loadFrame(cam) {
  if (cam.busy || !cam.want || !cam.rec || !cam.live) return;
  const want = cam.want; cam.want = null; cam.busy = true;
  const s = toSession(cam, want.t);
  const url = base(cam) + (want.exact ? "/api/frame.jpg?t=" : "/api/thumb.jpg?t=") + s.toFixed(6);
  try {
    const r = await fetch(url);
    if (r.ok) {
      const blob = await r.blob(), old = cam.img.src;
      // Shown once the new picture has loaded (Firefox's decode() may settle on the old one).
      await new Promise(done => { cam.img.onload = cam.img.onerror = done; cam.img.src = URL.createObjectURL(blob); });
      cam.blob = blob;
      if (old.startsWith("blob:")) URL.revokeObjectURL(old);
      const ft = r.headers.get("X-Rec-Frame-Time");
      cam.shown = {t: want.t, exact: want.exact, frameTime: ft === null ? null : toUnix(cam, +ft)};
      cam.when.textContent = (want.exact ? "" : "≈ ") + (ft === null ? localText(want.t) : localText(toUnix(cam, +ft)));
    } else {
      cam.shown = {t: want.t, exact: want.exact, frameTime: null, error: r.status};
      cam.img.removeAttribute("src"); cam.when.textContent = r.status === 404 ? "no picture here" : "error " + r.status;
    }
  } catch (e) { cam.when.textContent = "" + e; }
  cam.busy = false;
  if (cam.want) loadFrame(cam); else if (cam.doneWaiters) { for (const w of cam.doneWaiters) w(); cam.doneWaiters = []; }
}
// Resolves once every camera shows the exact frame at the playhead.
function framesShown() {
  return Promise.all([...cams.values()].filter(c => c.live).map(c => new Promise(res => {
    const check = () => {
      if (c.shown && c.shown.exact && c.shown.t === playhead && !c.busy && !c.want) res();
      else (c.doneWaiters = c.doneWaiters || []).push(check);
    };
    check();
  })));
}
// Playback: the playhead moves with the clock; each camera shows the newest exact frame it can fetch.
function tick(ts) {
  if (rate === 0 || playhead === null) return;
  const dt = lastTick ? (ts - lastTick) / 1000 : 0; lastTick = ts;
  let t = playhead + dt * rate;
  if (t >= now() - 0.2) { goLive(); return; }
  playhead = t; $("tl").setAttribute("aria-valuetext", localText(t));
  for (const c of cams.values()) { c.want = {t, exact: true}; loadFrame(c); }
  draw();
  requestAnimationFrame(tick);
}
function play(r) {
  if (playhead === null) seek(now() - 10);
  rate = r; lastTick = 0; $("play").textContent = rate ? "Pause" : "Play";
  if (rate) requestAnimationFrame(tick); else seek(snap(playhead));
}
function step(frames) { play(0); seek(snap((playhead ?? now()) + frames * frameStep())); }
function setIn() { if (playhead !== null) { inT = snap(playhead); if (outT !== null && outT <= inT) outT = null; showHandles(); } }
function setOut() { if (playhead !== null) { outT = snap(playhead); if (inT !== null && inT >= outT) inT = null; showHandles(); } }
function showHandles() {
  $("inval").textContent = inT === null ? "–" : localText(inT); $("outval").textContent = outT === null ? "–" : localText(outT);
  draw();
}
function linkHash() {
  const p = ["t=" + (playhead ?? now()).toFixed(3)];
  if (inT !== null) p.push("in=" + inT.toFixed(6)); if (outT !== null) p.push("out=" + outT.toFixed(6));
  return "#" + p.join("&");
}
$("golive").onclick = goLive;
$("play").onclick = () => play(rate ? 0 : 1);
$("back").onclick = () => step(-1); $("fwd").onclick = () => step(1);
$("setin").onclick = setIn; $("setout").onclick = setOut;
$("link").onclick = () => { history.replaceState(null, "", "/" + linkHash()); navigator.clipboard?.writeText(location.href).catch(() => {}); msg("link: " + location.href); };
$("goto").addEventListener("keydown", e => {
  if (e.key !== "Enter") return;
  const t = parseWhen($("goto").value);
  if (t === null) msg("give a date and time such as 2026-12-06 14:03:05.250, or a time of day"); else { play(0); seek(snap(t)); }
});
function parseWhen(text) {
  const m = text.trim().match(/^(?:(\d{4})-(\d\d)-(\d\d)[ T])?(\d{1,2}):(\d\d)(?::(\d\d)(?:\.(\d{1,3}))?)?$/);
  if (!m) { const n = Number(text); return text.trim() && isFinite(n) && n > 1e9 ? n : null; }
  const d = new Date(); if (m[1]) d.setFullYear(+m[1], +m[2] - 1, +m[3]);
  d.setHours(+m[4], +m[5], +(m[6] || 0), +((m[7] || "0").padEnd(3, "0")));
  return d.getTime() / 1000;
}
// J K L, space, arrows, I and O, + and -: anywhere but in the text field.
addEventListener("keydown", e => {
  if (e.target instanceof HTMLInputElement && e.target.type !== "checkbox") return;
  const k = e.key, done = () => e.preventDefault();
  if (k === " " || k === "k" || k === "K") { done(); play(k === " " && !rate ? 1 : 0); }
  else if (k === "l" || k === "L") { done(); play(rate > 0 ? Math.min(rate * 2, 8) : 1); }
  else if (k === "j" || k === "J") { done(); play(rate < 0 ? Math.max(rate * 2, -8) : -1); }
  else if (k === "ArrowLeft") { done(); e.shiftKey ? (play(0), seek(snap((playhead ?? now()) - 1))) : step(-1); }
  else if (k === "ArrowRight") { done(); e.shiftKey ? (play(0), seek(snap((playhead ?? now()) + 1))) : step(1); }
  else if ((k === "i" || k === "I") && ROLE === "export") { done(); setIn(); }
  else if ((k === "o" || k === "O") && ROLE === "export") { done(); setOut(); }
  else if (k === "+" || k === "=") { done(); zoom(0.5); }
  else if (k === "-") { done(); zoom(2); }
  else if (k === "Escape") { done(); goLive(); }
});

// Exports: the chosen cameras, the handles' range, one bundle; the list shows each one's state.
async function exportRange() {
  if (inT === null || outT === null) { msg("set the in and out handles first (I and O at the playhead, or drag them)"); return null; }
  const chosen = [...cams.values()].filter(c => c.box.checked && c.live).map(c => c.name);
  // Half a millisecond back: a handle sits on a frame's time, which each session rounds to its
  // own microseconds; the frame at the in handle is in, the one at the out handle out.
  const r = await post("/api/export", {from: inT - 0.0005, to: outT - 0.0005, cameras: chosen});
  const j = await r.json();
  if (!r.ok) { msg("rec: " + j.error.message); return j; }
  msg("exporting " + chosen.length + " cameras into " + j.export.folder + (outT > now() ? "; it waits for the out handle" : ""));
  refreshExports();
  return j;
}
$("export").onclick = exportRange;
async function refreshExports() {
  if (ROLE !== "export") return [];
  const list = (await (await fetch("/api/exports")).json()).exports || [];
  const ul = $("exports"); ul.innerHTML = "";
  for (const x of list.slice(0, 10)) {
    const li = document.createElement("li");
    li.textContent = localText(x.from) + " – " + localText(x.to) + ": " + x.state + (x.error ? " (" + x.error + ")" : "") + " ";
    for (const c of (x.manifest ? x.manifest.cameras : [])) if (c.file) {
      const a = document.createElement("a"); a.href = "/api/exports/" + x.id + "/" + encodeURIComponent(c.file) + "?download=1";
      a.textContent = c.file + " (" + c.frames + " frames)"; li.append(a, " ");
    }
    if (x.manifest) { const a = document.createElement("a"); a.href = "/api/exports/" + x.id + "/manifest.json"; a.textContent = "manifest"; li.append(a); }
    ul.append(li);
  }
  if (list.some(x => x.state === "saving")) setTimeout(refreshExports, 1000);
  return list;
}

// The cameras every 2 s; their recordings and motion every third time (6 s: bench/review.sh
// measured 16 cameras' every 2 s at about 3 % of a core per 4 viewers), or when asked for (all).
let refreshes = 0;
async function refresh(all = false) {
  const deep = all || refreshes++ % 3 === 0;
  try {
    const t0 = Date.now() / 1000, box = await (await fetch("/api/box")).json();
    serverSkew = box.now - (t0 + Date.now() / 1000) / 2;
    const names = new Set(box.cameras.map(c => c.name));
    for (const c of [...cams.values()]) if (!names.has(c.name)) removeCamera(c);
    for (const c of box.cameras) if (!cams.has(c.name)) addCamera(c);
    await Promise.all([...cams.values()].filter(c => c.live && (deep || !c.rec)).map(async c => {
      const r = await fetch(base(c) + "/api/recordings"); if (r.ok) c.rec = await r.json();
      if (c.rec && c.want) loadFrame(c);
      if (c.rec) {
        const [a, b] = [Math.max(view[0], c.rec.started_at), Math.min(view[1], now())].map(t => toSession(c, t));
        if (b > a) {
          const e = await fetch(base(c) + "/api/events?from=" + a.toFixed(3) + "&to=" + b.toFixed(3) + (view[1] - view[0] <= 3600 ? "&levels=1" : ""));
          c.ev = e.ok ? await e.json() : null;
        }
      }
    }));
    $("clock").textContent = localText(now(), false);
    draw();
  } catch (e) { msg("refresh: " + e); }
}
"""#
}
