import Foundation
import RecCore

/// Copies every stream of a file into a new container without decoding (`ffmpeg -c copy`).
public enum Remuxer {
    /// Demuxers often leave packet durations empty (FFmpeg's MP4 demuxer does) and muxers take a
    /// stream's end from its packets' durations, so durations are filled on the way through.
    /// With `startAtZero`, every stream is shifted by the first packet's pts so the presentation
    /// starts at 0 (a fragmented MP4 read back starts at the encoder delay instead).
    public static func remux(from input: String, to output: String, container: String?,
                             options: [String: String] = [:], startAtZero: Bool = false) throws(FFmpegError) {
        let demuxer = try Demuxer(path: input)
        var fillers: [Int: DurationFiller] = [:]
        do throws(FFmpegError) {
            let muxer = try Muxer(path: output, container: container, streams: demuxer.streams.map(\.parameters),
                                  options: options)
            var offset: Timestamp?
            var lastDTS: [Int: Int64] = [:]
            while var packet = try demuxer.read() {
                let s = packet.streamIndex
                if startAtZero {
                    let first = offset ?? packet.presentationTime
                    offset = first
                    packet.move(back: first, after: &lastDTS[s, default: .min])
                }
                for ready in fillers[s, default: DurationFiller()].push(packet) { try muxer.write(ready) }
            }
            for s in fillers.keys.sorted() {
                for ready in fillers[s]!.finish() { try muxer.write(ready) }
            }
            try muxer.finish()
        } catch {
            unlink(output)
            throw error
        }
    }
}
