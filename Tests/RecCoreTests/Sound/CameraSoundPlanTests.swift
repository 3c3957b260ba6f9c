import RecCore
import Testing

/// What a recording does with a camera's own sound in each container: the answers FFmpeg 5.1's
/// muxers gave when each codec was written with the ffmpeg CLI and read back (see
/// `SoundPlan.copied(into:)`). Pure.
@Suite struct CameraSoundPlanTests {
    static let aac = AudioEncoding(encoder: "aac", bitrate: 160_000)
    static let opus = AudioEncoding(encoder: "libopus", bitrate: 128_000)

    struct Case: Sendable, CustomStringConvertible {
        var codec: Codec
        var container: Container
        var copied: Bool
        var description: String { "\(codec.name) into \(container.rawValue): \(copied ? "copy" : "re-encode")" }
    }

    static let cases: [Case] = [
        Case(codec: .aac, container: .mp4, copied: true),
        Case(codec: .opus, container: .mp4, copied: true),
        Case(codec: .mp3, container: .mp4, copied: true),
        Case(codec: .pcmALaw, container: .mp4, copied: false),
        Case(codec: .pcmMuLaw, container: .mp4, copied: false),
        Case(codec: .other("adpcm_g726"), container: .mp4, copied: false),
        Case(codec: .other("pcm_s16be"), container: .mp4, copied: false),
        Case(codec: .aac, container: .mov, copied: true),
        Case(codec: .pcmALaw, container: .mov, copied: true),
        Case(codec: .pcmMuLaw, container: .mov, copied: true),
        Case(codec: .opus, container: .mov, copied: false),
        Case(codec: .other("adpcm_g726"), container: .mov, copied: false),
        Case(codec: .aac, container: .mkv, copied: true),
        Case(codec: .opus, container: .mkv, copied: true),
        Case(codec: .mp3, container: .mkv, copied: true),
        Case(codec: .pcmALaw, container: .mkv, copied: true),
        Case(codec: .pcmMuLaw, container: .mkv, copied: true),
        Case(codec: .other("adpcm_g722"), container: .mkv, copied: false),
        Case(codec: .opus, container: .webm, copied: true),
        Case(codec: .aac, container: .webm, copied: false),
        Case(codec: .pcmALaw, container: .webm, copied: false),
    ]

    @Test(arguments: cases)
    func copiesWhatTheContainerHoldsAndReencodesTheRest(_ c: Case) {
        let encoding = AudioEncoding.standard(for: c.container)
        let plan = SoundPlan.forCamera(codec: c.codec, container: c.container, encoding: encoding)
        #expect(plan == (c.copied ? .copy : .reencode(encoding)))
    }

    @Test func g711IntoMP4BecomesThePresetsAAC() {
        let encoding = AudioEncoding(encoder: "aac", sampleRate: 48_000, channels: 2, bitrate: 128_000)
        #expect(SoundPlan.forCamera(codec: .pcmALaw, container: .mp4, encoding: encoding) == .reencode(encoding))
    }

    @Test func noSoundWhenThePresetSaysNone() {
        guard case .drop(let reason) = SoundPlan.forCamera(codec: .aac, container: .mp4, encoding: nil) else {
            Issue.record("aac with \"audio\": \"none\" was not dropped")
            return
        }
        #expect(reason.contains("\"audio\": \"none\""))
    }

    /// A preset whose own sound does not fit the container either (FLAC into mp4) cannot take the
    /// camera's G.711: dropped, with the container's own advice.
    @Test func anEncodingTheContainerRefusesIsDropped() {
        let plan = SoundPlan.forCamera(codec: .pcmALaw, container: .mp4, encoding: AudioEncoding(encoder: "flac"))
        guard case .drop(let reason) = plan else {
            Issue.record("pcm_alaw → flac in mp4 gave \(plan)")
            return
        }
        #expect(reason.contains("pcm_alaw") && reason.contains("mkv"))
        #expect(SoundPlan.forCamera(codec: .aac, container: .webm, encoding: Self.opus) == .reencode(Self.opus))
    }

    /// Every codec rec itself writes into a container is copied into it from a camera too.
    @Test func whatRecWritesIsCopied() {
        for container in Container.allCases {
            for family in container.audioFamilies ?? Array(PresetAudio.families.values) {
                let codec = [Codec.aac, .opus, .flac, .vorbis].first { $0.name == family } ?? .other(family)
                #expect(SoundPlan.forCamera(codec: codec, container: container, encoding: Self.aac) == .copy,
                        "\(family) into \(container.rawValue)")
            }
        }
    }
}
