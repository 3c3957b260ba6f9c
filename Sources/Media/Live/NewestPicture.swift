import RecCore

/// The newest picture of a copied camera: its last keyframe and every packet after it, decoded on
/// the caller's thread with a decoder of its own (never capture's), and the picture presented
/// last returned. What a snapshot or photo of a copy session shows: the newest picture the camera
/// sent, not the keyframe it was decoded from. It costs the decoding of up to one GOP.
///
/// With `upTo`, the picture shown at that time: the one presented last at or before it (the
/// review page's frame-exact playhead, from the ring or a recording file).
package enum NewestPicture {
    /// The corresponding C functions are `avcodec_send_packet` and `avcodec_receive_frame`.
    /// `upTo` is on the packets' own clock; frames presented after it are passed over.
    package static func decode(_ packets: [EncodedPacket], parameters: CodecParameters,
                               upTo limit: Timestamp? = nil) throws(FFmpegError) -> VideoFrame? {
        let decoder = try VideoDecoder(parameters: parameters, threads: 1)
        var newest: VideoFrame?
        func drain() throws(FFmpegError) {
            while case .output(let frame) = try decoder.receive() {
                if let limit, frame.captureTime > limit { continue }
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

    /// The picture a clip's input (a recording file's or segments' part, as read for a cut)
    /// shows at `time`, on the input's own clock: its video packets decoded from the keyframe
    /// the input starts at.
    package static func decode(_ input: any ClipInput, upTo time: Timestamp) throws -> VideoFrame? {
        var packets: [EncodedPacket] = []
        let video = input.video.stream
        try input.replay { if $0.stream == video { packets.append($0) } }
        return try decode(packets, parameters: input.video.parameters, upTo: time)
    }
}
