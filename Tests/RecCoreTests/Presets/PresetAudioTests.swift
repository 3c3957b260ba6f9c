import Testing
@testable import RecCore

@Suite("Preset audio keys")
struct PresetAudioTests {
    @Test func readsEveryAudioKeyAndPrintsItBack() throws {
        let preset = try parseMine("""
            {"container": "mkv", "encoder": "libx264", "audio": "opus", "audio_rate": 24000, "audio_channels": 1, "audio_bitrate": "96k"}
            """)
        #expect(preset.audio == PresetAudio(encoder: "libopus", sampleRate: 24_000, channels: 1, bitrate: 96_000))
        #expect(preset.audioEncoding == AudioEncoding(encoder: "libopus", sampleRate: 24_000, channels: 1, bitrate: 96_000))
        #expect(preset.jsonText.contains("""
              "audio": "libopus",
              "audio_rate": 24000,
              "audio_channels": 1,
              "audio_bitrate": "96k"
            }
            """))
        #expect(try Preset.parse(preset.jsonText, name: "mine", origin: "again") == preset)
    }

    /// What a preset that says nothing about sound records with, by container and video.
    @Test(arguments: [
        (#"{"container": "mp4", "encoder": "libx264"}"#, AudioEncoding(encoder: "aac", bitrate: 160_000)),
        (#"{"container": "mov", "encoder": "libx264"}"#, AudioEncoding(encoder: "aac", bitrate: 160_000)),
        (#"{"container": "mkv", "encoder": "mjpeg"}"#, AudioEncoding(encoder: "aac", bitrate: 160_000)),
        (#"{"container": "webm", "encoder": "libvpx-vp9"}"#, AudioEncoding(encoder: "libopus", bitrate: 128_000)),
        (#"{"container": "mkv", "encoder": "ffv1"}"#, AudioEncoding(encoder: "flac")),
        (#"{"container": "mov", "encoder": "ffv1"}"#, AudioEncoding(encoder: "pcm_s24le")),
        (#"{"container": "mkv", "encoder": "copy"}"#, AudioEncoding(encoder: "aac", bitrate: 160_000)),
        (#"{"container": "mp4", "encoder": "libx264", "audio_bitrate": 96000}"#, AudioEncoding(encoder: "aac", bitrate: 96_000)),
        (#"{"container": "mkv", "encoder": "libx264", "audio": "flac", "audio_rate": 96000}"#, AudioEncoding(encoder: "flac", sampleRate: 96_000)),
        (#"{"container": "mp4", "encoder": "libx264", "audio": "libopus"}"#, AudioEncoding(encoder: "libopus", bitrate: 128_000)),
        (#"{"container": "mov", "encoder": "libx264", "audio": "pcm_s16le", "audio_channels": 1}"#, AudioEncoding(encoder: "pcm_s16le", channels: 1)),
    ])
    func fillsWhatThePresetLeavesOutFromTheContainersDefault(json: String, expected: AudioEncoding) throws {
        let preset = try parseMine(json)
        #expect(preset.audioEncoding == expected)
        #expect(!preset.jsonText.contains("\"audio\"") || json.contains("\"audio\""))
    }

    @Test func noneRecordsNoSound() throws {
        let preset = try parseMine(#"{"container": "mp4", "encoder": "libx264", "audio": "none"}"#)
        #expect(preset.audio.isNone && preset.audioEncoding == nil)
        #expect(preset.jsonText.contains(#""audio": "none""#))
    }

    @Test func builtinsRecordTheDocumentedSound() throws {
        func sound(_ name: String) throws -> AudioEncoding? { try PresetLibrary.builtins().entry(named: name).preset.audioEncoding }
        #expect(try sound("lossless") == AudioEncoding(encoder: "flac"))
        #expect(try sound("default") == AudioEncoding(encoder: "aac", bitrate: 160_000))
        #expect(try sound("small") == AudioEncoding(encoder: "libopus", bitrate: 128_000))
    }

    /// A preset's `audio` replaces all of its base's sound keys; the other keys add to them.
    @Test func baseSoundIsReplacedByAudioAndAddedToByTheRest() throws {
        #expect(try parseMine(#"{"base": "lossless", "audio": "none"}"#).audioEncoding == nil)
        #expect(try parseMine(#"{"base": "lossless", "audio_rate": 96000}"#).audioEncoding == AudioEncoding(encoder: "flac", sampleRate: 96_000))
        let files = PresetFiles.inMemory([
            "/home/me/.config/rec/presets/loud.json": #"{"base": "lossless", "audio": "aac", "audio_bitrate": "256k"}"#,
        ])
        let library = try PresetLibrary.load(environment: ["HOME": "/home/me"], files: files)
        #expect(try library.entry(named: "loud").preset.audioEncoding == AudioEncoding(encoder: "aac", bitrate: 256_000))
    }

    @Test func standardNeverNamesWhatTheContainerRefuses() {
        for container in Container.allCases {
            for lossless in [false, true] {
                let encoding = AudioEncoding.standard(for: container, lossless: lossless)
                let family = PresetAudio.families[encoding.encoder]
                #expect(family != nil && container.audioRefusal(of: family!, encoder: encoding.encoder) == nil, "\(container) lossless: \(lossless)")
            }
        }
    }

    @Test(arguments: [("c:a", "audio"), ("acodec", "audio"), ("ar", "audio_rate"), ("ac", "audio_channels"), ("b:a", "audio_bitrate"), ("audio_chanels", "audio_channels")])
    func suggestsTheAudioKeyAnFFmpegUserMeant(typed: String, meant: String) {
        #expect(PresetKey.nearest(to: typed)?.rawValue == meant)
    }

    @Test(arguments: [
        (#"{"container": "mkv", "encoder": "libx264", "audio": "mp3"}"#, #""audio" "mp3" is not an encoder rec records sound with; use aac, libopus, flac, pcm_s16le, pcm_s24le (or "opus" for libopus), or "none" for no sound"#),
        (#"{"container": "mkv", "encoder": "libx264", "audio": "flak"}"#, #""audio" "flak" is not an encoder rec records sound with; did you mean "flac"?"#),
        (#"{"container": "mkv", "encoder": "libx264", "audio": 1}"#, #""audio" must be a string, not a number; for example "audio": "aac""#),
        (#"{"container": "mkv", "encoder": "libx264", "audio": ""}"#, #""audio" is empty"#),
        (#"{"container": "mkv", "encoder": "libx264", "audio_rate": 44.1}"#, #""audio_rate" must be a whole number, not 44.1"#),
        (#"{"container": "mkv", "encoder": "libx264", "audio_rate": "48000"}"#, #""audio_rate" must be a number, not a string"#),
        (#"{"container": "mkv", "encoder": "libx264", "audio_rate": 48}"#, #""audio_rate" is 48; it must be from 8000 to 192000 samples per second (Hz), e.g. 48000; did you mean 48000?"#),
        (#"{"container": "mkv", "encoder": "libx264", "audio_rate": 384000}"#, #""audio_rate" is 384000; it must be from 8000 to 192000"#),
        (#"{"container": "mkv", "encoder": "libx264", "audio_channels": 0}"#, #""audio_channels" is 0; it must be from 1 to 8"#),
        (#"{"container": "mkv", "encoder": "libx264", "audio_channels": 9}"#, #""audio_channels" is 9; it must be from 1 to 8"#),
        (#"{"container": "mkv", "encoder": "libx264", "audio_bitrate": "loud"}"#, #""audio_bitrate" "loud" is not a bitrate; write bits per second like "160k", "96k" or 160000"#),
        (#"{"container": "mkv", "encoder": "libx264", "audio_bitrate": 160}"#, #""audio_bitrate" 160 is only 160 bits per second; did you mean "160k"? (the lowest is 6k)"#),
        (#"{"container": "mkv", "encoder": "libx264", "audio": "none", "audio_rate": 48000, "audio_bitrate": "96k"}"#, #""audio" is "none", so "audio_rate", "audio_bitrate" cannot apply; remove them"#),
        (#"{"container": "mkv", "encoder": "libx264", "audio": "flac", "audio_bitrate": "96k"}"#, #"flac is lossless and takes no "audio_bitrate"; remove it"#),
        (#"{"container": "mkv", "encoder": "ffv1", "audio_bitrate": "96k"}"#, #"flac (the default for lossless video in mkv) is lossless and takes no "audio_bitrate""#),
        (#"{"container": "mp4", "encoder": "libx264", "audio": "flac"}"#, #"FFmpeg 5.1 writes FLAC into mp4 only as an experimental feature, which rec does not turn on; use container "mkv" for FLAC, or "audio": "aac""#),
        (#"{"container": "mp4", "encoder": "libx264", "audio": "pcm_s16le"}"#, #"mp4 cannot hold pcm_s16le sound (audio pcm_s16le); use "audio": "aac", or container "mov" or "mkv""#),
        (#"{"container": "mov", "encoder": "libx264", "audio": "opus"}"#, #"mov cannot hold opus sound (audio libopus); use "audio": "aac", or container "mp4" or "mkv" or "webm""#),
        (#"{"container": "mov", "encoder": "libx264", "audio": "flac"}"#, #"mov cannot hold flac sound (audio flac); use "audio": "aac", or container "mkv""#),
        (#"{"container": "webm", "encoder": "libvpx-vp9", "audio": "aac"}"#, #"webm cannot hold aac sound (audio aac); use "audio": "libopus", or container "mp4" or "mov" or "mkv""#),
        (#"{"container": "webm", "encoder": "libvpx-vp9", "audio": "flac"}"#, #"webm cannot hold flac sound (audio flac); use "audio": "libopus", or container "mkv""#),
    ])
    func rejectsWithAMessageSayingWhatToWrite(json: String, message: String) {
        expectRefusal(json, saying: message)
    }
}
