import RecCore
import Testing

/// `SenderReportClock`: the wall clock of a camera's times from the sender-report times libavformat
/// puts on its packets, exact wherever a client joined the stream.
@Suite struct SenderReportClockTests {
    /// Camera time 0 is at this wall-clock time (µs since the Unix epoch).
    static let zero: Int64 = 1_796_500_927_848_810
    static let frame: Int64 = 33_333

    typealias Packet = (stream: StreamID, time: Int64, report: Int64?, parsed: Bool)

    /// A camera's packets as libavformat hands them out, in time order, to a client that joined at
    /// `joined` µs of camera time: pictures every frame from the next whole frame, each (parsed)
    /// carrying the report of the next picture's time, and sound every 21.333 ms carrying its own
    /// (from the join, or 20 ms later), all from the first report (at `reportsFrom`) on.
    static func packets(joined: Int64, soundFirst: Bool, reportsFrom: Int64 = 0) -> [Packet] {
        let report: (Int64) -> Int64? = { $0 >= reportsFrom ? zero + $0 : nil }
        let firstPicture = (joined + frame - 1) / frame * frame
        let firstSound = joined + (soundFirst ? 0 : 20_000)
        let pictures: [Packet] = (0..<30).map { i in
            let time = firstPicture + Int64(i) * frame
            return (.video, time, report(time + frame), true)
        }
        let sound: [Packet] = (0..<45).map { i in
            let time = firstSound + Int64(i) * 21_333
            return (.sound(0), time, report(time), false)
        }
        return (pictures + sound).sorted { $0.time < $1.time }
    }

    static func wallAtZero(_ packets: [Packet]) -> Int64? {
        var clock = SenderReportClock()
        for p in packets {
            clock.read(stream: p.stream, presentation: .microseconds(p.time), report: p.report.map(Timestamp.microseconds),
                       parsed: p.parsed)
        }
        return clock.wallAtZero?.value
    }

    /// Before, the wall clock was libavformat's `start_time_realtime` less the earliest first
    /// time of the streams, taken as where the client joined: late by how far after the join the
    /// first packets came (up to 48 ms between three sessions of one stream). Now every client
    /// of a stream has the same wall clock, to the microsecond, wherever it joined.
    @Test(arguments: [0, 1_345_604, 2_705_024, 4_000_000])
    func everyClientOfAStreamGetsTheSameClock(joined: Int64) {
        #expect(Self.wallAtZero(Self.packets(joined: joined, soundFirst: true)) == Self.zero)
        #expect(Self.wallAtZero(Self.packets(joined: joined, soundFirst: false)) == Self.zero)
        #expect(Self.wallAtZero(Self.packets(joined: joined, soundFirst: true, reportsFrom: joined + 300_000)) == Self.zero)
    }

    @Test func aParsedPicturesReportIsTheNextPictures() {
        let pictures = Self.packets(joined: 0, soundFirst: false).filter { $0.stream == .video }
        #expect(Self.wallAtZero(pictures) == Self.zero)
        // Taken as its own, the report would put the camera's clock a frame late.
        let own = pictures.map { Packet($0.stream, $0.time, $0.report, false) }
        #expect(Self.wallAtZero(own) == Self.zero + Self.frame)
    }

    @Test func aPictureWithoutTimeOrReportPairsWithNothing() {
        var clock = SenderReportClock()
        // libavformat's first picture has no time: its report goes with the next picture's.
        clock.read(stream: .video, presentation: nil, report: .microseconds(Self.zero + 100), parsed: true)
        clock.read(stream: .video, presentation: .microseconds(100), report: nil, parsed: true)
        #expect(clock.wallAtZero?.value == Self.zero)
        // A picture without a report leaves nothing for the next one.
        var other = SenderReportClock()
        other.read(stream: .video, presentation: .microseconds(0), report: nil, parsed: true)
        other.read(stream: .video, presentation: .microseconds(Self.frame), report: .microseconds(Self.zero + 2 * Self.frame), parsed: true)
        #expect(other.wallAtZero == nil)
        other.read(stream: .video, presentation: .microseconds(2 * Self.frame), report: nil, parsed: true)
        #expect(other.wallAtZero?.value == Self.zero)
    }

    @Test func theFirstPairHoldsAndAnUnsetCameraClockIsLeftOut() {
        var clock = SenderReportClock()
        // A camera whose clock was never set reports times before 1970 (NTP time 0).
        clock.read(stream: .sound(0), presentation: .microseconds(5_000), report: .microseconds(-2_208_988_800_000_000), parsed: false)
        #expect(clock.wallAtZero == nil)
        clock.read(stream: .sound(0), presentation: Timestamp(value: 480, timeBase: Rational(1, 48_000)),
                   report: .microseconds(Self.zero + 10_000), parsed: false)
        #expect(clock.wallAtZero?.value == Self.zero)
        // Later reports (a camera's clock drifting against its wall clock) do not move it.
        clock.read(stream: .sound(0), presentation: .microseconds(20_000), report: .microseconds(Self.zero + 20_100), parsed: false)
        #expect(clock.wallAtZero?.value == Self.zero)
    }
}
