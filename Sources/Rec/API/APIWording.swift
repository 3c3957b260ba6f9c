import Foundation

/// The command line's messages in this API's words: the sessions, cameras and writers under
/// the library are the command line's own, and their messages name its options (`--force`,
/// `--source test`, `rec devices`); a program has `overwrite: true`, `Source.testPattern`,
/// `Devices.cameras()` instead.
///
/// The rules go from the most particular to the least, so `--source test` is said before
/// `--source` is. RecAPIErrorTests provokes each error the library can give in its tests and
/// checks that none still names an option.
enum APIWording {
    static func message(_ text: String) -> String {
        var out = text
        for (pattern, replacement) in rules {
            out = pattern.stringByReplacingMatches(in: out, range: NSRange(out.startIndex..., in: out), withTemplate: replacement)
        }
        return out
    }

    /// Each pattern and its replacement template.
    static let patterns: [(String, String)] = [
        // Clauses with no counterpart in the library: left out.
        (#",? (or )?raise --start-timeout"#, ""),
        (#",? ?(or )?(use|try) --on-unplug wait to restart it automatically,?( or)?"#, ""),
        (#"; check the URL with `rec probe [^`]*`"#, "; check the URL"),
        (#"save clips to another disk with rec save -o [^;]*"#, "save clips to another disk (`ReplayBuffer.save(from:to:into:)`)"),
        (#"record to another disk with -o\b"#, "record to another disk"),
        (#"pass --force to overwrite it, or choose another -o"#, "pass `overwrite: true` to replace it, or choose another path"),
        (#"--force"#, "`overwrite: true`"),
        (#"(give a file name|choose another|) with -o\b"#, "$1"),
        (#"another -o\b"#, "another path"),
        (#"--source test:[0-9x@]+"#, "`Source.testPattern(width:height:fps:)`"),
        (#"--source test\b"#, "`Source.testPattern`"),
        (#"--source file:[^\s,;)]*|--source a file:PATH"#, "`Source.file(_:)`"),
        (#"--source v4l2:[^\s,;)]*"#, "`Source.camera(_:)`"),
        (#"--source (screen|x11[^\s,;)]*)"#, "`Source.screen`"),
        (#"--source"#, "`Configuration.source`"),
        (#"--pixel-format( [A-Z0-9]+)?"#, "`Configuration.cameraFormat`$1"),
        (#"--size( [0-9]+x[0-9]+)?"#, "`Configuration.size`"),
        (#"--fps"#, "`Configuration.frameRate`"),
        (#"--filter ([a-z]+)=[^\s,;)]*"#, "a `$1` filter in `Configuration.filters`"),
        (#"--filter"#, "`Configuration.filters`"),
        (#"\(?--audio none\)?"#, "no sound (`sounds: []`, `keepsSourceSound: false`)"),
        (#"--audio default"#, "`Sound.microphone`"),
        (#"--audio test"#, "`Sound.testTone`"),
        (#"--audio source"#, "`Sound.source`"),
        (#"--audio file"#, "a file's own sound (`Sound.source`)"),
        (#"--audio (alsa|pulse):([^\s,;)]*)"#, "`Sound.$1(\"$2\")`"),
        (#"--audio"#, "`Configuration.sounds`"),
        (#"\(--preset default\)"#, "(`Preset.default`)"),
        (#"--preset"#, "`Configuration.preset`"),
        (#"--duration"#, "`Configuration.duration`"),
        (#"--from must come before --to"#, "`from` must come before `to`"),
        (#"--last [0-9a-z]+"#, "`save(last:into:)`"),
        (#"--(from|to)\b"#, "`$1`"),
        (#"[`'](rec devices)[`']"#, "`Devices`"),
        (#"`rec presets( show [A-Z]+)?`"#, "`Preset.builtIn`"),
        (#"`rec status`"#, "`CaptureSession.statistics`"),
    ]

    /// `patterns` compiled; a test checks that none was left out for not compiling.
    static let rules: [(NSRegularExpression, String)] = patterns.compactMap { pattern, template in
        (try? NSRegularExpression(pattern: pattern)).map { ($0, template) }
    }
}
