import Foundation
import RecCore

/// Copies every stream of a file into a new container without decoding (`ffmpeg -c copy`).
package enum Remuxer {
    /// Demuxers often leave packet durations empty (FFmpeg's MP4 demuxer does) and muxers take a
    /// stream's end from its packets' durations, so durations are filled on the way through.
    /// With `startAtZero`, every stream is shifted by the video stream's first pts (else the first
    /// packet's) so the presentation starts at 0 (a fragmented MP4 read back starts at the encoder
    /// delay instead). One shift for all streams keeps sound where it was against the pictures:
    /// a sound packet may then start before 0 (AAC's priming), which the MP4 edit list hides.
    /// - Parameter loneVideoDuration: how long the video stream's frame lasts when it is its only
    ///   one and the file does not say: FFmpeg's reader of a fragmented MP4 gives the last sample
    ///   no duration, and a frame with none is presented for no time (an MP4 edit list 0 long), so
    ///   a one-frame segment read back empty. The file's writer knows it (`AssetWriter`).
    package static func remux(from input: String, to output: String, container: String?,
                             options: [String: String] = [:], startAtZero: Bool = false,
                             tags: [Codec: String] = [:], loneVideoDuration: Timestamp? = nil) throws(FFmpegError) {
        let demuxer = try Demuxer(path: input)
        var fillers: [Int: DurationFiller] = [:]
        do throws(FFmpegError) {
            let muxer = try Muxer(path: output, container: container, streams: demuxer.streams.map(\.parameters),
                                  options: options, tags: tags)
            let video = demuxer.bestVideoStream.map { demuxer.streams[$0] }
            var offset: Timestamp? = video.flatMap { v in v.startTime.map { Timestamp(value: $0, timeBase: v.timeBase) } }
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
                let lone = s == demuxer.bestVideoStream ? loneVideoDuration.map { $0.rescaled(to: demuxer.streams[s].timeBase).value } : nil
                for ready in fillers[s, default: DurationFiller()].finish(lone: lone ?? 0) { try muxer.write(ready) }
            }
            try muxer.finish()
        } catch {
            unlink(output)
            throw error
        }
    }
}
