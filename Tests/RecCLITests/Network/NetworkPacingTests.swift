import Capture
import Foundation
import Media
import RecCore
import Testing
import TestServers

/// Issue 21's CPU: a copied camera over TCP is read in bursts (`ReadPacing`), against GStreamer's
/// RTSP server on loopback. Once the timeline has settled (10 s) the reader sleeps when caught
/// up, and every packet still comes, once, in order, a frame apart; over UDP, whose packets a
/// full socket buffer would drop, it never sleeps.
@Suite struct NetworkPacingTests {
    /// Reads `count` pictures of the camera at `url`, copied; returns their presentation times
    /// (in the stream's time base, one frame = 3000) and how often the reader slept.
    static func read(_ url: String, count: Int) throws -> (times: [Int64], naps: Int) {
        let source = NetworkSource(url: try NetworkURL.parse(url), settings: .init(copies: true, keepsSound: true))
        try source.start()
        defer { source.stop() }
        var times: [Int64] = []
        var sound: [EncodedPacket] = []
        while times.count < count, let packet = try source.nextPacket() {
            times.append(packet.presentationTime.rescaled(to: Rational(1, 90_000)).value)
            source.takeSound(into: &sound)
            sound.removeAll(keepingCapacity: true)
        }
        return (times, source.naps)
    }

    @Test func aCameraOverTCPIsReadInBurstsWithEveryFrame() throws {
        let server = try RTSPTestServer()
        let (times, naps) = try Self.read(server.url(.h264), count: 420)
        #expect(naps > 0, "the reader never slept in the 4 s after the timeline settled")
        #expect(times.count == 420)
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(steps.allSatisfy { abs($0 - 3000) <= 2 }, "steps between pictures: \(Set(steps).sorted())")
    }

    @Test func aCameraOverUDPIsReadAsItComes() throws {
        let server = try RTSPTestServer()
        let (times, naps) = try Self.read(server.url(.h264) + "?transport=udp", count: 60)
        #expect(naps == 0)
        #expect(times.count == 60)
    }
}
