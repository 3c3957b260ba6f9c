import RecCore

/// What a clip is cut from: the video stream's parameters and packets (decode order, durations
/// filled) and any other streams (audio, subtitles) whose packets are kept for the same range.
public struct ClipSource: Sendable {
    public struct Stream: Sendable {
        public var parameters: CodecParameters
        public var packets: [EncodedPacket]
        /// The stream's nominal frame rate, if known: a re-encoder writes it into its own headers.
        public var frameRate: Rational?
        public init(parameters: CodecParameters, packets: [EncodedPacket], frameRate: Rational? = nil) {
            self.parameters = parameters
            self.packets = packets
            self.frameRate = frameRate
        }
    }

    public var video: Stream
    public var others: [Stream]

    public init(video: Stream, others: [Stream] = []) {
        self.video = video
        self.others = others
    }
}
