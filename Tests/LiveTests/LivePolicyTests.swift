import RecCore
import Testing
import TestPool

@Suite(.blocking) struct LivePolicyTests {
    func packet(_ n: Int, key: Bool, size: Int = 10) -> EncodedPacket {
        EncodedPacket(data: Array(repeating: 0, count: size), pts: Int64(n), dts: Int64(n), duration: 1,
                      timeBase: Rational(1, 30), isKeyframe: key)
    }

    @Test func aViewerStartsAtAKeyframe() {
        var q = FragmentQueue(maxFragments: 10)
        #expect(q.push([1], keyframe: false) == .waiting)
        #expect(q.push([2], keyframe: true) == .queued)
        #expect(q.push([3], keyframe: false) == .queued)
        #expect(q.drain() == [2, 3])
        #expect(q.drain() == [])
    }

    @Test func aFullQueueSkipsToTheNextKeyframe() {
        var q = FragmentQueue(maxFragments: 3, maxSkips: 5)
        _ = q.push([0], keyframe: true)
        _ = q.push([1], keyframe: false)
        _ = q.push([2], keyframe: false)
        #expect(q.push([3], keyframe: false) == .skipped)
        #expect(q.push([4], keyframe: false) == .waiting)
        #expect(q.push([5], keyframe: true) == .queued)
        #expect(q.drain() == [5])
        #expect(q.skips == 1)
    }

    @Test func aViewerThatNeverReadsIsClosed() {
        var q = FragmentQueue(maxFragments: 1, maxSkips: 2)
        var outcomes: [FragmentQueue.Outcome] = []
        for i in 0..<8 { outcomes.append(q.push([UInt8(i)], keyframe: true)) }
        #expect(outcomes.last == .closed)
        #expect(q.closed)
    }

    @Test func theByteCapCountsToo() {
        var q = FragmentQueue(maxFragments: 100, maxBytes: 4)
        _ = q.push([1, 2, 3], keyframe: true)
        #expect(q.push([4, 5], keyframe: false) == .skipped)
    }

    @Test func theInboxNeverGrowsPastItsLimitAndResumesAtAKeyframe() {
        var inbox = PacketInbox(limit: 3)
        let o1 = inbox.offer(packet(0, key: false))
        #expect(!o1)
        let o2 = inbox.offer(packet(1, key: true))
        #expect(o2)
        let o3 = inbox.offer(packet(2, key: false))
        #expect(o3)
        let o4 = inbox.offer(packet(3, key: false))
        #expect(o4)
        let o5 = inbox.offer(packet(4, key: false))
        #expect(!o5)
        #expect(inbox.packets.isEmpty && inbox.waitingForKeyframe)
        let o6 = inbox.offer(packet(5, key: false))
        #expect(!o6)
        let o7 = inbox.offer(packet(6, key: true))
        #expect(o7)
        let taken = inbox.take()
        #expect(taken.map(\.pts) == [6])
        #expect(inbox.dropped == 4)
    }

    /// Sound packets are all keyframes to their codec; only a picture keyframe starts a GOP.
    @Test func soundNeverStartsTheInboxOrAnOverflow() {
        var inbox = PacketInbox(limit: 3)
        var sound = packet(0, key: true)
        sound.stream = .sound(0)
        var outcomes = [inbox.offer(sound)]
        #expect(inbox.waitingForKeyframe)
        outcomes += [inbox.offer(packet(1, key: true)), inbox.offer(sound), inbox.offer(sound)]
        outcomes.append(inbox.offer(sound))  // full: restarts at a picture keyframe, not at sound
        #expect(inbox.packets.isEmpty && inbox.waitingForKeyframe)
        outcomes += [inbox.offer(sound), inbox.offer(packet(2, key: true)), inbox.offer(sound)]
        #expect(outcomes == [false, true, true, true, false, false, true, true])
        #expect(inbox.take().map(\.stream) == [.video, .sound(0)])
    }

    /// A stream that starts at a keyframe takes its first sound from the backlog: the sound that
    /// plays from the keyframe on, which went by before the picture did.
    @Test func aStreamStartsAtAKeyframeWithTheSoundThatPlaysFromIt() {
        func sound(_ n: Int) -> EncodedPacket {
            var p = packet(n, key: true)
            p.stream = .sound(0)
            return p
        }
        var backlog = SoundBacklog(seconds: 2)
        #expect(backlog.start(with: [sound(0), sound(1), packet(1, key: false)]) == nil)
        let started = backlog.start(with: [sound(40), sound(41), packet(30, key: true), sound(42), packet(31, key: false)])
        #expect(started?.map { [$0.stream.isSound ? 1 : 0, Int($0.pts)] } == [[0, 30], [1, 40], [1, 41], [1, 42], [0, 31]])
        // Sound older than 2 s before the newest is let go; pictures are never kept.
        backlog.add(sound(100))
        #expect(backlog.packets.map(\.pts) == [40, 41, 42, 100])
        #expect(backlog.from(Timestamp(value: 42, timeBase: Rational(1, 30))).map(\.pts) == [42, 100])
    }

