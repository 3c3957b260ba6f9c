import CFFmpeg
import RecCore

extension CodecParameters {
    /// The stream's colour and pixel shape, as the encoder or demuxer left them in
    /// `AVCodecParameters`: what a muxer writes as MP4 `colr`/`pasp` or a Matroska `Colour`
    /// element and display size.
    package var colour: ColourDescription {
        let p = pointer.pointee
        return ColourDescription(range: ColourDescription.Range(rawValue: Int32(p.color_range.rawValue)) ?? .unspecified,
                                 matrix: Int32(p.color_space.rawValue), primaries: Int32(p.color_primaries.rawValue),
                                 transfer: Int32(p.color_trc.rawValue), chromaLocation: Int32(p.chroma_location.rawValue),
                                 sampleAspect: Rational(p.sample_aspect_ratio))
    }
}
