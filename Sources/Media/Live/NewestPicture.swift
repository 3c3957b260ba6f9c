import RecCore

/// The newest picture of a copied camera: its last keyframe and every packet after it, decoded on
/// the caller's thread with a decoder of its own (never capture's), and the picture presented
/// last returned. What a snapshot or photo of a copy session shows: the newest picture the camera
/// sent, not the keyframe it was decoded from. It costs the decoding of up to one GOP.
package enum NewestPicture {
    /// The corresponding C functions are `avcodec_send_packet` and `avcodec_receive_frame`.
    package static func decode(_ packets: [EncodedPacket], parameters: CodecParameters) throws(FFmpegError) -> VideoFrame? {
        let decoder = try VideoDecoder(parameters: parameters, threads: 1)
        var newest: VideoFrame?
        func drain() throws(FFmpegError) {
            while case .output(let frame) = try decoder.receive() {
                if newest.map({ frame.captureTime >= $0.captureTime }) ?? true { newest = frame }
            }
        }
        for packet in packets where packet.stream.isVideo {
            var shown = packet
            shown.isHidden = false
            while try !decoder.send(shown) { try drain() }
            try drain()
        }
        try decoder.send(nil)
        try drain()
        return newest
    }
}
