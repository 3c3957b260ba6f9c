import CFFmpeg
import RecCore

extension ContainerFormat {
    /// Why this container cannot take a stream copied from another file, or nil if it can: data
    /// streams (QuickTime timecode `tmcd`, GoPro telemetry) and codecs the muxer does not know
    /// are left out of a clip, as ffmpeg's default stream mapping leaves them out.
    /// The corresponding C function is `avformat_query_codec`.
    package func cannotHold(_ stream: CodecParameters) -> String? {
        let kind = stream.mediaType
        let tag = stream.codecTag.isEmpty ? "" : " \(stream.codecTag)"
        guard kind == "audio" || kind == "subtitle" || kind == "video" else {
            return "\(kind)\(tag) stream: rec copies only audio, video and subtitles"
        }
        guard let format = av_guess_format(muxerName, nil, nil) else { return nil }
        if avformat_query_codec(format, stream.pointer.pointee.codec_id, FF_COMPLIANCE_NORMAL) != 1 {
            return "\(kind) stream \(stream.codecName): \(muxerName) cannot hold it"
        }
        return nil
    }
}
