import CPipeWire
import Glibc
import Media
import RecCore

/// One PipeWire video stream consumed on the capture thread: a connection to a PipeWire server
/// (the user's, or the one the ScreenCast portal opened), a stream linked to one video node, and
/// the frames it delivers copied out of shared memory (memfd or plain pointers; DMA-BUF is not
/// asked for) with their PipeWire timestamps.
///
/// Owns its loop, context, core and stream, and the listeners' memory, and frees them in `close()`
/// (or `deinit`). Everything runs on the one thread that calls `open`, `waitForFormat`, `next` and
/// `close`: the loop is not a thread loop, so PipeWire calls the stream's events from inside
/// `next`'s iteration, never from a thread of its own, and nothing here needs a lock.
final class PipeWireStream {
    /// Where the PipeWire server is.
    enum Remote {
        /// The user's own server (`$XDG_RUNTIME_DIR/pipewire-0`, or `$PIPEWIRE_REMOTE`).
        case user
        /// A connection the ScreenCast portal handed over (`OpenPipeWireRemote`); owned from here on.
        case descriptor(Int32)
    }

    /// What the producer and rec agreed on.
    struct Format {
        var video: VideoFormat
        /// SPA's name for the format ("BGRx").
        var spaName: String
        /// The nominal rate, or the maximum rate of a variable-rate screen cast; nil when 0/1.
        var rate: Rational?
    }

    private let remote: Remote
    /// `target.object`: a node's name or serial; nil to let the session manager pick (or `nodeID`).
    private let target: String?
    /// A node id from the portal, passed to `pw_stream_connect`.
    private let nodeID: UInt32?
    private var loop: UnsafeMutablePointer<pw_loop>?
    private var context: OpaquePointer?
    private var core: OpaquePointer?
    private var stream: OpaquePointer?
    private let streamEvents = UnsafeMutablePointer<pw_stream_events>.allocate(capacity: 1)
    private let streamHook = UnsafeMutablePointer<spa_hook>.allocate(capacity: 1)
    private let coreEvents = UnsafeMutablePointer<pw_core_events>.allocate(capacity: 1)
    private let coreHook = UnsafeMutablePointer<spa_hook>.allocate(capacity: 1)

    private(set) var format: Format?
    /// Why the stream cannot go on (a PipeWire error, a format rec cannot read); nil while fine.
    private(set) var failure: String?
    private(set) var streaming = false
    /// Frames the producer sent that rec never handed on (replaced before being taken, corrupted,
    /// short or unmapped buffers).
    private(set) var lost = 0
    private var pending: VideoFrame?
    private var pool: FramePool?
    private var firstTime: Int64?
    private var delivered: Int64 = 0
    /// The thread that entered the loop, which alone may leave it.
    private var enteredBy: pthread_t?

    init(remote: Remote, target: String?, nodeID: UInt32? = nil) {
        self.remote = remote
        self.target = target
        self.nodeID = nodeID
        streamEvents.initialize(to: pw_stream_events())
        streamHook.initialize(to: spa_hook())
        coreEvents.initialize(to: pw_core_events())
        coreHook.initialize(to: spa_hook())
    }

    deinit {
        close()
        streamEvents.deallocate()
        streamHook.deallocate()
        coreEvents.deallocate()
        coreHook.deallocate()
    }

    /// Connects to the server and asks for the target's video in the formats rec reads.
    /// The corresponding C functions are `pw_context_connect(_fd)`, `pw_stream_new` and `pw_stream_connect`.
    func open() throws(RecError) {
        guard loop == nil else { return }
        pw_init(nil, nil)
        guard let loop = pw_loop_new(nil) else { throw .runtime("PipeWire could not make an event loop") }
        self.loop = loop
        // Entered for the stream's whole life, as `pw_main_loop_run` does: PipeWire's data thread
        // then queues the stream's events on this loop (`pw_loop_invoke`) instead of calling them
        // itself whenever no thread is inside the loop, so they run only inside `iterate`.
        cpw_loop_enter(loop)
        enteredBy = pthread_self()
        guard let context = pw_context_new(loop, nil, 0) else { throw .runtime("PipeWire could not make a context") }
        self.context = context
        switch remote {
        case .user: core = pw_context_connect(context, nil, 0)
        case .descriptor(let fd): core = pw_context_connect_fd(context, fd, nil, 0)
        }
        guard let core else {
            let reason = String(cString: strerror(errno))
            throw .runtime("cannot connect to PipeWire (\(reason)); is pipewire running for this user "
                           + "(systemctl --user status pipewire, XDG_RUNTIME_DIR set)?")
        }
        listen(core: core)
        guard let props = cpw_properties_new() else { throw .runtime("PipeWire could not make properties") }
        pw_properties_set(props, "media.type", "Video")
        pw_properties_set(props, "media.category", "Capture")
        pw_properties_set(props, "media.role", "Screen")
        if let target {
            pw_properties_set(props, "target.object", target)
            // Only that node: without this the session manager links a missing target to the default video source.
            pw_properties_set(props, "node.dont-reconnect", "true")
        }
        guard let stream = pw_stream_new(core, "rec", props) else { throw .runtime("PipeWire could not make a stream") }
        self.stream = stream
        listen(stream: stream)
        var buffer = [UInt8](repeating: 0, count: 1024)
        let result = buffer.withUnsafeMutableBufferPointer { bytes -> Int32 in
            var params: [UnsafePointer<spa_pod>?] = [cpw_video_enum_format(bytes.baseAddress, UInt32(bytes.count))]
            let flags = pw_stream_flags(rawValue: PW_STREAM_FLAG_AUTOCONNECT.rawValue | PW_STREAM_FLAG_MAP_BUFFERS.rawValue)
            return pw_stream_connect(stream, SPA_DIRECTION_INPUT, nodeID ?? CPW_ID_ANY, flags, &params, 1)
        }
        guard result >= 0 else { throw .runtime("PipeWire refused the stream: \(String(cString: cpw_strerror(result)))") }
    }