    @Test func theLiveStreamCarriesSoundBrowsersPlay() {
        let aac = LiveTracks.choose(video: "avc1.64001F", sound: .running(codec: .aac, profile: 1))
        #expect(aac?.mimeType == #"video/mp4; codecs="avc1.64001F, mp4a.40.2""#)
        #expect(LiveTracks.choose(video: "avc1.64001F", sound: .running(codec: .aac, profile: 4))?.sound == "mp4a.40.5")
        #expect(LiveTracks.choose(video: "avc1.64001F", sound: .running(codec: .opus, profile: nil))?.sound == "opus")
        let flac = LiveTracks.choose(video: "avc1.64001F", sound: .running(codec: .flac, profile: nil))
        #expect(flac?.sound == nil && flac?.mimeType == #"video/mp4; codecs="avc1.64001F""# && flac?.soundNote?.contains("flac") == true)
        #expect(LiveTracks.choose(video: "avc1.64001F", sound: .none) == LiveTracks(video: "avc1.64001F"))
        #expect(LiveTracks.choose(video: "avc1.64001F", sound: .opening) == nil, "undecided until the sound encoder runs")
        let ended = LiveTracks.choose(video: "avc1.64001F", sound: .ended)
        #expect(ended?.sound == nil && ended?.soundNote != nil)
    }

    @Test func publishTargetsCarryTheSoundTheirContainerTakes() throws {
        let rtmp = try PublishTarget.parse("rtmp://127.0.0.1/live/x"), srt = try PublishTarget.parse("srt://127.0.0.1:9000")
        #expect(rtmp.carries(sound: .aac) && !rtmp.carries(sound: .opus) && !rtmp.carries(sound: .flac))
        #expect(srt.carries(sound: .aac) && srt.carries(sound: .opus) && !srt.carries(sound: .other("pcm_s16le")))
    }

    @Test func codecStringsComeFromAvcCOrAnnexB() {
        #expect(CodecString.h264(extradata: [1, 0x64, 0x00, 0x1F, 0xFF]) == "avc1.64001F")
        #expect(CodecString.h264(extradata: [0, 0, 0, 1, 0x67, 0x42, 0xC0, 0x1E, 0x9A]) == "avc1.42C01E")
        #expect(CodecString.h264(extradata: [0, 0, 1, 0x68, 1, 2]) == nil)
    }

    @Test(arguments: [("8080", "127.0.0.1", 8080), ("0.0.0.0:80", "0.0.0.0", 80), ("[::1]:9000", "::1", 9000),
                      ("localhost:1", "127.0.0.1", 1), ("0", "127.0.0.1", 0)])
    func endpoints(_ text: String, _ address: String, _ port: Int) throws {
        #expect(try LiveEndpoint.parse(text) == LiveEndpoint(address: address, port: port))
    }

    @Test(arguments: ["", "x", "70000", "::1:80", "[::1]", "1.2.3.4:"])
    func badEndpointsAreUsageErrors(_ text: String) {
        #expect(throws: RecError.self) { try LiveEndpoint.parse(text) }
    }

    @Test func publishTargets() throws {
        #expect(try PublishTarget.parse("rtmp://h/live/x").format == "flv")
        #expect(try PublishTarget.parse("srt://127.0.0.1:9000?mode=caller&passphrase=secret").format == "mpegts")
        #expect(try PublishTarget.parse("rtsp://h:8554/cam").format == "rtsp")
        #expect(try PublishTarget.parse("srt://h:1?passphrase=secret").display == "srt://h:1")
        #expect(try PublishTarget.parse("rtmp://user:pw@h/live/key").display == "rtmp://h/live/key")
        #expect(throws: RecError.self) { try PublishTarget.parse("http://h/x") }
        #expect(throws: RecError.self) { try PublishTarget.parse("rtmp://") }
        #expect(PublishTarget.backoff(retry: 1) == 0.5 && PublishTarget.backoff(retry: 3) == 2 && PublishTarget.backoff(retry: 50) == 10)
    }
}
