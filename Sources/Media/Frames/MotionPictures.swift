import CFFmpeg
import RecCore

/// The small gray pictures a session's motion detector judges (issue 40), made from whatever the
/// session has: its raw pictures (an encoding session), or a copied camera's packets, decoded as
/// cheaply as motion allows. Owned by the session's motion thread.
///
/// The decoder skips the loop filter and the pictures no other picture refers to
/// (`skip_loop_filter`, `skip_frame noref`) and runs on one thread: motion needs the scene, not
/// a clean picture, and a camera's decoder must not take the cores the recording needs.
package final class MotionPictures {
    /// Rows of the gray pictures (their width keeps the aspect).
    package let rows: Int
    private var scaler: Scaler?
    private var decoder: VideoDecoder?
    private var decoding: CodecParameters?
    /// Capture times of the packets sent, by their pts in the decoder's time base.
    private var captureTimes: [Int64: Timestamp] = [:]
    /// Whether the decoder waits for a keyframe (at the start, and after packets were skipped).
    private var needsKeyframe = true

    package init(rows: Int) {
        self.rows = rows
    }

    /// A picture's luma at `rows` rows, packed.
    package func gray(_ frame: VideoFrame) throws(FFmpegError) -> (pixels: [UInt8], width: Int, height: Int) {
        let input = frame.format
        let height = max(1, min(rows, input.height))
        let width = max(1, min(input.width, Int((Double(input.width) * Double(height) / Double(max(1, input.height))).rounded())))
        let output = VideoFormat(width: width, height: height, pixelFormat: PixelFormat(AV_PIX_FMT_GRAY8))
        if scaler?.input != input || scaler?.output != output { scaler = try Scaler(from: input, to: output) }
        guard let scaler else { return ([], 0, 0) }
        let small = try scaler.scale(frame)
        guard let plane = small.plane(0) else { return ([], 0, 0) }
        var pixels = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                for x in 0..<width { out[y * width + x] = plane.base[y * plane.bytesPerRow + x] }
            }
        }
        return (pixels, width, height)
    }

    /// Decodes one of a copied camera's packets; returns the pictures it completes, each with the
    /// capture time of its packet. A new stream (`parameters` changed) starts a new decoder.
    package func decode(_ packet: EncodedPacket, time: Timestamp, parameters: CodecParameters) throws(FFmpegError) -> [VideoFrame] {
        if decoder == nil || decoding !== parameters {
            decoder = try VideoDecoder(parameters: parameters, threads: 1,
                                       options: [("skip_loop_filter", "all"), ("skip_frame", "noref"), ("flags2", "+fast")])
            decoding = parameters
            captureTimes = [:]
            needsKeyframe = true
        }
        guard let decoder else { return [] }
        if needsKeyframe {
            guard packet.isKeyframe else { return [] }
            needsKeyframe = false
        }
        let key = Timestamp(value: packet.pts, timeBase: packet.timeBase).rescaled(to: decoder.timeBase).value
        captureTimes[key] = time
        var frames: [VideoFrame] = []
        var sent = false
        while !sent {
            sent = try decoder.send(packet)
            while case .output(let frame) = try decoder.receive() {
                let pts = frame.pointer.pointee.pts
                if let captured = captureTimes.removeValue(forKey: pts) {
                    frame.captureTime = captured
                    frames.append(frame)
                }
            }
        }
        if captureTimes.count > 64 {
            // Pictures the decoder skipped (not referred to) never come out: forget the oldest.
            for old in captureTimes.keys.sorted().prefix(captureTimes.count - 32) { captureTimes[old] = nil }
        }
        return frames
    }

    /// Packets were left out (the motion thread fell behind): decode again from a keyframe.
    package func skipped() {
        needsKeyframe = true
    }
}
