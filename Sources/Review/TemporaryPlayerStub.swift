// TEMPORARY (not committed): stands in for Live's LivePlayerScript until that branch lands.
enum LivePlayerScript {
    static let source = #"""
function readStamp(el, cv) {
  const w = el.videoWidth || el.naturalWidth, h = el.videoHeight || el.naturalHeight, cell = Math.floor(w / 34);
  if (!w || cell < 4) return null;
  cv.width = w; cv.height = cell;
  const g = cv.getContext("2d", {willReadFrequently: true}); g.drawImage(el, 0, 0, w, h, 0, 0, w, h);
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
  let sum = 0; for (let i = 1; i <= 24; i++) if (bits[i]) sum++;
  return v;
}
function startLivePlayer(video, base, hooks) {
  let stopped = false, ms = null, ctl = new AbortController();
  (async () => {
    const info = await (await fetch(base + "/api/live")).json();
    ms = new MediaSource(); video.src = URL.createObjectURL(ms);
    await new Promise(r => ms.addEventListener("sourceopen", r, {once: true}));
    const sb = ms.addSourceBuffer(info.mime), queue = [];
    const pump = () => { if (sb.updating || !queue.length) return; const n = queue.reduce((a, b) => a + b.length, 0), all = new Uint8Array(n); let o = 0; for (const q of queue) { all.set(q, o); o += q.length; } queue.length = 0; sb.appendBuffer(all); };
    sb.addEventListener("updateend", pump);
    const r = await fetch(base + "/live.mp4", {signal: ctl.signal}), reader = r.body.getReader();
    for (;;) { const {value, done} = await reader.read(); if (done || stopped) break; queue.push(value); pump(); }
  })().catch(e => hooks && hooks.onMessage && hooks.onMessage("" + e));
  const timer = setInterval(() => { const b = video.buffered; if (b.length) { const end = b.end(b.length - 1); if (end - video.currentTime > 0.25) video.currentTime = end - 0.03; } if (video.paused) video.play().catch(() => {}); }, 100);
  return {stop() { stopped = true; ctl.abort(); clearInterval(timer); video.removeAttribute("src"); video.load(); }, stats() { return {}; }};
}
"""#
}
