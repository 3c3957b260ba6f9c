import Foundation
import Testing
import TestServers
import TestPool

/// A PipeWire producer that behaves as a compositor does: frames while something changes, none
/// while the screen is static. GStreamer's `videotestsrc` feeds `pipewiresink` through a valve,
/// from a small Python program that a signal moves to its next part; `rec start --source
/// pipewire:NODE` records it in a session, so the script can wait on what the session recorded.
///
/// (A size change is not tested: `pipewiresink` renegotiates nothing once its stream is
/// connected — new caps only resize the buffers it sends in the first format, which rec counts
/// as lost — and no other producer here can change size.)
@Suite(.blocking, .serialized) struct PipeWirePacingTests {
    /// Red 320x240 frames at 30 a second; SIGUSR1 closes the valve (the screen is static);
    /// SIGUSR2 opens it on lime frames (the screen changed).
    static let producer = #"""
        import signal, sys
        import gi
        gi.require_version("Gst", "1.0")
        from gi.repository import GLib, Gst

        Gst.init(None)
        pipeline = Gst.parse_launch("videotestsrc name=src pattern=solid-color foreground-color=0xffff0000 is-live=true "
                                    "! video/x-raw,format=BGRx,width=320,height=240,framerate=30/1 ! valve name=valve "
                                    f"! pipewiresink mode=provide stream-properties=\"p,media.class=Video/Source,node.name={sys.argv[1]}\"")
        valve = pipeline.get_by_name("valve")

        def static():
            valve.set_property("drop", True)
            return True

        def changed():
            pipeline.get_by_name("src").set_property("foreground-color", 0xff00ff00)
            valve.set_property("drop", False)
            return True

        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, static)
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR2, changed)
        pipeline.set_state(Gst.State.PLAYING)
        GLib.MainLoop().run()
        """#

    /// While the producer sends nothing, the newest frame is recorded again once a second, so the
    /// recording has no gap over a second; when frames come again they are recorded at their own
    /// times, after the repeats.
    @Test func aStaticProducerIsRepeated() throws {
        let session = try PipeWireTestSession()
        try Self.producer.write(toFile: session.folder + "/producer.py", atomically: true, encoding: .utf8)
        let rec = "'" + (try RemoteBox.prefix()) + "/bin/rec'"
        // A figure of `rec status --json` plus `add`, in the shell: "frames" is a number, "ring_end" one of its extras.
        let field = { (name: String, add: String) in
            "$(\(rec) status --json | python3 -c 'import json, sys; s = json.load(sys.stdin); n = \"\(name)\"; print((s[n] if n in s else float(s[\"extra\"][n])) + \(add))')"
        }
        let script = """
            python3 producer.py rectest 2>producer.log & prod=$!; pids="$pids $prod"
            rm -f dump.fifo; mkfifo dump.fifo; timeout 30 pw-dump --monitor >dump.fifo & dump=$!
            grep -m1 -q '"node.name": "rectest"' <dump.fifo; kill $dump 2>/dev/null
            \(rec) start --source pipewire:rectest -o out.mp4 || exit 1
            \(rec) status --wait-frames 10 --timeout 30s >/dev/null || exit 2
            kill -USR1 $prod
            \(rec) status --wait-until \(field("ring_end", "3.5"))s --timeout 30s >/dev/null || exit 3
            kill -USR2 $prod
            \(rec) status --wait-frames \(field("frames", "15")) --timeout 30s >/dev/null || exit 4
            \(rec) status; \(rec) stop
            """
        let result = try session.run(script)
        try #require(result.status == 0, "\(result.output)")

        let recording = try ScreenFrames(session.folder + "/out.mp4")
        let red = ScreenFrames.Colour.red, lime = ScreenFrames.Colour.lime
        let times = recording.frames.map(\.time)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        // The static span: repeats a second apart (3.5 s of it, so at least three), and no gap
        // anywhere longer than a repeat's; times rise throughout.
        #expect(gaps.count { abs($0 - 1) < 0.05 } >= 3, "gaps \(gaps)")
        #expect(gaps.allSatisfy { $0 > 0 && $0 <= 1.05 }, "gaps \(gaps)")
        let firstLime = try #require(recording.frames.firstIndex { $0.shows(lime, at: 160, 120) }, "no lime frame")
        #expect(recording.frames[..<firstLime].allSatisfy { $0.shows(red, at: 160, 120) })
        #expect(recording.frames[firstLime...].allSatisfy { $0.shows(lime, at: 160, 120) })
        let after = gaps[firstLime...].sorted()
        #expect(after.count >= 10 && abs(after[after.count / 2] - 1.0 / 30) < 0.005, "gaps after the change \(after)")
        // Keyframes by time: at most a second apart, or two when the last frame before the
        // static span came just before one was due (the next is the repeat a second after it).
        let keys = recording.frames.filter(\.key).map(\.time)
        #expect(keys.first == 0 && zip(keys.dropFirst(), keys).allSatisfy { $0 - $1 < 2.05 }, "keyframes at \(keys)")
    }
}
