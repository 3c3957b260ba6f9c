import RecCore

/// Decodes a file's video the way a player presents it (edit lists honoured, hidden frames dropped)
/// and reports every frame: its time, whether it was a keyframe and the frame number stamped in it.
/// Tests use it to check recordings and clips frame by frame; so can anyone checking a file.
package enum FrameReader {
    package struct Frame: Sendable, Equatable {
        /// Presentation time in the stream's time base.
        package var pts: Int64
        package var timeBase: Rational
        package var isKeyframe: Bool
        /// The frame number drawn by the stand-in camera, if the picture has one.
        package var stamp: Int?

        package var time: Timestamp { Timestamp(value: pts, timeBase: timeBase) }
    }

    package struct Report: Sendable {
        package var frames: [Frame]
        package var codecName: String
        package var width: Int
        package var height: Int
        /// Keyframe flags of the video packets in file order (what the container marks).
        package var packetKeyframes: [Bool]
        package var streamCount: Int
        package var duration: Timestamp?
    }

    package static func read(path: String) throws(FFmpegError) -> Report {
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
