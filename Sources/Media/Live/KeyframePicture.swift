import RecCore

/// A keyframe packet decoded on its own and encoded as a small JPEG: the live page's timeline
/// thumbnails. Runs on the caller's thread with its own decoder (never capture's or encode's).
package enum KeyframePicture {
    /// The corresponding C functions are `avcodec_send_packet` / `avcodec_receive_frame`, then
    /// libavcodec's MJPEG encoder (see `JPEGWriter.encode`).
    package static func jpeg(_ keyframe: EncodedPacket, parameters: CodecParameters, width: Int) throws(FFmpegError) -> [UInt8] {
        let decoder = try VideoDecoder(parameters: parameters, threads: 1)
        var packet = keyframe
        packet.isHidden = false
        try decoder.send(packet)
        try decoder.send(nil)
        while true {
            switch try decoder.receive() {
            case .output(let frame): return try JPEGWriter.encode(frame, width: width, qscale: 5)
            case .needsInput, .endOfStream:
                throw FFmpegError(code: FFmpegError.eof, operation: "decoding the keyframe at \(keyframe.presentationTime.clockText)")
            }
        }
    }
}
