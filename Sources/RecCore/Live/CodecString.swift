/// The RFC 6381 codecs string a browser's `MediaSource.isTypeSupported` and `addSourceBuffer`
/// want: `avc1.PPCCLL` for H.264, from the stream's extradata (avcC or Annex B SPS).
package enum CodecString {
    package static func h264(extradata: [UInt8]) -> String? {
        var sps: ArraySlice<UInt8>?
        if extradata.count >= 4, extradata[0] == 1 {
            sps = extradata[1..<4]
        } else {
            // Annex B: 00 00 01 or 00 00 00 01, then the NAL header; SPS is type 7.
            var i = 0
            while i + 3 < extradata.count {
                if extradata[i] == 0, extradata[i + 1] == 0, extradata[i + 2] == 1 {
                    let header = i + 3
                    if extradata[header] & 0x1F == 7, header + 3 < extradata.count {
                        sps = extradata[(header + 1)...(header + 3)]
                        break
                    }
                    i = header
                } else {
                    i += 1
                }
            }
        }
        guard let sps else { return nil }
        return "avc1." + sps.map { b in
            let h = String(b, radix: 16, uppercase: true)
            return h.count == 1 ? "0" + h : h
        }.joined()
    }
}

extension CodecString {
    /// The RFC 6381 name of a sound codec that browsers play from fragmented MP4 through Media
    /// Source Extensions (Chromium and Firefox both take AAC and Opus there), or nil. AAC's object
    /// type is FFmpeg's profile + 1: LC 2, HE 5, HE v2 29.
    package static func sound(codec: Codec, profile: Int?) -> String? {
        switch codec {
        case .aac: "mp4a.40.\((profile ?? 1) + 1)"
        case .opus: "opus"
        case .h264, .hevc, .ffv1, .mjpeg, .mp3, .vorbis, .ac3, .eac3, .flac, .pcmALaw, .pcmMuLaw, .other: nil
        }
    }
}
