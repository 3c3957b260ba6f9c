import Foundation
import Testing
import TestServers
import TestPool

/// `--source wayland` against the real portal stack: headless sway, PipeWire, WirePlumber,
/// xdg-desktop-portal and xdg-desktop-portal-wlr, as an ordinary user. On these machines the
/// portal's Start cannot succeed (xdg-desktop-portal-wlr 0.7 needs a DMA-BUF format, which sway's
/// pixman renderer never offers without a GPU; docs/WAYLAND.md), so what is tested is that rec
/// gets through CreateSession and SelectSources and reports Start's refusal clearly, exit 1.
/// When a machine with a render node runs this, Start succeeds and the test says so: it then
/// needs the frames checked instead.
@Suite(.blocking, .serialized) struct ScreenCastPortalTests {
    @Test func theRefusedStartIsAClearErrorAfterTheSessionAndSourcesWereAccepted() throws {
        let session = try PipeWireTestSession()
        let rec = try RemoteBox.prefix() + "/bin/rec"
        let result = try session.run("'\(rec)' record --source wayland --frames 10 -o screen.mp4; echo \"exit=$?\"", desktop: .sway)
        // Start is the third request: a refusal of CreateSession or SelectSources names those.
        #expect(result.output.contains("rec: the screen-cast portal refused Start (response 2)"), "\(result.output)")
        #expect(result.output.contains("see docs/WAYLAND.md"), "\(result.output)")
        #expect(result.output.contains("exit=1"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: session.folder + "/screen.mp4"))
    }
}
