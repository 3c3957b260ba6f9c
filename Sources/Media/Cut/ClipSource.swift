import RecCore

/// What a clip is cut from: the video stream's parameters and packets (decode order, durations
/// filled) and any other streams (audio, subtitles) whose packets are kept for the same range.
public struct ClipSource: Sendable {
    public struct Stream: Sendable {
        public var parameters: CodecParameters
        public var packets: [EncodedPacket]
        public init(parameters: CodecParameters, packets: [EncodedPacket]) {
            self.parameters = parameters
            self.packets = packets
        }
    }

    public var video: Stream
    public var others: [Stream]

    public init(video: Stream, others: [Stream] = []) {
        self.video = video
        self.others = others
    }
}
