/// `#reviewtest&cameras=N&at=S&from=S&to=S[&export=1]` (seconds from the moment each is used,
/// negative in the past): the review page exercises itself as a person would (the "go to" field,
/// the I and O keys, dragging the out handle into the future, the Export button) and logs
/// `REC-SELFTEST {…}` lines to the console, which the browser tests read (ReviewPageBrowserTests):
/// live frames and latency per camera, the frame number each camera shows at the playhead, the
/// outages as drawn on the timeline (read back from the canvas), the export, and an accessibility
/// check of names, focus order and contrast.
enum ReviewSelftest {
    static let source = #"""
// The test servers' network cameras draw their frame counter as 16 blocks across the top left,
// least bit first (Tests/Support/Servers/StandInPicture.swift).
function readCounter(el, cv) {
  const w = el.naturalWidth || el.videoWidth, h = el.naturalHeight || el.videoHeight, block = Math.max(8, (w / 32) & ~7);
  if (!w || w < 16 * block) return null;
  cv.width = w; cv.height = block;
  const g = cv.getContext("2d", {willReadFrequently: true}); g.drawImage(el, 0, 0, w, h, 0, 0, w, h);
  const px = g.getImageData(0, 0, w, block).data, inset = Math.max(1, block >> 2);
  let v = 0;
  for (let bit = 0; bit < 16; bit++) {
    let sum = 0, n = 0;
    for (let y = inset; y < block - inset; y++) for (let x = bit * block + inset; x < (bit + 1) * block - inset; x++) {
      const o = (y * w + x) * 4; sum += 0.299 * px[o] + 0.587 * px[o + 1] + 0.114 * px[o + 2]; n++;
    }
    if (sum > 128 * n) v |= 1 << bit;
  }
  return v;
}
// `#gridtest&cameras=N`: every tile plays live over the one grid connection; logs the frame
// numbers read from each tile and how often the grid was opened.
if (location.hash.startsWith("#gridtest")) (async () => {
  const q = new URLSearchParams(location.hash.slice(1)), want = +(q.get("cameras") || 1), seen = {};
  const log = (k, v) => console.log("REC-SELFTEST " + JSON.stringify({[k]: v}));
  const until = async (f, ms) => { const end = Date.now() + ms; while (!f() && Date.now() < end) await new Promise(r => setTimeout(r, 100)); return f(); };
  await until(() => cams.size >= want, 15000);
  for (const c of cams.values()) {
    const cv = document.createElement("canvas"), s = seen[c.name] = [];
    const grab = () => { const n = readStamp(c.video, cv); if (n !== null && s.at(-1) !== n) s.push(n); c.video.requestVideoFrameCallback(grab); };
    c.video.requestVideoFrameCallback(grab);
  }
  await until(() => Object.keys(seen).length >= want && Object.values(seen).every(s => s.length >= +(q.get("frames") || 5)), 15000);
  log("grid", {frames: seen, opened: grid.opened, cameras: grid.conn && grid.conn.key});
  log("done", true);
})();
if (location.hash.startsWith("#reviewtest")) (async () => {
  const q = new URLSearchParams(location.hash.slice(1)), log = (k, v) => console.log("REC-SELFTEST " + JSON.stringify({[k]: v}));
  const until = async (f, ms) => { const end = Date.now() + ms; while (!f() && Date.now() < end) await new Promise(r => setTimeout(r, 100)); return f(); };
  const want = +(q.get("cameras") || 1);
  await until(() => cams.size >= want && [...cams.values()].every(c => c.rec), 20000);
  // Live: frame numbers read from every tile's picture as it plays.
  const seen = {}, lat = {};
  for (const c of cams.values()) {
    seen[c.name] = []; lat[c.name] = [];
    const cv = document.createElement("canvas");
    const grab = () => {
      if (playhead !== null || c.video.hidden) return;
      const n = readStamp(c.video, cv);
      if (n !== null && seen[c.name].at(-1) !== n) {
        seen[c.name].push(n);
        if (c.rec.frame_rate) lat[c.name].push(Math.round(Date.now() + serverSkew * 1000 - (c.rec.started_at + n / c.rec.frame_rate) * 1000));
      }
      c.video.requestVideoFrameCallback(grab);
    };
    c.video.requestVideoFrameCallback(grab);
  }
  await until(() => Object.values(seen).every(s => s.length >= 10), 15000);
  log("live", {frames: seen, latencies: lat});
  // The playhead at an instant, typed into "go to" as a person would.
  const at = now() + +q.get("at");
  $("goto").value = String(at); $("goto").dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true}));
  await Promise.race([framesShown(), new Promise(r => setTimeout(r, 20000))]);
  const shown = {}, cv = $("cv"), bitmaps = {};
  // The fetched picture itself, apart from the element showing it.
  for (const c of cams.values()) if (c.blob) { const b = await createImageBitmap(c.blob); bitmaps[c.name] = readStamp(b, document.createElement("canvas")); }
  for (const c of cams.values()) shown[c.name] = {frame: c.img.naturalWidth ? readStamp(c.img, cv) : null,
    counter: c.img.naturalWidth ? readCounter(c.img, cv) : null, frameTime: c.shown && c.shown.frameTime,
    error: c.shown && c.shown.error || null, playhead, startedAt: c.rec.started_at, rate: c.rec.frame_rate, fetched: bitmaps[c.name] ?? null};
  log("playhead", shown);
  // One frame on with the Right arrow: every camera's exact frame again.
  const key = k => dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true}));
  const before = playhead; key("ArrowRight");
  await Promise.race([framesShown(), new Promise(r => setTimeout(r, 20000))]);
  const stepped = {};
  for (const c of cams.values()) stepped[c.name] = c.img.naturalWidth ? readStamp(c.img, cv) : null;
  log("step", {from: before, to: playhead, frames: stepped});
  // Outages as drawn: each gap's middle, read back from the canvas row of its camera.
  fitAll(); await refresh(true); fitAll();
  const g = tl.getContext("2d"), dpr = devicePixelRatio || 1, outages = {};
  [...cams.values()].forEach((c, i) => {
    outages[c.name] = spansOf(c).gaps.map(([a, b]) => {
      const x = Math.round(t2x((a + b) / 2) * dpr), y = Math.round((AXIS + i * ROW + 4) * dpr), px = g.getImageData(x, y, 1, 1).data;
      return {from: a, to: b, pixel: [px[0], px[1], px[2]]};
    });
  });
  log("outages", outages);
  // The export: the handles put with the I and O keys at the playhead, then the Export button.
  if (q.get("export")) {
    const t0 = now(), from = t0 + +q.get("from"), to = t0 + +q.get("to");
    play(0); seek(snap(from)); key("i");
    seek(snap(Math.min(to, now()))); key("o");
    // The out handle dragged to its place, into the future, with the pointer.
    view = [from - 5, to + 5]; follow = false; draw();
    const r0 = tl.getBoundingClientRect(), y = r0.top + AXIS + 5;
    const ev = (type, t) => tl.dispatchEvent(new PointerEvent(type, {pointerId: 7, bubbles: true, clientX: r0.left + t2x(t), clientY: y, isPrimary: true}));
    ev("pointerdown", outT); ev("pointermove", (outT + to) / 2); ev("pointermove", to); ev("pointerup", to);
    const r = await exportRange(), id = r && r.export ? r.export.id : null;
    const job = id === null ? null : (await (await fetch("/api/exports/" + id + "?wait=90")).json()).export;
    log("export", {handles: [inT, outT], request: r, job});
    // The export's saves as drawn: each camera's saves that overlap the range, their middles read
    // back from the strip under its row.
    await refresh(true); view = [from - 5, to + 5]; follow = false; draw();
    const saves = {};
    [...cams.values()].forEach((c, i) => {
      saves[c.name] = spansOf(c).saves.filter(v => v.to > from && v.from < to).map(v => {
        const x = Math.round(t2x((Math.max(v.from, view[0]) + Math.min(v.to, view[1])) / 2) * dpr), y = Math.round((AXIS + i * ROW + ROW - 6) * dpr);
        const px = g.getImageData(x, y, 1, 1).data;
        return {from: v.from, to: v.to, upload: v.upload || null, pixel: [px[0], px[1], px[2]]};
      });
    });
    log("saves", saves);
  }
  // A link to an instant: the playhead goes there, on a frame.
  const linked = now() - 3;
  history.replaceState(null, "", "/#t=" + linked.toFixed(3)); openHash();
  log("link", {asked: linked, playhead, step: frameStep()});
  // Accessibility by hand (no checker offline): every control named, no tab order but the
  // document's, text contrast of at least 4.5:1.
  const lum = c => { const v = c.match(/\d+(\.\d+)?/g).slice(0, 3).map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const bg = el => { for (let e = el; e; e = e.parentElement) { const b = getComputedStyle(e).backgroundColor; if (!/rgba\(.*, 0\)/.test(b) && b !== "transparent") return b; } return "rgb(255,255,255)"; };
  const unnamed = [], low = [];
  for (const el of document.querySelectorAll("button, input, canvas[tabindex], video, img, output")) {
    if (el.hidden || el.closest("[hidden]")) continue;
    const name = el.getAttribute("aria-label") || el.alt || (el.id && document.querySelector("label[for=" + el.id + "]")?.textContent) || el.closest("label")?.textContent || el.textContent;
    if (!name || !name.trim()) unnamed.push(el.outerHTML.slice(0, 80));
  }
  for (const el of document.querySelectorAll("button, label, figcaption span, b, h1, #msg, li, output")) {
    if (!el.textContent.trim() || el.offsetParent === null) continue;
    const a = lum(getComputedStyle(el).color), b = lum(bg(el)), ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) low.push({el: el.outerHTML.slice(0, 60), ratio: +ratio.toFixed(2)});
  }
  const positive = [...document.querySelectorAll("[tabindex]")].filter(e => +e.getAttribute("tabindex") > 0).length;
  log("a11y", {unnamed, lowContrast: low, positiveTabindex: positive});
  log("done", true);
})();
"""#
}
