import Foundation
import Media
import RecCore
import Testing
import TestPool

/// Parses a preset named "mine" from "/p/mine.json" and validates it against this FFmpeg.
private func validate(_ json: String) throws(RecError) {
    try EncoderCatalog.validate(try Preset.parse(json, name: "mine", origin: "/p/mine.json"), origin: "/p/mine.json")
}

@Suite("EncoderCatalog", .blocking)
struct EncoderCatalogTests {
    @Test func listsVideoEncodersOnly() {
        let names = EncoderCatalog.videoEncoderNames()
        #expect(names.contains("libx264") && names.contains("ffv1") && names.contains("mjpeg"))
        #expect(!names.contains("aac") && !names.contains("pcm_s16le"))
        #expect(EncoderCatalog.hasVideoEncoder("libx264") && !EncoderCatalog.hasVideoEncoder("aac"))
        #expect(EncoderCatalog.codecFamily(of: "libx265") == "hevc")
        #expect(EncoderCatalog.pixelFormats(of: "mjpeg")?.first == "yuvj420p")
    }

    @Test(arguments: BuiltinPresets.names)
    func everyBuiltinValidates(name: String) throws {
        let entry = try PresetLibrary.builtins().entry(named: name)
        try EncoderCatalog.validate(entry.preset)
        if let family = EncoderCatalog.codecFamily(of: entry.preset.encoder), let known = entry.preset.codecFamily {
            #expect(family == known)
        }
    }

    @Test(arguments: [
        (#"{"container": "mp4", "encoder": "x265"}"#, "unknown encoder 'x265'; did you mean 'libx265'? this FFmpeg offers libx264, libx265,"),
        (#"{"container": "mkv", "encoder": "aac"}"#, "'aac' is not a video encoder;"),
        (#"{"container": "mp4", "encoder": "prores_ks"}"#, #"mp4 cannot hold prores (encoder prores_ks); use container "mov" or "mkv""#),
        (#"{"container": "mp4", "encoder": "libx264", "pixel_format": "rgb48"}"#, "libx264 cannot take pixel format 'rgb48'; it takes yuv420p, yuvj420p, yuv422p,"),
        (#"{"container": "mp4", "encoder": "libx264", "pixel_format": "yuv999p"}"#, "unknown pixel format 'yuv999p'; `ffmpeg -pix_fmts` lists them"),
        (#"{"container": "webm", "encoder": "libvpx-vp9", "preset": "fast"}"#, #"libvpx-vp9 has no option 'preset' (remove "preset" or set the encoder's own speed option in "options"); `ffmpeg -h encoder=libvpx-vp9`"#),
        (#"{"container": "mp4", "encoder": "libx264", "options": {"no-such-option": "1"}}"#, "libx264 has no option 'no-such-option';"),
        (#"{"container": "mp4", "encoder": "libx264", "options": {"bf": "many"}}"#, "libx264 rejects bf=many ("),
        (#"{"container": "mkv", "encoder": "libx264", "audio": "libopus", "audio_rate": 44100}"#,
         #"libopus cannot record at 44100 Hz; set "audio_rate" to one of 48000, 24000, 16000, 12000, 8000 (the nearest is 48000)"#),
        (#"{"container": "mkv", "encoder": "copy", "audio": "opus", "audio_rate": 22050}"#, "libopus cannot record at 22050 Hz;"),
        (#"{"container": "mp4", "encoder": "libx264", "audio_rate": 50000}"#, #"aac cannot record at 50000 Hz; set "audio_rate" to one of 96000, 88200, 64000, 48000,"#),
        (#"{"container": "mp4", "encoder": "libx264", "audio_bitrate": "1M"}"#, #""audio_bitrate" 1M is outside what aac takes at 48000 Hz, 2 ch: use 6k to 576k"#),
        (#"{"container": "webm", "encoder": "libvpx-vp9", "audio_channels": 1, "audio_bitrate": "300k"}"#,
         #""audio_bitrate" 300k is outside what libopus takes at 48000 Hz, 1 ch: use 6k to 256k"#),
    ])
    func rejectsWhatThisFFmpegCannotDo(json: String, message: String) {
        #expect {
            try validate(json)
        } throws: { error in
            guard let e = error as? RecError else { return false }
            let ok = e.code == .usage && e.location == "/p/mine.json" && e.message.hasPrefix("preset 'mine' (/p/mine.json): ")
                && e.message.contains(message)
            if !ok { Issue.record("got: \(e.message)") }
            return ok
        }
    }

    /// Sound this FFmpeg can record, opened for real: what validates opens.
    @Test(arguments: [#"{"container": "mkv", "encoder": "libx264", "audio": "libopus", "audio_rate": 24000, "audio_bitrate": "64k"}"#,
                      #"{"container": "mov", "encoder": "libx264", "audio": "pcm_s16le", "audio_channels": 8}"#,
                      #"{"container": "mp4", "encoder": "libx264", "audio_rate": 44100, "audio_bitrate": "512k"}"#])
    func soundThatValidatesOpens(json: String) throws {
        try validate(json)
        let encoding = try #require(try Preset.parse(json, name: "mine", origin: "/p/mine.json").audioEncoding)
        _ = try AudioPipeline(encoding: encoding, input: .s16(rate: 48_000, channels: 2))
    }

    /// `PresetFiles.local` on a real folder: only .json files count, and a missing file is a usage error.
    @Test func localFilesLoadUserPresetsFromXDGConfigHome() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("rec-presets-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: config) }
        let folder = config.appendingPathComponent("rec/presets")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"base": "mjpeg", "qscale": 5}"#.utf8).write(to: folder.appendingPathComponent("night.json"))
        try Data("not a preset".utf8).write(to: folder.appendingPathComponent("README.txt"))
        let library = try PresetLibrary.load(environment: ["XDG_CONFIG_HOME": config.path], files: .local)
        let night = try library.entry(named: "night")
        #expect(night.preset.rateControl == .qscale(5))
        #expect(night.source == .user(path: folder.appendingPathComponent("night.json").path, overridesBuiltin: false))
        #expect(library.names.count == BuiltinPresets.names.count + 1)
        #expect(throws: RecError.self) { try library.resolve(config.path + "/missing.json", files: .local) }
    }
}
