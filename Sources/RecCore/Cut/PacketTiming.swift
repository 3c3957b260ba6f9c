/// What the cut planner needs to know about one packet: its times (ticks of the stream's time
/// base) and whether decoding can start there. A file's packets can be scanned into these
/// without reading their bytes.
package struct PacketTiming: Sendable, Equatable {
    package var pts: Int64
    package var dts: Int64
    package var duration: Int64
    package var isKeyframe: Bool

    package init(pts: Int64, dts: Int64, duration: Int64, isKeyframe: Bool) {
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.isKeyframe = isKeyframe
    }

    package init(_ packet: EncodedPacket) {
        self.init(pts: packet.pts, dts: packet.dts, duration: packet.duration, isKeyframe: packet.isKeyframe)
    }
}
