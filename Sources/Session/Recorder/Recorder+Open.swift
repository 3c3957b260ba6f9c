import Foundation
import Encoding
import Media
import RecCore

extension Recorder {
    // MARK: - Opening the encoder and the file, on the encode thread

    /// The file for a `copy` recording: the source's compressed stream, no encoder.
    func openCopy() throws(RecError) -> SegmentedWriter? {
        let audio = try openSounds()
        guard let output = configuration.output, let parameters = encoderParameters.value else { return nil }
        // A network camera's codec is known only now that it answered.
        try output.container.check(codec: parameters.codecName)
        for sound in audio {
            guard let family = output.container.audioFamilies, !family.contains(sound.parameters.codecName) else { continue }
            throw .usage("the camera's \(sound.parameters.codecName) sound cannot go into a .\(output.container.rawValue) file as it came; "
                         + "name the output .mkv, or record without it (--audio none)")
        }
        return try makeWriter(output, video: parameters, sounds: audio, fragmentLength: FragmentClock.copyLength)
    }

    func open(for frame: VideoFrame) throws(RecError) -> (EncodingPipeline, SegmentedWriter?) {
        var settings = configuration.encoder
        if let rate = sourceFacts.value?.rate, rate.num > 0 { settings.frameRate = rate }
        let rate = settings.frameRate.doubleValue > 0 ? settings.frameRate.doubleValue : 30
        settings.keyframeInterval = max(1, Int((configuration.keyframeSeconds * rate).rounded()))
        let uneven = sourceFacts.value?.keyframesByTime ?? false
        if uneven {
            // A B-frame waits for the picture after it, which a static screen sends a second later.
            settings.bFrames = 0
            settings.options.merge(EncoderLatency.noDelayOptions(encoder: settings.encoder, setting: settings.options)) { mine, _ in mine }
        } else if configuration.lowDelay {
            settings.options.merge(EncoderLatency.liveOptions(encoder: settings.encoder, setting: settings.options)) { mine, _ in mine }
        }
        settings.options.merge(EncoderLatency.options(encoder: settings.encoder, fps: rate, bFrames: settings.bFrames,
                                                      setting: settings.options)) { mine, _ in mine }
        let pipeline: EncodingPipeline
        do {
            pipeline = try EncodingPipeline(settings: settings, first: frame, filter: configuration.filter)
        } catch {
            switch error {
            case .filter(let e):
                throw .usage("the filter '\(configuration.filter ?? "")' is not valid: \(e.text); see 'ffmpeg -filters' for what this FFmpeg has",
                             cause: e.description)
            case .encoder(let e):
                throw .runtime("cannot open the \(settings.encoder) encoder for \(frame.format)", cause: e.description)
            }
        }
        if uneven {
            // Half a picture early still takes the keyframe: a grab's timer jitters.
            pipeline.keyframes = KeyframeSchedule(seconds: configuration.keyframeSeconds, tolerance: Int64(500_000 / rate))
        }
        encoderParameters.set(pipeline.encoder.parameters)
        let audio = try openSounds()
        guard let output = configuration.output else { return (pipeline, nil) }
        return (pipeline, try makeWriter(output, video: pipeline.encoder.parameters, sounds: audio))
    }
}
