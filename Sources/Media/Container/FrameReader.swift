import RecCore

/// Decodes a file's video the way a player presents it (edit lists honoured, hidden frames dropped)
/// and reports every frame: its time, whether it was a keyframe and the frame number stamped in it.
/// Tests use it to check recordings and clips frame by frame; so can anyone checking a file.
public enum FrameReader {
    public struct Frame: Sendable, Equatable {
        /// Presentation time in the stream's time base.
        public var pts: Int64
        public var timeBase: Rational
        public var isKeyframe: Bool
        /// The frame number drawn by the stand-in camera, if the picture has one.
        public var stamp: Int?

        public var time: Timestamp { Timestamp(value: pts, timeBase: timeBase) }
    }

    public struct Report: Sendable {
        public var frames: [Frame]
        public var codecName: String
        public var width: Int
        public var height: Int
        /// Keyframe flags of the video packets in file order (what the container marks).
        public var packetKeyframes: [Bool]
        public var streamCount: Int
        public var duration: Timestamp?
    }

    public static func read(path: String) throws(FFmpegError) -> Report {
        let demuxer = try Demuxer(path: path)
        guard let index = demuxer.bestVideoStream else {
            throw FFmpegError(code: -22, operation: "no video stream in \(path)")
        }
        let stream = demuxer.streams[index]
        let decoder = try VideoDecoder(parameters: stream.parameters, threads: 1)
        var frames: [Frame] = []
        var packetKeys: [Bool] = []
        func collect() throws(FFmpegError) {
            while case .output(let f) = try decoder.receive() {
                frames.append(Frame(pts: f.pointer.pointee.pts, timeBase: stream.timeBase,
                                    isKeyframe: f.pointer.pointee.key_frame != 0, stamp: f.readStamp()))
            }
        }
        while let packet = try demuxer.read() {
            guard packet.streamIndex == index else { continue }
            packetKeys.append(packet.isKeyframe)
            while !(try decoder.send(packet)) { try collect() }
            try collect()
        }
        try decoder.send(nil)
        try collect()
        return Report(frames: frames, codecName: stream.parameters.codecName, width: stream.parameters.width,
                      height: stream.parameters.height, packetKeyframes: packetKeys,
                      streamCount: demuxer.streams.count, duration: demuxer.duration)
    }
}
