import Foundation
import Testing
import TestServers
import TestPool

/// Issue 43: a PipeWire screen whose size changes mid-recording (a compositor's monitor resized)
/// is scaled to the session's size, as on X11, with no torn picture. Mutter 43 ends a monitor's
/// screen cast when the monitor changes (docs/WAYLAND.md) and GStreamer's pipewiresink never
/// renegotiates, so the producer is the tests' own (Tests/Support/wayland/resizing-producer.c,
/// built with cc against libpipewire): 320x240 blue for 45 frames, then it offers only 640x360
/// and sends red; the link renegotiates, and rec's stream gets the new format mid-recording.
@Suite(.blocking, .serialized) struct PipeWireResizeTests {
    @Test func aNewSizeMidStreamIsScaledToTheSessionsSize() throws {
        let session = try PipeWireTestSession()
        let rec = try RemoteBox.prefix() + "/bin/rec"
        let source = PipeWireTestSession.waylandSupport + "/resizing-producer.c"
        let result = try session.run("""
            cc -O2 -o resizer '\(source)' $(pkg-config --cflags --libs libpipewire-0.3) || exit 1
            ./resizer rectest-resize 320x240 640x360 45 >producer.out 2>producer.log & pids="$pids $!"
            rm -f dump.fifo; mkfifo dump.fifo; timeout 30 pw-dump --monitor >dump.fifo & dump=$!
            grep -m1 -q '"node.name": "rectest-resize"' <dump.fifo; kill $dump 2>/dev/null
            '\(rec)' record --source pipewire:rectest-resize --frames 90 -o resized.mkv 2>&1; echo "exit=$?"
            cat producer.out
            """)
        #expect(result.output.contains("exit=0") && result.output.contains("resized 640x360"), Comment(rawValue: result.output))
        let frames = try ScreenFrames(session.folder + "/resized.mkv")
        #expect(frames.width == 320 && frames.height == 240 && frames.frames.count == 90, "\(frames.width)x\(frames.height), \(frames.frames.count)")
        // Every picture is wholly one colour, corners and centre (a torn or half-scaled picture
        // would mix them or leave an edge): blue first, red after the change, and no blue again.
        let points = [(2, 2), (317, 2), (160, 120), (2, 237), (317, 237)]
        let colours: [String] = frames.frames.map { f in
            if points.allSatisfy({ f.shows(.blue, at: $0.0, $0.1) }) { return "blue" }
            if points.allSatisfy({ f.shows(.red, at: $0.0, $0.1) }) { return "red" }
            return "mixed \(points.map { f.rgb($0.0, $0.1) })"
        }
        #expect(colours.allSatisfy { $0 == "blue" || $0 == "red" }, "\(colours.filter { $0.hasPrefix("mixed") }.prefix(3))")
        let firstRed = try #require(colours.firstIndex(of: "red"), "no red picture: \(colours)")
        #expect(firstRed >= 30 && !colours[firstRed...].contains("blue"), "\(colours)")
    }
}