    /// Runs the loop until the producer has agreed on a format and streams, the stream fails, the
    /// interrupt is set, or `deadline` (CLOCK_MONOTONIC nanoseconds) passes; returns whether it streams.
    func waitForFormat(deadline: UInt64, interrupt: InterruptFlag) throws(RecError) -> Bool {
        while !(streaming && format != nil) {
            if let failure { throw .runtime(failure) }
            guard try iterate(deadline: deadline, interrupt: interrupt) else { return false }
        }
        return true
    }

    /// The next frame; nil once the interrupt is set, the stream is closed or `deadline`
    /// (CLOCK_MONOTONIC nanoseconds) passes. Without a deadline it waits as long as the producer
    /// sends nothing (a screen that does not change sends no frames).
    func next(interrupt: InterruptFlag, deadline: UInt64? = nil) throws(RecError) -> VideoFrame? {
        while pending == nil {
            if let failure { throw .runtime(failure) }
            guard try iterate(deadline: deadline, interrupt: interrupt) else { return nil }
        }
        defer { pending = nil }
        return pending
    }

    /// Disconnects and frees everything; safe to call more than once.
    func close() {
        if let stream { pw_stream_destroy(stream) }
        stream = nil
        if let core { pw_core_disconnect(core) }
        core = nil
        if let context { pw_context_destroy(context) }
        context = nil
        if let loop {
            if let enteredBy, pthread_equal(enteredBy, pthread_self()) != 0 { cpw_loop_leave(loop) }
            pw_loop_destroy(loop)
        }
        loop = nil
        pending = nil
    }

    /// Waits for the loop's descriptor or the interrupt with poll(2), then dispatches what is
    /// ready. Returns false on interrupt or deadline.
    private func iterate(deadline: UInt64?, interrupt: InterruptFlag) throws(RecError) -> Bool {
        guard let loop else { return false }
        if interrupt.isSet { return false }
        var timeout: Int32 = -1
        if let deadline {
            let now = Self.monotonicNow()
            guard now < deadline else { return false }
            timeout = Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max)))
        }
        var fds = [pollfd(fd: cpw_loop_fd(loop), events: Int16(POLLIN), revents: 0),
                   pollfd(fd: interrupt.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, nfds_t(interrupt.wakeDescriptor >= 0 ? 2 : 1), timeout)
        if ready < 0, errno != EINTR { throw .runtime("poll on the PipeWire connection failed: \(String(cString: strerror(errno)))") }
        if interrupt.isSet { return false }
        _ = cpw_loop_iterate(loop, 0)
        return true
    }

    static func monotonicNow() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

extension PipeWireStream {
    /// The listeners: C function pointers with `self` (unretained: the stream is destroyed before
    /// `self` goes) as their data.
    fileprivate func listen(core: OpaquePointer) {
        coreEvents.pointee.version = CPW_CORE_EVENTS_VERSION
        coreEvents.pointee.error = { data, id, _, res, message in
            guard let data, id == CPW_ID_ANY || id == 0 else { return }
            let me = Unmanaged<PipeWireStream>.fromOpaque(data).takeUnretainedValue()
            let text = message.map { String(cString: $0) } ?? String(cString: cpw_strerror(res))
            me.failure = me.failure ?? "the PipeWire server reported an error: \(text)"
        }
        cpw_core_add_listener(core, coreHook, coreEvents, Unmanaged.passUnretained(self).toOpaque())
    }

    fileprivate func listen(stream: OpaquePointer) {
        streamEvents.pointee.version = CPW_STREAM_EVENTS_VERSION
        streamEvents.pointee.state_changed = { data, _, state, error in
            guard let data else { return }
            Unmanaged<PipeWireStream>.fromOpaque(data).takeUnretainedValue()
                .stateChanged(state, error: error.map { String(cString: $0) })
        }
        streamEvents.pointee.param_changed = { data, id, param in
            guard let data, let param, id == SPA_PARAM_Format.rawValue else { return }
            Unmanaged<PipeWireStream>.fromOpaque(data).takeUnretainedValue().formatChanged(param)
        }
        streamEvents.pointee.process = { data in
            guard let data else { return }
            Unmanaged<PipeWireStream>.fromOpaque(data).takeUnretainedValue().process()
        }
        pw_stream_add_listener(stream, streamHook, streamEvents, Unmanaged.passUnretained(self).toOpaque())
    }

