extension LivePage {
    /// The page's ways to exercise itself, chosen by the URL's hash; each logs `REC-SELFTEST {…}`
    /// lines to the console, which the browser tests (LivePageBrowserTests) and bench/live.sh read.
    ///
    /// - `#selftest`: live frames and their latency, the sound, a clip played and saved from the timeline.
    /// - `#motiontest`: the motion drawn on the timeline, as the canvas holds it.
    /// - `#stalltest`: the page's JavaScript stops for 3 s, as a frozen or background tab's does (nothing
    ///   read, nothing appended, the picture stands still); then the frames shown once the player is back.
    /// - `#watch`: every 5 s, the capture-to-display latency of the last minute's frames.
    static let selftest = #"""
const log = (k, v) => console.log("REC-SELFTEST " + JSON.stringify({[k]: v}));
const delay = ms => new Promise(r => setTimeout(r, ms));
if (location.hash === "#selftest") (async () => {
  if (framesShown < 60) await new Promise(r => { framesSeen = r; setTimeout(r, 10000); });
  const s = player.stats();
  log("live", {frames: s.frames.slice(-200), latencies: s.latencies.slice(-200).map(Math.round), sound: info && info.sound,
    behindMs: s.behindMs, jumps: s.jumps, audioBytes: live.webkitAudioDecodedByteCount ?? null, hasAudio: live.mozHasAudio ?? null});
  await refresh();
  const a = Math.ceil((span[0] + 0.2) * 10) / 10, b = a + 1;
  $("from").value = a; $("to").value = b;
  const clip = playRange(), seen = [];
  const grab = () => { const n = readStamp(clip, $("cv")); if (n !== null && seen[seen.length - 1] !== n) seen.push(n); if (!clip.ended) clip.requestVideoFrameCallback(grab); };
  clip.requestVideoFrameCallback(grab);
  // A quarter speed, so that a busy machine's browser still presents most frames.
  clip.playbackRate = 0.25;
  if (!clip.ended) await new Promise(r => { clip.addEventListener("ended", r, {once: true}); setTimeout(r, 30000); });
  const last = readStamp(clip, $("cv")); if (last !== null && seen[seen.length - 1] !== last) seen.push(last);
  log("clip", {from: a, to: b, frames: seen, error: clip.error ? clip.error.message : null});
  log("save", await saveRange());
  log("done", true);
})();
if (location.hash === "#motiontest") (async () => {
  await refresh();
  const cv = $("motion"), g = cv.getContext("2d"), w = cv.width;
  // The columns with the events' red mark painted, read back from the canvas.
  const marks = [];
  for (let x = 0; x < w; x++) { const p = g.getImageData(x, 30, 1, 1).data; if (p[0] > 200 && p[1] < 120) marks.push(x); }
  log("motion", {events: +cv.dataset.events, levels: +cv.dataset.levels, marks, width: w, span});
  log("done", true);
})();
if (location.hash === "#stalltest") (async () => {
  if (framesShown < 60) await new Promise(r => { framesSeen = r; setTimeout(r, 20000); });
  const before = player.stats(), from = Date.now();
  while (Date.now() - from < 3000) { /* the tab is frozen */ }
  // Back: the frames shown from 0.5 s to 2.5 s after it (a player that played on from where it
  // stood would still be 2-3 s behind then).
  await delay(500);
  const shown = player.stats().frames.length;
  await delay(2000);
  const after = player.stats();
  log("stall", {before: before.latencies.slice(-30).map(Math.round), jumps: after.jumps - before.jumps,
    frames: after.frames.slice(shown), latencies: after.latencies.slice(shown).map(Math.round), behindMs: after.behindMs});
  log("done", true);
})();
if (location.hash === "#watch") {
  const shown = [];
  frameShown = lat => shown.push([Date.now(), lat]);
  setInterval(() => {
    const now = Date.now(), minute = shown.filter(f => f[0] > now - 60000).map(f => f[1]).sort((a, b) => a - b);
    while (shown.length && shown[0][0] <= now - 60000) shown.shift();
    const s = player.stats();
    log("watch", {frames: minute.length, medianMs: Math.round(minute[minute.length >> 1] ?? -1), maxMs: Math.round(minute[minute.length - 1] ?? -1),
      behindMs: s.behindMs, jumps: s.jumps, reconnects: s.reconnects});
  }, 5000);
}
"""#
}
