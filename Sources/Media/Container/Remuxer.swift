import Foundation
import RecCore

/// Copies every stream of a file into a new container without decoding (`ffmpeg -c copy`).
public enum Remuxer {
    public static func remux(from input: String, to output: String, container: String?,
                             options: [String: String] = [:]) throws(FFmpegError) {
        let demuxer = try Demuxer(path: input)
        let muxer = try Muxer(path: output, container: container, streams: demuxer.streams.map(\.parameters),
                              options: options)
        do throws(FFmpegError) {
            while let packet = try demuxer.read() { try muxer.write(packet) }
            try muxer.finish()
        } catch {
            unlink(output)
            throw error
        }
    }
}
