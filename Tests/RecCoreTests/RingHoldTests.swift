import Testing
@testable import RecCore

/// Issue 39: `save --last 8s` of a session with `--buffer 8s` found its start half a frame
/// before the ring's first picture, or the ring let that picture go while the save waited for its
/// sound, and the save went to the recording file ("has not reached 0:19.983 yet") or, with no
/// file, came out short. The ring serves a start in the gap after the last picture it let go, and
/// a save under way holds its start.
@Suite struct RingHoldTests {
    static let tb = RingStateTests.tb
    static func t(_ ticks: Int64) -> Timestamp { RingStateTests.t(ticks) }
    static func us(_ t: Timestamp) -> Int64 { t.rescaled(to: .microseconds).value }

    /// Every picture a keyframe (MJPEG): the duration cap lets one go with each one added.
    static func intraOnly(_ frames: Int) -> [EncodedPacket] {
        RingStateTests.ipp(gops: frames, length: 1).packets
    }

    @Test func aStartAfterTheLastPictureLetGoIsServedFromTheFirstHeld() throws {
        var ring = RingState(limits: RingLimits(maxDuration: .microseconds(8_000_000), maxBytes: .max))
        for packet in Self.intraOnly(600) { ring.append(packet) }
        let start = try #require(ring.stats.start), end = try #require(ring.stats.end)
        #expect(ring.stats.span == .microseconds(8_000_000))
        // `--last 8s` ends in the middle of the newest picture and starts 8 s before that: in
        // the middle of the picture before the first held, which a cut does not take.
        let from = Timestamp.microseconds(Self.us(end) - 16_667 - 8_000_000)
        #expect(from < start)
        #expect(try #require(ring.stats.servesFrom) <= from)
        let pictures = try ring.snapshot(from: from, to: Timestamp.microseconds(Self.us(end) - 16_667))
        #expect(pictures.count == 240 && pictures.first?.presentationTime == start)
        // A start at the picture let go is not served.
        #expect(throws: RecError.self) { try ring.snapshot(from: Self.t(359), to: end) }
    }

    @Test func aHoldKeepsASavesStartUntilReleased() throws {
        var ring = RingState(limits: RingLimits(maxDuration: .microseconds(2_000_000), maxBytes: .max))
        let packets = Self.intraOnly(200)
        for packet in packets[..<90] { ring.append(packet) }
        let start = try #require(ring.stats.start)
        let hold = ring.hold(from: start)
        for packet in packets[90..<120] { ring.append(packet) }
        #expect(ring.stats.start == start && ring.stats.span == .microseconds(3_000_000))
        ring.release(hold)
        ring.append(packets[120])
        #expect(ring.stats.span == .microseconds(2_000_000))
    }

    @Test func aHoldLetsGoWhatLiesBeforeIt() throws {
        // A range starting mid-ring holds from there: the GOPs before it still go.
        var ring = RingState(limits: RingLimits(maxDuration: .microseconds(2_000_000), maxBytes: .max))
        let packets = RingStateTests.ipp(gops: 10, length: 15).packets
        for packet in packets[..<75] { ring.append(packet) }
        let hold = ring.hold(from: Self.t(45))
        for packet in packets[75...] { ring.append(packet) }
        #expect(ring.stats.start == Self.t(45))
        ring.release(hold)
    }

    @Test func theByteCapIsKeptUnderAHold() throws {
        var ring = RingState(limits: RingLimits(maxDuration: .microseconds(2_000_000), maxBytes: 5_000))
        let packets = Self.intraOnly(100)
        for packet in packets[..<3] { ring.append(packet) }
        _ = ring.hold(from: try #require(ring.stats.start))
        for packet in packets[3...] { ring.append(packet) }
        #expect(ring.stats.bytes <= 5_000)
    }

    @Test func aRingThatLetNothingGoServesFromItsFirstPicture() throws {
        var ring = RingState()
        for packet in Self.intraOnly(10) { ring.append(packet) }
        #expect(ring.stats.servesFrom == ring.stats.start)
    }
}
