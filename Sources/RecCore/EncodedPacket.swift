/// One compressed packet, self-describing and immutable, that owns its bytes: the unit the ring
/// holds, the cut planner plans over, and the muxers write (OBS's `encoder_packet`).
///
/// Times are ticks of `timeBase` (the stream's or encoder's); `pts` and `dts` are never absent
/// here: the layer that makes packets fills missing ones before they cross into the core.
package struct EncodedPacket: Sendable {
    /// The compressed bytes. An array is a reference to shared storage, so copying a packet (into a
    /// ring snapshot, say) copies no bytes. A packet read from a file keeps its bytes where the
    /// demuxer put them (`shared`): reading `data` then copies them out, setting it replaces them.
    package var data: [UInt8] {
        get { shared.map { $0.withUnsafeBytes { Array($0) } } ?? owned }
        set { owned = newValue; shared = nil }
    }
    private var owned: [UInt8]
    /// The bytes when another owner holds them (an FFmpeg packet reference), so that a packet
    /// read, copied into a clip and written passes its bytes through without copying them.
    package private(set) var shared: (any SharedBytes)?
    package var pts: Int64
    package var dts: Int64
    package var duration: Int64
    package var timeBase: Rational
    package var isKeyframe: Bool
    /// The stream the packet belongs to: what decides where it goes and how it is cut.
    package var stream: StreamID
    /// The packet's index in the container it was read from or is being written to: a muxer's
    /// business only (each writer maps `stream` to an index of its own), never a decision.
    package var streamIndex: Int
    /// When the frame was captured, on the session's timeline (0 = first frame), if known.
    package var captureTime: Timestamp?
    /// Decoded for reference but not presented: an MP4 edit list hides it (FFmpeg's
    /// `AV_PKT_FLAG_DISCARD`). A player decodes it and shows nothing.
    package var isHidden = false
    /// Side data the codec or container attached (FFmpeg's `AVPacketSideData`): Opus and AAC skip
    /// samples, new extradata, and so on. A cut carries it through so the clip decodes the same.
    package var sideData: [PacketSideData] = []

    package init(data: [UInt8], pts: Int64, dts: Int64, duration: Int64, timeBase: Rational,
                isKeyframe: Bool, streamIndex: Int = 0, stream: StreamID = .video, captureTime: Timestamp? = nil) {
        self.owned = data
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.timeBase = timeBase
        self.isKeyframe = isKeyframe
        self.streamIndex = streamIndex
        self.stream = stream
        self.captureTime = captureTime
    }

    package var presentationTime: Timestamp { Timestamp(value: pts, timeBase: timeBase) }
    package var decodeTime: Timestamp { Timestamp(value: dts, timeBase: timeBase) }
    package var endTime: Timestamp { Timestamp(value: pts + duration, timeBase: timeBase) }
    package var size: Int { shared?.count ?? owned.count }

    /// The bytes where they are, without copying them out.
    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if let shared { return try shared.withUnsafeBytes(body) }
        return try owned.withUnsafeBytes(body)
    }

    /// Makes `bytes` (the same bytes, kept elsewhere) the packet's: the ring's slabs.
    mutating func keepBytes(in bytes: any SharedBytes) {
        owned = []
        shared = bytes
    }

    /// A packet whose bytes stay with `bytes`' owner. Every field is set here (no delegation to
    /// another initializer, whose result would be copied): a camera makes one per packet.
    package init(shared bytes: any SharedBytes, pts: Int64, dts: Int64, duration: Int64, timeBase: Rational,
                isKeyframe: Bool, streamIndex: Int = 0, stream: StreamID = .video, sideData: [PacketSideData] = [],
                isHidden: Bool = false) {
        self.owned = []
        self.shared = bytes
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.timeBase = timeBase
        self.isKeyframe = isKeyframe
        self.streamIndex = streamIndex
        self.stream = stream
        self.captureTime = nil
        self.isHidden = isHidden
        self.sideData = sideData
    }
}

/// Bytes another library owns and shares by reference (a libavcodec `AVPacket`'s buffer): read,
/// never changed, freed by their owner when the last reference goes.
package protocol SharedBytes: AnyObject, Sendable {
    var count: Int { get }
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

extension EncodedPacket {
    /// Moves the packet `time` earlier (rescaled once into its own time base) and keeps its dts
    /// after `previous`, the stream's last dts, which it then updates: how a cut or a rebased
    /// stream lands on a timeline that starts at 0, with decode times a muxer accepts.
    package mutating func move(back time: Timestamp, after previous: inout Int64) {
        let shift = time.rescaled(to: timeBase).value
        pts -= shift
        dts -= shift
        if dts <= previous { dts = previous + 1 }
        previous = dts
    }
}

/// One piece of a packet's side data: FFmpeg's `AVPacketSideDataType` as a number, and its bytes.
package struct PacketSideData: Sendable, Equatable {
    package var kind: Int32
    package var bytes: [UInt8]

    package init(kind: Int32, bytes: [UInt8]) {
        self.kind = kind
        self.bytes = bytes
    }
}
