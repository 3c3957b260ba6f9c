/// The wall clock of a camera's own times, from its RTCP sender reports (docs/TIMESTAMPS.md, "Wall
/// clock from sender reports"). Pure: the camera's reader hands it each packet as libavformat gave it.
///
/// A sender report maps one RTP timestamp of its stream to the camera's wall clock, and libavformat's
/// RTP reader gives every packet read after its stream's first report the wall-clock time of its
/// RTP timestamp (`AV_PKT_DATA_PRFT`). That is exact for the packet it came with, whatever the
/// stream and wherever the client joined the camera's stream, with one exception: libavformat cuts
/// H.264 and H.265 again with its parser, which hands out a picture when the next one begins, with
/// the side data of the RTP packet that began the next one. So a parsed picture's report is the
/// wall-clock time of the next picture's time; a packet that is not parsed (sound, MJPEG) carries
/// its own (measured on the stand-in camera's mounts, with and without B-frames).
///
/// Before, rec took libavformat's `start_time_realtime` (the first report's wall clock at the
/// RTSP range's start) and subtracted the earliest first packet time as that start: for a client
/// that joined a running stream, the first packets come up to one frame or sound packet after
/// the range's start, so each session's wall clock was 0 to 49 ms late by its own amount.
package struct SenderReportClock: Sendable {
    /// The wall-clock time of camera time 0 (wall clock − camera time, microseconds since the Unix
    /// epoch), from the first report that pairs with a time; nil until then.
    package private(set) var wallAtZero: Timestamp?
    /// The last parsed packet's report, by stream, waiting for the time of the stream's next packet.
    private var carried: [StreamID: Int64] = [:]

    package init() {}

    /// One packet as libavformat handed it out: its stream, its presentation time (nil when it
    /// has none), the wall clock its sender report gives it (nil before the stream's first report;
    /// one at or before 1970 is a camera whose clock was never set, and is left out), and whether
    /// its stream goes through libavformat's parser (`parsed`: H.264 and H.265 pictures).
    package mutating func read(stream: StreamID, presentation: Timestamp?, report: Timestamp?, parsed: Bool) {
        guard wallAtZero == nil else { return }
        let wall = report.map { $0.rescaled(to: .microseconds).value }.flatMap { $0 > 0 ? $0 : nil }
        let time = presentation.map { $0.rescaled(to: .microseconds).value }
        if parsed {
            if let time, let earlier = carried[stream] { wallAtZero = .microseconds(earlier - time) }
            carried[stream] = wall
        } else if let time, let wall {
            wallAtZero = .microseconds(wall - time)
        }
    }
}
