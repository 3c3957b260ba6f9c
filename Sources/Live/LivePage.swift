/// The live page: HTML, CSS and JavaScript in one string, nothing from the internet. The token is
/// written into the page (served only to a request that had it) so its POSTs can carry it in a
/// header; the URL's `?token=` is removed from the address bar at once.
///
/// With `#selftest` in the URL the page also exercises itself (live frames, latency, a clip
/// played and saved from the timeline) and logs `REC-SELFTEST {…}` lines to the console, which
/// the headless Chromium test reads.
enum LivePage {
    static func html(token: String) -> String {
        head + "<script>const TOKEN=\"\(token)\";\n" + LivePlayerScript.source + script + selftest + "</script></body></html>"
    }

    static let head = #"""
<!doctype html><html><head><meta charset="utf-8"><title>rec live</title>
<style>
body{font:14px system-ui,sans-serif;margin:12px;background:#111;color:#ddd}
video{background:#000;max-width:100%;display:block}
#strip{position:relative;height:60px;background:#222;margin:8px 0;overflow:hidden;cursor:crosshair;user-select:none}
#strip img{position:absolute;top:0;height:60px;opacity:.8}
#motion{position:absolute;top:0;left:0;height:60px;pointer-events:none}
#sel{position:absolute;top:0;height:60px;background:rgba(80,160,255,.35);border:1px solid #5af;pointer-events:none}
table{border-collapse:collapse}td{padding:1px 8px 1px 0}button{margin-right:6px}
#msg{color:#fc6;min-height:1.2em}
</style></head><body>
<div><b id="title">rec live</b> <span id="frame"></span> <span id="lat"></span> <button id="sound" style="display:none">Sound on</button></div>
<video id="live" muted autoplay playsinline></video>
<div id="strip"><canvas id="motion" height="60"></canvas><div id="sel"></div></div>
<div>from <input id="from" size="8"> to <input id="to" size="8"> s
<button id="play">Play range</button><button id="save">Save on the session's machine</button>
<button id="download">Download</button><button id="snap">Snapshot</button></div>
<div id="msg"></div>
<video id="clip" controls muted playsinline style="display:none;max-width:640px"></video>
<table id="status"></table>
<canvas id="cv" style="display:none"></canvas>
"""#

    static let script = #"""
history.replaceState(null, "", "/" + location.hash);
const $ = id => document.getElementById(id);
const live = $("live"), msg = t => $("msg").textContent = t;
let info = null, span = [0, 0], range = null;
const post = (url, body) => fetch(url, {method: "POST", headers: {"X-Rec-Token": TOKEN, "Content-Type": "application/json"}, body: JSON.stringify(body)});

// The live picture: the player shared with the box's review page (LivePlayerScript.swift).
// The self-tests wait on framesSeen for 60 frames; #watch times each frame with frameShown.
let framesShown = 0, framesSeen = () => {}, frameShown = () => {};
const player = startLivePlayer(live, "", {
  onInfo: i => { info = i; $("sound").style.display = i.mime.includes(",") ? "inline" : "none"; },
  onMessage: msg,
  onFrame: (n, lat) => {
    $("frame").textContent = "frame " + n; $("lat").textContent = Math.round(lat) + " ms behind the camera";
    if (++framesShown >= 60) framesSeen();
    frameShown(lat);
  },
});
$("sound").onclick = () => { live.muted = !live.muted; $("sound").textContent = live.muted ? "Sound on" : "Sound off"; };

async function refresh() {
  try {
    const t = await (await fetch("/api/timeline")).json(), s = t.status.status || {}, x = s.extra || {};
    span = [+(x.ring_start || 0), +(x.ring_end || 0)];
    const rows = [["state", s.state], ["frames", s.frames], ["real rate", s.fps + " fps"], ["dropped", (s.dropped_late || 0) + " late, " + (s.dropped_by_driver || 0) + " by the source"],
      ["ring", (s.ring_span || 0) + " s, " + Math.round((s.ring_bytes || 0) / 1024) + " KiB"], ["output", s.output || "none (ring only)"],
      ["viewers", x.live_viewers], ["publish", x.publish || "off"], ["error", s.last_error || ""]];
    $("status").innerHTML = "";
    for (const [k, v] of rows) { const tr = $("status").insertRow(); tr.insertCell().textContent = k; tr.insertCell().textContent = v ?? ""; }
    drawStrip(t.keyframes);
    if (x.motion) drawMotion(await (await fetch("/api/events?levels=1&from=" + span[0] + "&to=" + span[1])).json());
  } catch (e) { msg("status: " + e); }
}
// The motion index over the strip: the level every 200 ms as a graph from the bottom (yellow),
// each event as a red band along the top with a mark at its start (docs/EVENTS.md).
function drawMotion(r) {
  const cv = $("motion"), w = $("strip").clientWidth, g = cv.getContext("2d");
  cv.width = w; g.clearRect(0, 0, w, 60);
  (r.levels || []).forEach((v, i) => {
    if (v == null) return;
    const t = r.from + i * r.step, x = t2x(t), h = Math.max(v > 0 ? 2 : 0, Math.sqrt(v) * 56);
    g.fillStyle = "rgba(255,200,40,.8)"; g.fillRect(x, 60 - h, Math.max(1, t2x(t + r.step) - x), h);
  });
  for (const e of r.events || []) {
    g.fillStyle = "rgba(255,60,60,.9)"; g.fillRect(t2x(e.start), 0, Math.max(2, t2x(e.end) - t2x(e.start)), 4);
    g.fillRect(t2x(e.start), 0, 2, 60);
  }
  cv.dataset.events = (r.events || []).length; cv.dataset.levels = (r.levels || []).filter(v => v > 0).length;
}
const x2t = x => span[0] + (span[1] - span[0]) * x / $("strip").clientWidth;
const t2x = t => (t - span[0]) / Math.max(0.001, span[1] - span[0]) * $("strip").clientWidth;
const thumbs = new Map();
function drawStrip(keys) {
  const strip = $("strip");
  for (const [k, img] of thumbs) if (!keys.includes(k)) { img.remove(); thumbs.delete(k); }
  for (const k of keys) {
    let img = thumbs.get(k);
    if (!img) { img = new Image(); img.src = "/api/thumb.jpg?t=" + k; img.draggable = false; strip.appendChild(img); thumbs.set(k, img); }
    img.style.left = t2x(k) + "px";
  }
  showRange();
}
function showRange() {
  if (!range) return;
  const a = Math.min(...range), b = Math.max(...range);
  $("sel").style.left = t2x(a) + "px"; $("sel").style.width = (t2x(b) - t2x(a)) + "px";
  $("from").value = a.toFixed(3); $("to").value = b.toFixed(3);
}
$("strip").addEventListener("pointerdown", e => {
  const x0 = e.offsetX; range = [x2t(x0), x2t(x0)]; showRange();
  const move = ev => { range[1] = x2t(ev.clientX - $("strip").getBoundingClientRect().left); showRange(); };
  addEventListener("pointermove", move);
  addEventListener("pointerup", () => removeEventListener("pointermove", move), {once: true});
});
const chosen = () => [+$("from").value, +$("to").value];
function playRange() {
  const [a, b] = chosen(), clip = $("clip");
  clip.style.display = "block"; clip.src = "/api/clip.mp4?from=" + a + "&to=" + b; clip.play().catch(() => {});
  return clip;
}
async function saveRange() {
  const [a, b] = chosen(), r = await (await post("/api/save", {from: a, to: b})).json();
  msg(r.ok ? "saved " + r.save.path + " (" + r.save.frames + " frames)" : "rec: " + r.error.message);
  return r;
}
$("play").onclick = playRange; $("save").onclick = saveRange;
$("download").onclick = () => { const [a, b] = chosen(); location.href = "/api/clip.mp4?download=1&from=" + a + "&to=" + b; };
$("snap").onclick = () => open("/api/snapshot.jpg", "_blank");
refresh(); setInterval(refresh, 1000);

"""#
}
