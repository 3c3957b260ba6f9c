import CFFmpeg
import Foundation
import Media
import RecCore

/// A network camera or stream read through libavformat: RTSP and RTSPS (TCP unless the URL says
/// `transport=udp`), RTMP, SRT, and HTTP(S) MJPEG or MPEG-TS.
///
/// With a `copy` preset (`camera-copy`, the default for network sources) the camera's H.264 or
/// H.265 goes to the ring and file as it came (`CompressedFrames`); another preset decodes it and
/// the recorder encodes it again. The camera's own sounds, when kept, go beside the pictures as
/// streams `.sound(0)`, `.sound(1)`, … (`SourceSound`) in both cases.
///
/// Times: every packet is placed on the session timeline by `CameraTimeline`, from the camera's
/// timestamps anchored to the local monotonic clock (session time 0 is the arrival of the first
/// keyframe). A camera that goes silent is noticed within `stallSeconds` (an interrupt deadline
/// on every libavformat call), and `reconnect` opens it again with backoff on the same timeline.
///
/// Owned by the capture thread, except `interrupt`, which any thread sets.
package final class NetworkSource: FrameSource {
    package struct Settings: Sendable {
        /// Store the camera's stream as it comes (a `copy` preset) instead of decoding it.
        package var copies: Bool
        /// Record the camera's own sound (`--audio source`, or no `--audio`).
        package var keepsSound: Bool
        /// How long opening may take before it counts as failed.
        package var connectSeconds: Double = 10
        /// How long without a packet before the camera counts as gone.
        package var stallSeconds: Double = 5
        /// Where the sound goes (the recording's container; MP4 for a ring alone, the clips'
        /// default), and what it is re-encoded to when that container cannot take it as it came.
        package var container: Container = .mp4
        package var soundEncoding: AudioEncoding?

        package init(copies: Bool, keepsSound: Bool, container: Container = .mp4, soundEncoding: AudioEncoding? = nil) {
            self.copies = copies
            self.keepsSound = keepsSound
            self.container = container
            self.soundEncoding = soundEncoding
        }
    }

    package let url: NetworkURL
    package let settings: Settings
    package let interrupt = InterruptFlag()
    // `@exclusivity(unchecked)`: the state touched for every packet. This object is owned by one
    // thread and never lends that state across a call that could reach it again, so the runtime's
    // check of each access (~80 instructions under callgrind, several per packet) never fires.
    @exclusivity(unchecked) var input: NetworkInput?
    @exclusivity(unchecked) var timeline = CameraTimeline()
    /// The newest packet of each stream (the pictures, then each sound: `slot(_:)`), until the
    /// next gives its duration; and the duration each stream's last packet was given.
    @exclusivity(unchecked) var held: [EncodedPacket?] = [nil, nil]
    @exclusivity(unchecked) var lastDuration: [Int64] = [1, 1]
    /// A B-frame stream's presentation times not yet given out as decode times, sorted.
    @exclusivity(unchecked) var unusedPresentations: [Int64] = []
    /// Pictures given decode times in this run.
    @exclusivity(unchecked) var reordered = 0
    /// A keyframe that came without times (libavformat's first packet of an RTSP stream), with
    /// its arrival, and the sound read after it: they wait for the next picture's time.
    @exclusivity(unchecked) var untimedKeyframe: (packet: EncodedPacket, now: UInt64)?
    /// What was read after the untimed keyframe, in order, until it can be placed.
    @exclusivity(unchecked) var afterUntimed: [(packet: EncodedPacket, isVideo: Bool, now: UInt64)] = []
    /// The pictures' reordering depth: the largest any connection to the camera declared.
    @exclusivity(unchecked) var videoDepth = 0
    /// A B-frame stream's pictures waiting for the ones presented before them.
    @exclusivity(unchecked) var reorder: ReorderGate<EncodedPacket>?
    /// Set when the camera sends no times (a container without them: MJPEG over HTTP), or once a
    /// picture without times followed another.
    @exclusivity(unchecked) var sendsNoTimes = false
    /// For a camera timed by arrival, until settled: the pictures read while opening are left out.
    @exclusivity(unchecked) var arrivalStart: ArrivalStart?
    /// For a camera timed by arrival: pictures read at once are kept a millisecond apart.
    @exclusivity(unchecked) var arrivalSpacing = ArrivalSpacing(least: Timestamp.microseconds(1_000).rescaled(to: NetworkSource.arrivalTimeBase).value)
    /// Packets placed and given their durations, waiting to be handed out.
    @exclusivity(unchecked) var ready: [EncodedPacket] = []
    @exclusivity(unchecked) var pendingSound: [EncodedPacket] = []
    var decoder: VideoDecoder?
    var openedFormat = VideoFormat(width: 0, height: 0, pixelFormat: .none)
    var videoParameters: CodecParameters?
    /// The pictures' codec, when a picture may come as several packets (H.264, H.265: `join`).
    var videoCodec: Codec?
    var soundStreams: [CodecParameters] = []
    /// What becomes of each of the camera's sound streams, by its place among them: nil when it is
    /// left out (`planSound`).
    var soundRoutes: [SoundRoute?] = []
    /// Why the camera's sound (or one of its sounds) is left out, when it is (for the log and status).
    package internal(set) var soundNote: String?
    /// CLOCK_MONOTONIC nanoseconds of session time 0 (the first keyframe's arrival).
    @exclusivity(unchecked) var epoch: UInt64?
    /// The wall-clock time of session time 0 from the camera's sender reports, once known.
    @exclusivity(unchecked) var wallZero: Timestamp?
    /// The camera's wall clock against its own times, from the reports on its packets.
    @exclusivity(unchecked) var reports = SenderReportClock()
    var backoff = ReconnectBackoff()
    @exclusivity(unchecked) var sequence: Int64 = 0
    /// The presentation time of the run's first keyframe, until a picture presented after it
    /// comes: pictures presented before it are left out (an open GOP's leading pictures).
    @exclusivity(unchecked) var leadingCutoff: Int64?
    /// Packets with no slice (`PictureParts.Part.sliceless`) read since the last picture: they go
    /// in front of the next picture's bytes, or with the connection when it ends.
    @exclusivity(unchecked) var sliceless: [UInt8] = []
    /// After a reconnect: packets wait for the next keyframe, where decoding can start again.
    @exclusivity(unchecked) var waitsForKeyframe = false
    /// When the reader sleeps once it has caught up with the camera (`ReadPacing`).
    let pacing: ReadPacing
    /// Set when the last packet showed the reader caught up: it sleeps before the next read.
    @exclusivity(unchecked) var napDue = false
    /// The thread's voluntary context switches when the reader last counted them (after a
    /// sleep, or after a long read): a long read that finds more slept waiting for the network.
    @exclusivity(unchecked) var switchesSeen = 0
    /// Times the reader slept once caught up.
    package internal(set) var naps = 0
    /// Times the camera was connected again after an outage.
    package internal(set) var reconnects = 0

    package init(url: NetworkURL, settings: Settings) {
        self.url = url
        self.settings = settings
        pacing = ReadPacing.forCamera(url, copies: settings.copies)
    }

    package var format: VideoFormat { openedFormat }
    /// The stream's declared rate; nil for a camera timed by arrival, whose container declares none.
    package var nominalFrameRate: Rational? { sendsNoTimes ? nil : input?.video.frameRate }
    /// The ticks of a camera timed by arrival.
    static let arrivalTimeBase = Rational(1, 90_000)
    package var description: String { url.redacted }
    package var droppedFrames: Int { 0 }

    package var capabilities: SourceCapabilities {
        // A copied packet must never be dropped (every frame up to the next keyframe needs it):
        // capture waits for the file instead, which the socket's buffer absorbs.
        SourceCapabilities(isLive: true, interrupt: interrupt, clock: self, compressed: settings.copies ? self : nil,
                           reconnection: self, waitsWithoutLoss: settings.copies, sound: settings.keepsSound ? self : nil)
    }

    package func start() throws(RecError) {
        guard input == nil else { return }
        let opened = try NetworkInput.open(url, settings: settings, interrupt: interrupt)
        try adopt(opened, first: true)
    }

    /// Takes a freshly opened input: its streams become the recording's on the first open, and
    /// must match them on a reconnect (a file cannot change codec or size midway).
    func adopt(_ opened: NetworkInput, first: Bool) throws(RecError) {
        let video = opened.video.parameters
        if !first, let before = videoParameters,
           before.codec != video.codec || before.width != video.width || before.height != video.height {
            throw .runtime("\(url.redacted) came back sending \(video.codecName) \(video.width)x\(video.height) instead of "
                           + "\(before.codecName) \(before.width)x\(before.height); start a new recording for the new stream")
        }
        if first {
            // A container without times (multipart JPEG over HTTP): every picture is timed by its
            // arrival, in 90 kHz ticks, not by the 25-a-second numbers libavformat guesses.
            sendsNoTimes = opened.demuxer.carriesNoTimes
            videoParameters = video
            if sendsNoTimes {
                do {
                    videoParameters = try video.retimed(Self.arrivalTimeBase)
                } catch {
                    throw error.recError("cannot read \(url.redacted)")
                }
            }
            videoCodec = video.codec == .h264 || video.codec == .hevc ? video.codec : nil
            if settings.keepsSound {
                for sound in opened.sound { planSound(sound.parameters) }
            }
            (held, lastDuration) = (Array(repeating: nil, count: 1 + opened.sound.count), Array(repeating: 1, count: 1 + opened.sound.count))
            openedFormat = VideoFormat(width: video.width, height: video.height, pixelFormat: video.pixelFormat)
            if !settings.copies {
                do {
                    decoder = try VideoDecoder(parameters: video, threads: 1)
                } catch {
                    throw .runtime("cannot decode \(url.redacted)'s \(video.codecName)", cause: error.description)
                }
            }
        }
        if sendsNoTimes { arrivalStart = ArrivalStart(opened: Self.monotonicNow()) }
        // The stream's reordering, kept for the recording: a connection whose probe saw no
        // B-frame yet must not let a B-frame stream's pictures past the gate.
        videoDepth = max(videoDepth, opened.video.reorderDepth)
        input = opened
    }

    package func stop() {
        decoder = nil
        input = nil
    }

    /// The calling thread's voluntary context switches so far: it slept waiting for something.
    /// (`RUSAGE_THREAD`, 1, which Glibc's Swift module leaves out.)
    static func voluntarySwitches() -> Int {
        var usage = rusage()
        return getrusage(__rusage_who_t(1), &usage) == 0 ? usage.ru_nvcsw : 0
    }

    /// Now on the local monotonic clock (that of `DispatchTime`), in nanoseconds.
    static func monotonicNow() -> UInt64 { UInt64(cffmpeg_monotonic_now()) }
}

extension NetworkSource: SourceClock {
    package var monotonicEpoch: UInt64? { epoch }
    package var wallClockAtZero: Timestamp? { wallZero }
}

extension NetworkSource: SourceSound {
    package var soundParameters: [CodecParameters] { soundStreams }

    package func takeSound(into packets: inout [EncodedPacket]) {
        // Most pictures bring one or two sound packets, some none.
        guard !pendingSound.isEmpty else { return }
        swap(&packets, &pendingSound)
    }
}