    private func stateChanged(_ state: pw_stream_state, error: String?) {
        switch state {
        case PW_STREAM_STATE_STREAMING: streaming = true
        case PW_STREAM_STATE_ERROR: failure = failure ?? "the PipeWire stream failed: \(error ?? "no reason given")"
        case PW_STREAM_STATE_UNCONNECTED, PW_STREAM_STATE_PAUSED:
            // Once it streamed, either means the producer's node went away: a compositor that
            // closed the screen cast or exited leaves the stream paused, its link gone (issue 43:
            // rec went on repeating the last picture for good).
            if streaming { failure = failure ?? "the PipeWire stream stopped (the producer or the screen cast ended)" }
            streaming = false
        default: streaming = false
        }
    }

    /// The producer chose a format: note it and ask for mappable buffers with a header.
    private func formatChanged(_ param: UnsafePointer<spa_pod>) {
        var spa: UInt32 = 0, width: UInt32 = 0, height: UInt32 = 0, num: UInt32 = 0, den: UInt32 = 0
        guard cpw_video_parse(param, &spa, &width, &height, &num, &den) == 0 else { return }
        guard let (name, ffmpeg) = Self.formats[spa], let pixelFormat = PixelFormat(name: ffmpeg) else {
            failure = "the PipeWire producer chose video format \(spa), which rec cannot read"
            return
        }
        let video = VideoFormat(width: Int(width), height: Int(height), pixelFormat: pixelFormat)
        format = Format(video: video, spaName: name, rate: num > 0 && den > 0 ? Rational(Int32(num), Int32(den)) : nil)
        if pool?.format != video { pool = FramePool(format: video) }
        guard let stream else { return }
        var buffer = [UInt8](repeating: 0, count: 1024)
        buffer.withUnsafeMutableBufferPointer { bytes in
            var params: [UnsafePointer<spa_pod>?] = [nil, nil]
            cpw_buffer_params(bytes.baseAddress, UInt32(bytes.count), &params)
            _ = pw_stream_update_params(stream, &params, 2)
        }
    }

    /// SPA's packed RGB formats and FFmpeg's names for the same byte order.
    static let formats: [UInt32: (String, String)] = [
        SPA_VIDEO_FORMAT_BGRx.rawValue: ("BGRx", "bgr0"), SPA_VIDEO_FORMAT_BGRA.rawValue: ("BGRA", "bgra"),
        SPA_VIDEO_FORMAT_RGBx.rawValue: ("RGBx", "rgb0"), SPA_VIDEO_FORMAT_RGBA.rawValue: ("RGBA", "rgba"),
        SPA_VIDEO_FORMAT_xRGB.rawValue: ("xRGB", "0rgb"), SPA_VIDEO_FORMAT_xBGR.rawValue: ("xBGR", "0bgr"),
    ]

    /// Takes the newest buffer, copies its picture into a pooled frame and gives the buffers back.
    /// The corresponding C functions are `pw_stream_dequeue_buffer` and `pw_stream_queue_buffer`.
    private func process() {
        guard let stream else { return }
        var newest: UnsafeMutablePointer<pw_buffer>?
        while let b = pw_stream_dequeue_buffer(stream) {
            if let older = newest {
                lost += 1
                pw_stream_queue_buffer(stream, older)
            }
            newest = b
        }
        guard let newest else { return }
        defer { pw_stream_queue_buffer(stream, newest) }
        guard let frame = copy(newest) else { lost += 1; return }
        if pending != nil { lost += 1 }
        pending = frame
    }

    private func copy(_ buffer: UnsafeMutablePointer<pw_buffer>) -> VideoFrame? {
        guard let format, let pool else { return nil }
        var data: UnsafePointer<UInt8>?, bytes: UInt32 = 0, stride: Int32 = 0, pts: Int64 = -1, seq: UInt64 = 0
        guard cpw_buffer_plane(buffer, &data, &bytes, &stride, &pts, &seq) == 0, let data else { return nil }
        let rowBytes = format.video.width * 4, height = format.video.height
        let step = stride > 0 ? Int(stride) : rowBytes
        guard step >= rowBytes, Int(bytes) >= step * (height - 1) + rowBytes else { return nil }
        guard let frame = try? pool.next(), let plane = frame.plane(0) else { return nil }
        for row in 0..<height {
            (plane.base + row * plane.bytesPerRow).update(from: data + row * step, count: rowBytes)
        }
        // The producer's timestamp (ns) when it gives one, else the time it arrived.
        let time = pts >= 0 ? pts : Int64(Self.monotonicNow())
        let first = firstTime ?? time
        firstTime = first
        frame.captureTime = .microseconds(max(0, time - first) / 1000)
        frame.sequence = delivered
        delivered += 1
        return frame
    }
}
