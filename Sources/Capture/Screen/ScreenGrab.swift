import CFFmpeg
import Media
import RecCore

/// libavdevice's `x11grab` (XCB, with MIT-SHM when the server has it): the one owner of its
/// `AVFormatContext`, of the packet it reads into and of the raw-video decoder that turns each
/// packet into a picture without copying it. One thread at a time (the capture thread).
///
/// The grab waits for its own frame interval (`framerate`) before each picture, so reads come
/// at that rate whatever the screen does; the pacing policy picks which of them are kept.
final class ScreenGrab {
    private let input: InputContext
    private let packet: PacketOwner
    private let decoder: VideoDecoder
    /// The pictures' size and pixel format (bgr0 on a 24-bit server).
    let format: VideoFormat
    /// The packets' time base (x11grab: microseconds).
    let timeBase: Rational

    /// What x11grab is asked for.
    struct Request: Equatable {
        var display: String
        var region: ScreenRegion?
        var window: UInt32?
        var fps: Int
        var cursor: Bool
    }

    /// Opens x11grab on `request`. The corresponding C functions are `av_find_input_format`,
    /// `avformat_open_input` (with `framerate`, `draw_mouse`, `video_size`, `grab_x`, `grab_y`,
    /// `window_id`) and `avcodec_open2` for the rawvideo decoder.
    init(_ request: Request) throws(FFmpegError) {
        try AudioDeviceRegistry.registerOnce()
        guard let grabber = av_find_input_format("x11grab") else {
            throw FFmpegError(code: cffmpeg_averror(ENOSYS), operation: "av_find_input_format(x11grab)")
        }
        var options = [("framerate", "\(request.fps)"), ("draw_mouse", request.cursor ? "1" : "0")]
        if let region = request.region {
            options += [("video_size", "\(region.width)x\(region.height)"), ("grab_x", "\(region.x)"), ("grab_y", "\(region.y)")]
        }
        if let window = request.window { options.append(("window_id", "\(window)")) }
        input = try InputContext(url: request.display, format: grabber, options: options, name: "x11grab \(request.display)")
        let ctx = input.pointer
        guard ctx.pointee.nb_streams > 0, let stream = ctx.pointee.streams[0] else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "x11grab has no stream")
        }
        timeBase = Rational(stream.pointee.time_base.num, stream.pointee.time_base.den)
        let parameters = try CodecParameters(copying: stream.pointee.codecpar, timeBase: timeBase)
        decoder = try VideoDecoder(parameters: parameters, threads: 1)
        format = VideoFormat(width: parameters.width, height: parameters.height, pixelFormat: parameters.pixelFormat)
        packet = try PacketOwner()
    }

    /// The next picture, once the grab's frame interval has passed, with its pts (the instant
    /// it was grabbed, in `timeBase`). The corresponding C functions are `av_read_frame`,
    /// `avcodec_send_packet` and `avcodec_receive_frame`.
    func next() throws(FFmpegError) -> (frame: VideoFrame, pts: Int64) {
        while true {
            let p = packet.pointer
            let r = av_read_frame(input.pointer, p)
            if r == FFmpegError.again { continue }
            try check(r, "av_read_frame(x11grab)")
            let pts = p.pointee.pts
            let grabbed = try EncodedPacket(taking: p, timeBase: timeBase, streamIndex: 0)
            try decoder.send(grabbed)
            if case .output(let frame) = try decoder.receive() { return (frame, pts) }
        }
    }
}
