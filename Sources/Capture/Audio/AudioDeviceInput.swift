import CFFmpeg
import Media
import RecCore

/// A libavdevice capture input ("pulse", "alsa"): the one owner of its `AVFormatContext` and of
/// the packet it reads into. One thread at a time (the audio thread).
///
/// Media's `Demuxer` opens files by path and reads their stream information first; a device
/// needs its input format and options named, and no probing: its one PCM stream is fully
/// described by its header (probing would hold the first packets back for nothing).
final class AudioDeviceInput {
    private let input: InputContext
    private let packet: PacketOwner
    /// The stream's time base (libavdevice's pulse and alsa inputs: microseconds).
    let timeBase: Rational
    let decoder: AudioDecoder

    /// Opens `device` ("default" when nil) with the input format `formatName` and its options.
    /// The corresponding C functions are `avdevice_register_all` (once), `av_find_input_format`,
    /// `av_dict_set` and `avformat_open_input`.
    init(formatName: String, device: String?, options: [(String, String)]) throws(FFmpegError) {
        try AudioDeviceRegistry.registerOnce()
        guard let format = av_find_input_format(formatName) else {
            throw FFmpegError(code: cffmpeg_averror(ENOSYS), operation: "av_find_input_format(\(formatName))")
        }
        input = try InputContext(url: device ?? "default", format: format, options: options,
                                 name: "\(formatName):\(device ?? "default")")
        let ctx = input.pointer
        guard ctx.pointee.nb_streams > 0, let stream = ctx.pointee.streams[0] else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "\(formatName) input has no stream")
        }
        timeBase = Rational(stream.pointee.time_base.num, stream.pointee.time_base.den)
        decoder = try AudioDecoder(copying: stream.pointee.codecpar, timeBase: timeBase)
        packet = try PacketOwner()
    }

    /// The next packet of the device's stream, its pts (libavdevice's estimate of when its first
    /// sample was captured) in `timeBase`; blocks until the device has one.
    /// The corresponding C function is `av_read_frame`.
    func read() throws(FFmpegError) -> EncodedPacket {
        while true {
            let packet = self.packet.pointer
            let r = av_read_frame(input.pointer, packet)
            if r == FFmpegError.again { continue }  // only a non-blocking input says so; these block
            if r < 0 { throw FFmpegError(code: r, operation: "av_read_frame(\(formatName))") }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == 0, let data = packet.pointee.data else { continue }
            let bytes = Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
            let pts = packet.pointee.pts
            return EncodedPacket(data: bytes, pts: pts, dts: pts, duration: packet.pointee.duration,
                                 timeBase: timeBase, isKeyframe: true)
        }
    }

    private var formatName: String {
        String(cString: input.pointer.pointee.iformat.pointee.name)
    }
}

/// libavdevice, opened the first time a device is asked for (`SharedLibrary`): a session that
/// records no microphone never maps it, nor libavfilter, which it brings. Its formats join
/// libavformat's list once per process, whichever thread asks first (a Swift global's initialiser
/// runs exactly once, under a lock).
struct AudioDeviceRegistry: Sendable {
    let listInputSources: cffmpeg_avdevice_list_input_sources_fn
    let freeListDevices: cffmpeg_avdevice_free_list_devices_fn

    private static let loaded = Result { () throws(FFmpegError) in
        let lib = try SharedLibrary("libavdevice.so.\(LIBAVDEVICE_VERSION_MAJOR)")
        try lib.function("avdevice_register_all", as: cffmpeg_avdevice_register_all_fn.self)()
        return AudioDeviceRegistry(
            listInputSources: try lib.function("avdevice_list_input_sources", as: cffmpeg_avdevice_list_input_sources_fn.self),
            freeListDevices: try lib.function("avdevice_free_list_devices", as: cffmpeg_avdevice_free_list_devices_fn.self))
    }

    /// Opens libavdevice and registers its formats, once; its functions, or why it could not be
    /// opened. The corresponding C function is `avdevice_register_all`.
    @discardableResult
    static func registerOnce() throws(FFmpegError) -> AudioDeviceRegistry { try loaded.get() }
}
