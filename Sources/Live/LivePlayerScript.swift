/// The live player in JavaScript, shared by the session's page (`LivePage`) and the box's review
/// page: it plays a session's `/live.mp4` through Media Source Extensions at the live edge.
///
/// ```
/// const player = startLivePlayer(video, base, hooks)  // base: "" or a prefix such as "/cam/front"
/// player.stats()  // {frames, latencies, behindMs, jumps, reconnects}
/// player.stop()
/// readStamp(videoOrImageOrCanvas, scratchCanvas)  // the stand-in camera's frame number, or null
/// ```
///
/// `base` is put before `/api/live` and `/live.mp4`; `hooks` (each optional) are
/// `onInfo(info)` (`/api/live`'s answer with `mime` set to the stream's own Content-Type, at each
/// connection), `onMessage(text)` and `onFrame(n, latencyMs)` (each new stand-in frame number the
/// picture shows, with its capture-to-display time), and `fetch(url, init)` for `/live.mp4` in place of
/// the browser's (the review page's grid). Nothing is global but the two functions, and
/// the player touches no element but its `video`, so a page may run a grid of them.
///
/// The live edge (docs/LIVE.md): the playhead is kept `target` behind the newest buffered frame by
/// playing up to a quarter faster; more than `jumpAfter` behind (a frozen or background tab, a slow
/// link, a stalled element), outside the buffer, or when the tab is shown again, it jumps to the
/// edge. What is more than `keep` seconds behind the playhead is removed from the buffer.
package enum LivePlayerScript {
    package static let source = #"""
// The frame number the stand-in camera draws (Media/Frames/FrameStamp.swift): 34 cells across the
// top. `picture` is a <video>, <img> or <canvas>; `scratch` a canvas of the caller's to read it in.
function readStamp(picture, scratch) {
  const w = "videoWidth" in picture ? picture.videoWidth : "naturalWidth" in picture ? picture.naturalWidth : picture.width;
  const h = "videoHeight" in picture ? picture.videoHeight : "naturalHeight" in picture ? picture.naturalHeight : picture.height;
  const cell = Math.floor(w / 34);
  if (!w || !h || cell < 4) return null;
  scratch.width = w; scratch.height = cell;
  const g = scratch.getContext("2d", {willReadFrequently: true}); g.drawImage(picture, 0, 0, w, h, 0, 0, w, h);
  const px = g.getImageData(0, 0, w, cell).data, m = Math.floor(cell / 4), bits = [];
  for (let i = 0; i < 34; i++) {
    let sum = 0, n = 0;
    for (let y = m; y < cell - m; y++) for (let x = i * cell + m; x < (i + 1) * cell - m; x++) {
      const o = (y * w + x) * 4; sum += 0.299 * px[o] + 0.587 * px[o + 1] + 0.114 * px[o + 2]; n++;
    }
    bits.push(sum / n >= 128);
  }
  if (!bits[0] || bits[33]) return null;
  let v = 0, c = 0;
  for (let i = 1; i <= 24; i++) v = v * 2 + (bits[i] ? 1 : 0);
  for (let i = 25; i <= 32; i++) c = c * 2 + (bits[i] ? 1 : 0);
  const want = ((v & 255) ^ ((v >> 8) & 255) ^ ((v >> 16) & 255) ^ 0xA5) & 255;
  return c === want ? v : null;
}

// Plays `${base}/live.mp4` in `video` at the live edge; reconnects when the stream ends (the
// session restarted it, say without sound after the sound failed) or fails.
function startLivePlayer(video, base, hooks) {
  base = base || ""; hooks = hooks || {};
  const target = 0.1, jumpAfter = 1.0, keep = 5;
  const say = t => { if (hooks.onMessage) hooks.onMessage(t); };
  const scratch = document.createElement("canvas"), frames = [], latencies = [];
  let info = null, stopped = false, jumps = 0, reconnects = 0, objectURL = null, abort = null;

  const edge = () => {
    const b = video.buffered;
    return b.length ? {start: b.start(b.length - 1), end: b.end(b.length - 1)} : null;
  };
  const behind = () => { const e = edge(); return e ? Math.max(0, e.end - video.currentTime) : 0; };
  const jump = () => {
    const e = edge();
    if (!e) return;
    video.currentTime = Math.max(e.start, e.end - target); video.playbackRate = 1; jumps++;
  };
  // Keep to the live edge: a little behind catches up by playing faster, far behind jumps.
  const keepUp = () => {
    const e = edge();
    if (e) {
      const late = e.end - video.currentTime;
      if (late > jumpAfter || video.currentTime < e.start) jump();
      else video.playbackRate = late > 1.5 * target ? 1 + Math.min(0.25, 2 * (late - target)) : 1;
    }
    if (video.paused && video.src) video.play().catch(() => {});
  };
  const onVisible = () => { if (document.visibilityState === "visible" && behind() > 2 * target) jump(); };
  const timer = setInterval(keepUp, 100);
  document.addEventListener("visibilitychange", onVisible);

  async function play() {
    const r = await fetch(base + "/api/live", {signal: abort.signal});
    if (r.status === 503) { say((await r.json()).error?.message || "waiting for the session"); return true; }
    if (!r.ok) { say("live: " + r.status); return true; }
    info = await r.json();
    if (stopped) return false;
    if (!info.mime || !window.MediaSource || !MediaSource.isTypeSupported(info.mime)) { say("this browser cannot play " + info.mime); return false; }
    const response = await (hooks.fetch || fetch)(base + "/live.mp4", {signal: abort.signal});
    if (!response.ok) { say("live: " + response.status); return true; }
    const type = response.headers.get("Content-Type") || info.mime;
    if (hooks.onInfo) hooks.onInfo(Object.assign({}, info, {mime: type}));
    const ms = new MediaSource();
    if (objectURL) URL.revokeObjectURL(objectURL);
    objectURL = URL.createObjectURL(ms); video.src = objectURL;
    await new Promise(r => ms.addEventListener("sourceopen", r, {once: true}));
    if (stopped) return false;
    const sb = ms.addSourceBuffer(type); sb.mode = "segments";
    let queue = [];
    // One append at a time, of everything that came meanwhile; old pictures go first.
    const pump = () => {
      if (sb.updating || !queue.length || ms.readyState !== "open") return;
      const b = sb.buffered;
      if (b.length && b.start(0) < video.currentTime - 2 * keep) { sb.remove(0, video.currentTime - keep); return; }
      const n = queue.reduce((a, c) => a + c.length, 0), all = new Uint8Array(n); let o = 0;
      for (const q of queue) { all.set(q, o); o += q.length; }
      queue = [];
      try { sb.appendBuffer(all); } catch (e) {
        if (e.name !== "QuotaExceededError" || !b.length) throw e;
        queue = [all]; sb.remove(0, Math.max(b.start(0) + 0.5, video.currentTime - 1));
      }
    };
    sb.addEventListener("updateend", pump);
    const reader = response.body.getReader();
    for (;;) {
      const {value, done} = await reader.read();
      if (done || stopped) break;
      queue.push(value); pump();
    }
    if (!stopped) say("the live stream ended; connecting again");
    return true;
  }
  (async () => {
    for (let first = true; !stopped; first = false) {
      if (!first) reconnects++;
      abort = new AbortController();
      let again = true;
      try { again = await play(); } catch (e) { if (!stopped) say("live: " + e); }
      if (!again || stopped) return;
      await new Promise(r => setTimeout(r, 1000));
    }
  })();

  // Each new frame the picture shows: its stand-in number and how long ago it was captured.
  const watch = () => {
    if (stopped) return;
    const n = readStamp(video, scratch);
    if (n !== null && info && info.started_at && info.frame_rate && frames[frames.length - 1] !== n) {
      const lat = Date.now() - (info.started_at * 1000 + n * 1000 / info.frame_rate);
      frames.push(n); latencies.push(lat);
      if (frames.length > 2000) { frames.shift(); latencies.shift(); }
      if (hooks.onFrame) hooks.onFrame(n, lat);
    }
    if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(watch); else setTimeout(watch, 30);
  };
  watch();

  return {
    stop() {
      stopped = true; clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
      if (abort) abort.abort();
      video.removeAttribute("src"); video.load();
      if (objectURL) URL.revokeObjectURL(objectURL);
    },
    stats() {
      return {frames: frames.slice(), latencies: latencies.slice(), behindMs: Math.round(behind() * 1000), jumps, reconnects};
    },
  };
}
"""#
}
