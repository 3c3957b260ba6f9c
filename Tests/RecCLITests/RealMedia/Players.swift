import Foundation

/// What real players present for a clip, as frame signatures: ffmpeg (the reference decode),
/// mpv 0.35 and GStreamer 1.22's playbin with their default settings, and headless Chromium's
/// and Firefox's `<video>` after seeking.
enum Players {
    /// Every frame ffmpeg decodes (it honours edit lists).
    static func ffmpeg(_ path: String, width: Int, height: Int) throws -> [Signature] {
        let out = try Tool.run("ffmpeg", ["-v", "error", "-i", path, "-an", "-sn", "-dn", "-vf", "format=gray",
                                          "-f", "rawvideo", "-"])
        return Signature.frames(out.stdout, width: width, height: height)
    }

    /// Every frame mpv presents with no configuration (`--no-config`), written out by `--vo=image`;
    /// from `start` for `frames` frames when given. Also returns mpv's log, for decode errors.
    static func mpv(_ path: String, width: Int, height: Int, start: Double? = nil,
                    frames: Int? = nil) throws -> (frames: [Signature], log: String) {
        let dir = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var arguments = ["--no-config", "--untimed", "--ao=null", "--vo=image", "--vo-image-format=png",
                         "--vo-image-outdir=\(dir)", "--msg-level=all=warn"]
        if let start { arguments.append("--start=\(start)") }
        if let frames { arguments.append("--frames=\(frames)") }
        let run = try Tool.run("mpv", arguments + [path])
        let count = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".png") }.count
        guard count > 0 else { return ([], run.stderr) }
        // mpv writes frames at their display aspect: back to the coded size.
        let out = try Tool.run("ffmpeg", ["-v", "error", "-i", "\(dir)/%08d.png", "-vf", "scale=\(width):\(height),format=gray",
                                          "-f", "rawvideo", "-"])
        return (Signature.frames(out.stdout, width: width, height: height), run.stderr)
    }

    /// Every frame GStreamer's playbin presents, as fast as it decodes (`sync=false`).
    static func gstreamer(_ path: String, width: Int, height: Int) throws -> [Signature] {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("rec-gst-\(UUID()).raw").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        try Tool.run("gst-launch-1.0", ["-q", "playbin", "uri=file://\(path)", "audio-sink=fakesink", "text-sink=fakesink",
                                        "video-sink=videoconvert ! video/x-raw,format=GRAY8 ! filesink location=\(raw) sync=false"])
        let data = (try? Data(contentsOf: URL(fileURLWithPath: raw))) ?? Data()
        return Signature.frames(data, width: width, height: height)
    }

    struct Browser {
        var duration: Double
        var frames: [Signature]
        /// For each time, the luma of the picture's top `rows` rows at its full width (when asked).
        var top: [[UInt8]] = []
    }

    /// Headless Chromium: loads the clip in a `<video>`, seeks to each of `times` and draws the
    /// frame shown to a canvas; the page logs the results (`REC-RESULT {…}`), read as it happens
    /// (`BrowserConsole`), up to a minute of real time.
    static func chromium(_ path: String, times: [Double]) throws -> Browser {
        try play(path, in: .chromium, times: times)
    }

    /// Chromium as `chromium(_:times:)`, also giving each shown picture's top `rows` rows (where
    /// the stand-in cameras draw their frame counter, `StandInPicture`).
    static func chromium(_ path: String, times: [Double], topRows rows: Int) throws -> Browser {
        try play(path, in: .chromium, times: times, rows: rows)
    }

    /// Headless Firefox (ESR 153 here) on the same page, with a fresh profile that prints the
    /// page's console and lets the file:// page read the pixels of the video beside it (each
    /// file is an origin of its own otherwise, and the canvas would be tainted).
    static func firefox(_ path: String, times: [Double]) throws -> Browser {
        try play(path, in: .firefox, times: times)
    }

    private static func play(_ path: String, in kind: LivePageBrowserTests.Browser, times: [Double], rows: Int = 0) throws -> Browser {
        let dir = (path as NSString).deletingLastPathComponent
        let page = "\(dir)/player-\(UUID()).html"
        try playerPage.write(toFile: page, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: page) }
        let query = "src=\((path as NSString).lastPathComponent)&t=[\(times.map { String($0) }.joined(separator: ","))]&rows=\(rows)"
        guard let executable = kind.executable else { throw Tool.Failure("\(kind) is not installed; scripts/setup.sh installs it") }
        let profile = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let url = "file://\(page)?\(query)"
        let arguments = switch kind {
        case .chromium:
            ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
             "--allow-file-access-from-files", "--user-data-dir=\(profile)", "--enable-logging=stderr", "--v=0", url]
        case .firefox:
            try kind.arguments(url, profile: profile, prefs: ["security.fileuri.strict_origin_policy": "false"])
        }
        let run = try BrowserConsole.run(executable, arguments, marker: "REC-RESULT ") { _ in true }
        guard let json = run.records.first, let duration = json["duration"] as? Double, let frames = json["frames"] as? [[Double]] else {
            let answer = run.records.first.map { "\($0)".prefix(300) } ?? "no answer; it printed: \(run.tail.suffix(600))"
            throw Tool.Failure("\(kind) could not play \(path): \(answer)")
        }
        let top = (json["top"] as? [[Double]] ?? []).map { $0.map { UInt8(clamping: Int($0.rounded())) } }
        return Browser(duration: duration, frames: frames.map { Signature(raw: $0) }, top: top)
    }

    static let playerPage = """
        <!doctype html><html><body><video id="v" muted preload="auto"></video><pre id="out">pending</pre>
        <script>
        const q = new URLSearchParams(location.search), times = JSON.parse(q.get('t')), rows = Number(q.get('rows') || 0);
        const v = document.getElementById('v'), out = document.getElementById('out'), c = document.createElement('canvas');
        function cells() {
          const w = v.videoWidth, h = v.videoHeight; c.width = w; c.height = h;
          const g = c.getContext('2d'); g.drawImage(v, 0, 0, w, h);
          const d = g.getImageData(0, 0, w, h).data, s = [], bw = Math.floor(w / 32), bh = Math.floor(h / 24);
          for (let y = 0; y < 24; y++) for (let x = 0; x < 32; x++) {
            let sum = 0;
            for (let j = 0; j < bh; j++) for (let i = 0; i < bw; i++) {
              const o = ((y * bh + j) * w + x * bw + i) * 4; sum += 0.299 * d[o] + 0.587 * d[o + 1] + 0.114 * d[o + 2];
            }
            s.push(Math.round(sum / (bw * bh) * 100) / 100);
          }
          const top = [];
          for (let o = 0; o < rows * w * 4; o += 4) top.push(Math.round(0.299 * d[o] + 0.587 * d[o + 1] + 0.114 * d[o + 2]));
          return [s, top];
        }
        function seek(t) { return new Promise(r => { v.onseeked = () => r(); v.currentTime = t; }); }
        // 'seeked' can come before the frame sought is on screen (a loaded machine drew the old
        // one): wait until a new frame is shown, or 1 s when the seek stayed on the frame shown.
        function shown() {
          return new Promise(r => {
            let done = false; const end = () => { if (!done) { done = true; r(); } };
            if (v.requestVideoFrameCallback) v.requestVideoFrameCallback(end); else end();
            setTimeout(end, 1000);
          });
        }
        function report(res) { out.textContent = JSON.stringify(res); console.log('REC-RESULT ' + JSON.stringify(res)); }
        v.onerror = () => { report({ error: v.error ? v.error.code + ' ' + v.error.message : 'unknown' }); };
        v.onloadeddata = async () => {
          // A video track the browser cannot decode (H.265 without a platform decoder) is left
          // out and the sound played alone.
          if (!v.videoWidth) { report({ error: 'no-video: the browser shows no picture' }); return; }
          const res = { duration: v.duration, frames: [], top: [] };
          for (const t of times) {
            const wait = shown(); await seek(t); await wait;
            const [s, top] = cells(); res.frames.push(s); if (rows) res.top.push(top);
          }
          report(res);
        };
        v.src = q.get('src');
        </script></body></html>
        """
}
