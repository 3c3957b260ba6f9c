/// What the cut planner needs to know about one packet: its times (ticks of the stream's time
/// base) and whether decoding can start there. A file's packets can be scanned into these
/// without reading their bytes.
public struct PacketTiming: Sendable, Equatable {
    public var pts: Int64
    public var dts: Int64
    public var duration: Int64
    public var isKeyframe: Bool

    public init(pts: Int64, dts: Int64, duration: Int64, isKeyframe: Bool) {
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.isKeyframe = isKeyframe
    }

    public init(_ packet: EncodedPacket) {
        self.init(pts: packet.pts, dts: packet.dts, duration: packet.duration, isKeyframe: packet.isKeyframe)
    }
}
