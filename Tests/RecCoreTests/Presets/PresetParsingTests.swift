import Testing
@testable import RecCore

@Suite("Preset parsing")
struct PresetParsingTests {
    @Test func readsEveryKey() throws {
        let preset = try parseMine("""
            {"description": "d", "container": "mkv", "encoder": "libx264", "pixel_format": "yuv422p",
             "bitrate": "2.5M", "keyframe_interval": 0.5, "bframes": 2, "preset": "fast", "tune": "film",
             "filter": "hflip", "size": "1280x720", "fps": "30000/1001", "options": {"threads": 2, "x264-params": "stitchable=1"}}
            """)
        #expect(preset == Preset(name: "mine", description: "d", container: .mkv, encoder: "libx264", pixelFormat: "yuv422p",
                                 rateControl: .bitrate(2_500_000), keyframeInterval: 0.5, bframes: 2, speed: "fast", tune: "film",
                                 filter: "hflip", size: FrameSize(width: 1280, height: 720), fps: Rational(30000, 1001),
                                 options: ["threads": "2", "x264-params": "stitchable=1"]))
        #expect(preset.gopSize(frameRate: Rational(30000, 1001)) == 15)
    }

    @Test func gopIsAtLeastOneFrame() throws {
        let short = try parseMine(#"{"container": "mkv", "encoder": "ffv1", "keyframe_interval": 0.001}"#)
        #expect(short.gopSize(frameRate: Rational(30, 1)) == 1)
    }

    @Test(arguments: [("g", "keyframe_interval"), ("b:v", "bitrate"), ("speed", "preset"), ("keyframe", "keyframe_interval"), ("bframe", "bframes")])
    func suggestsTheKeyAnFFmpegUserMeant(typed: String, meant: String) {
        #expect(PresetKey.nearest(to: typed)?.rawValue == meant)
    }

    @Test func baseTakesABuiltinAndReplacesItsRateControl() throws {
        let preset = try parseMine(#"{"base": "default", "bitrate": "6M", "options": {"threads": "2"}}"#)
        #expect(preset.encoder == "libx264" && preset.speed == "veryfast" && preset.rateControl == .bitrate(6_000_000))
        #expect(preset.options == ["threads": "2"])
    }

    @Test(arguments: [
        ("{\"container\": \"mp4\",\n \"encoder\": \"libx264\",\n}", "is not valid JSON: line 3, column 1"),
        ("[1]", "must be a JSON object"),
        (#"{"container": "mp4", "encoder": "libx264", "crff": 20}"#, #"unknown key "crff"; did you mean "crf"? valid keys are description, base,"#),
        (#"{"container": "mp4", "encoder": "libx264", "pix_fmt": "yuv420p"}"#, #"did you mean "pixel_format"?"#),
        (#"{"name": "x", "container": "mp4", "encoder": "libx264"}"#, "a preset is named by its file name"),
        (#"{"encoder": "libx264"}"#, #""container" is missing; add one of mp4, mov, mkv, webm"#),
        (#"{"container": "avi", "encoder": "libx264"}"#, #"unknown container "avi"; use one of mp4, mov, mkv, webm"#),
        (#"{"container": "mp4"}"#, #""encoder" is missing"#),
        (#"{"container": "mp4", "encoder": "libx264", "crf": "23"}"#, #""crf" must be a number, not a string; for example "crf": 23"#),
        (#"{"container": "mp4", "encoder": "libx264", "bframes": 1.5}"#, #""bframes" must be a whole number, not 1.5"#),
        (#"{"container": "mp4", "encoder": "libx264", "options": {"a": [1]}}"#, #"option "a" in "options" must be a string, not an array"#),
        (#"{"container": "mp4", "encoder": "libx264", "crf": -1}"#, #""crf" is -1; it cannot be negative"#),
        (#"{"container": "mp4", "encoder": "libx264", "crf": 52}"#, #""crf" 52 is out of range for libx264; use 0 to 51"#),
        (#"{"container": "mp4", "encoder": "libx264", "crf": 20, "bitrate": "4M"}"#, #""crf" and "bitrate" are both set; keep one"#),
        (#"{"container": "mp4", "encoder": "libx264", "keyframe_interval": 0}"#, #""keyframe_interval" is 0 seconds; it must be above 0"#),
        (#"{"container": "mp4", "encoder": "libx264", "size": "1280*720"}"#, #""size" "1280*720" is not WIDTHxHEIGHT"#),
        (#"{"container": "mp4", "encoder": "libx264", "bitrate": "4Q"}"#, #""bitrate" "4Q" is not a bitrate; write bits per second like "4M""#),
        (#"{"container": "mp4", "encoder": "libx264", "bitrate": 4}"#, #""bitrate" 4 is only 4 bits per second; did you mean "4M"?"#),
        (#"{"container": "mp4", "encoder": "libx264", "fps": 29.97}"#, #""fps" 29.97 is not a frame rate; write a whole number like 30 or a fraction like "30000/1001""#),
        (#"{"container": "mkv", "encoder": "mjpeg", "qscale": 40}"#, #""qscale" is 40; it must be from 1 (best) to 31"#),
        (#"{"container": "mp4", "encoder": "ffv1"}"#, #"mp4 cannot hold ffv1 (encoder ffv1); use container "mov" or "mkv""#),
        (#"{"container": "webm", "encoder": "libx264"}"#, #"webm cannot hold h264 (encoder libx264); use container "mp4" or "mov" or "mkv""#),
        (#"{"container": "mov", "encoder": "h264_vaapi", "pixel_format": "YUV420P"}"#, #""pixel_format" "YUV420P" is not an FFmpeg pixel format name"#),
        (#"{"container": "mkv", "encoder": "mjpeg", "crf": 20}"#, #"mjpeg has no crf; use "qscale""#),
        (#"{"container": "mkv", "encoder": "ffv1", "bitrate": "4M"}"#, "ffv1 takes no bitrate"),
        (#"{"container": "mp4", "encoder": "libx264", "qscale": 3}"#, #"libx264 takes no qscale; use "crf""#),
        (#"{"container": "mp4", "encoder": "libx264", "preset": "veryfasst"}"#, #"libx264 has no preset "veryfasst"; did you mean "veryfast"? it takes ultrafast,"#),
        (#"{"container": "mp4", "encoder": "libx265", "tune": "film"}"#, #"libx265 has no tune "film"; it takes psnr"#),
        (#"{"container": "mkv", "encoder": "copy", "crf": 20, "filter": "hflip"}"#, #"encoder "copy" stores the camera's MJPEG as it comes, so "crf", "filter" cannot apply"#),
        (#"{"base": "defualt"}"#, #""base" names no built-in preset 'defualt'; built-ins are camera-copy, default, lossless"#),
        (#"{"container": "mp4", "encoder": "libx264", "filter": ""}"#, #""filter" is empty"#),
        (#"{"description": "a\nb", "container": "mp4", "encoder": "libx264"}"#, #""description" must be one line"#),
    ])
    func rejectsWithAMessageSayingWhatToWrite(json: String, message: String) {
        expectRefusal(json, saying: message)
    }

    @Test(arguments: [("4M", 4_000_000), ("2500k", 2_500_000), ("1.5M", 1_500_000), ("800000", 800_000), ("1G", 1_000_000_000)])
    func parsesBitrates(text: String, bits: Int) {
        #expect(RateControl.parseBitrate(text) == bits)
    }

    @Test(arguments: ["", "M", "-4M", "4MB", "4 M", "1e6"])
    func rejectsBitrates(text: String) {
        #expect(RateControl.parseBitrate(text) == nil)
    }
}
