/// The review page's grid connection (docs/REVIEW.md): every live tile's stream over one
/// `GET /api/grid?cams=…`, since a browser opens at most 6 connections to one server and each live
/// stream would hold one. `gridFetch(url, init)` stands in for `fetch` in the shared live player
/// (its `hooks.fetch`) for `/cam/NAME/live.mp4`: it resolves at that camera's next start record
/// with a `Response` whose body is the camera's bytes, closed at its end record (the player then
/// connects again; a player that asks again while its stream runs failed, and the grid is opened
/// again for a new start). The grid asks for the cameras whose players are waiting or reading; when that
/// set changes it is opened again (after 200 ms, so that tiles starting together share one), and
/// when it ends or fails, after a back-off of 0.5 s doubling to 8 s.
enum ReviewGridScript {
    static let source = #"""
const grid = {want: new Set(), conn: null, ready: new Map(), waiters: new Map(), timer: null, backOff: 500, opened: 0};
function gridFetch(url, init) {
  const name = decodeURIComponent(url.split("/")[2]), signal = init && init.signal;
  return new Promise((resolve, reject) => {
    const aborted = () => new DOMException("the player stopped", "AbortError");
    if (signal && signal.aborted) { reject(aborted()); return; }
    // A player asking again while its stream still runs left it unread (it failed): only a new
    // start brings an init segment, so the grid is opened again.
    if (grid.conn && grid.conn.handed.has(name)) { grid.conn.abort.abort(); grid.conn = null; }
    const ready = grid.ready.get(name);
    if (ready) { grid.ready.delete(name); ready.conn.handed.add(name); resolve(ready.response); } else grid.waiters.set(name, resolve);
    grid.want.add(name); gridSync();
    if (signal) signal.addEventListener("abort", () => {
      if (grid.waiters.get(name) === resolve) grid.waiters.delete(name);
      const c = grid.conn, ctl = c && c.streams.get(name);
      if (ctl) { try { ctl.error(aborted()); } catch (e) {} c.streams.delete(name); c.handed.delete(name); }
      grid.want.delete(name); gridSync(); reject(aborted());
    }, {once: true});
  });
}
// Opens the grid again when the cameras wanted are not those it carries.
function gridSync(delay = 200) {
  const key = [...grid.want].sort().join(",");
  if (grid.timer || (grid.conn && grid.conn.key === key)) return;
  grid.timer = setTimeout(() => {
    grid.timer = null;
    if (grid.conn) grid.conn.abort.abort();
    grid.conn = null;
    if (grid.want.size) gridConnect();
  }, delay);
}
async function gridConnect() {
  const names = [...grid.want].sort(), c = {key: names.join(","), abort: new AbortController(), streams: new Map(), handed: new Set(), names: []};
  grid.conn = c; grid.opened++;
  let flowed = false;
  // The cameras' streams; `streams` holds each open one's controller by name.
  const begin = (name, mime) => {
    const old = c.streams.get(name); c.handed.delete(name); if (old) try { old.close(); } catch (e) {}
    let ctl; const body = new ReadableStream({start(k) { ctl = k; }, cancel() { if (c.streams.get(name) === ctl) c.streams.delete(name); }});
    c.streams.set(name, ctl);
    const response = new Response(body, {headers: {"Content-Type": mime}}), waiter = grid.waiters.get(name);
    if (waiter) { grid.waiters.delete(name); c.handed.add(name); waiter(response); } else grid.ready.set(name, {conn: c, response});
  };
  const finish = name => { const ctl = c.streams.get(name); c.streams.delete(name); c.handed.delete(name); if (ctl) try { ctl.close(); } catch (e) {} };
  try {
    const r = await fetch("/api/grid?cams=" + names.map(encodeURIComponent).join(","), {signal: c.abort.signal});
    if (!r.ok) throw new Error("grid: " + r.status);
    const reader = r.body.getReader(), text = new TextDecoder();
    let buf = new Uint8Array(0);
    for (;;) {
      const {value, done} = await reader.read();
      if (done) break;
      if (buf.length) { const all = new Uint8Array(buf.length + value.length); all.set(buf); all.set(value, buf.length); buf = all; } else buf = value;
      let at = 0;
      // A record: kind (u8), camera (u16), length (u32), big-endian, then its payload.
      while (buf.length - at >= 7) {
        const v = new DataView(buf.buffer, buf.byteOffset + at, 7), kind = v.getUint8(0), cam = v.getUint16(1), n = v.getUint32(3);
        if (buf.length - at - 7 < n) break;
        const payload = buf.subarray(at + 7, at + 7 + n), name = c.names[cam];
        at += 7 + n;
        if (kind === 0) c.names = JSON.parse(text.decode(payload));
        else if (kind === 1) begin(name, text.decode(payload));
        else if (kind === 2) { const ctl = c.streams.get(name); if (ctl) ctl.enqueue(payload); flowed = true; }
        else if (kind === 3) finish(name);
      }
      buf = buf.subarray(at);
    }
  } catch (e) {}
  for (const name of [...c.streams.keys()]) finish(name);
  for (const [name, r] of [...grid.ready]) if (r.conn === c) grid.ready.delete(name);
  if (grid.conn !== c) return;  // replaced by a grid of other cameras
  grid.conn = null;
  grid.backOff = flowed ? 500 : Math.min(8000, grid.backOff * 2);
  gridSync(grid.backOff);
}
"""#
}
