import Foundation
import Testing
import TestPool

/// `rec trim` runs in `rec-trim`, which loads FFmpeg's demuxers, codecs and muxers but not
/// libavfilter or libavdevice: with the libraries they pull in (flite's voices, SDL, …) those are
/// 18 MiB of the process (docs/CUTTING.md, "Cost"). The dynamic loader names what it maps.
@Suite(.blocking) struct TrimProcessTests {
    /// The shared libraries the loader opened for `arguments`, by file name (`LD_DEBUG=files`,
    /// written to files beside the recording, one per process: `rec`, then what it execs).
    static func loaded(_ folder: RecFolder, _ arguments: [String]) throws -> (RecBinary.Result, Set<String>) {
        var environment = folder.environment
        environment["LD_DEBUG"] = "files"
        environment["LD_DEBUG_OUTPUT"] = folder.file("ld-debug")
        let result = try RecBinary.run(arguments, in: folder.path, environment: environment)
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("ld-debug") }
        let text = try logs.map { try String(contentsOfFile: folder.file($0), encoding: .utf8) }.joined(separator: "\n")
        let names = text.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            let rest = line[range.upperBound...]
            return String(rest.prefix { !$0.isWhitespace && $0 != ";" }.split(separator: "/").last ?? "")
        }
        return (result, Set(names))
    }

    @Test func aCutLoadsNeitherLibavfilterNorLibavdevice() throws {
        let folder = try RecFolder()
        try folder.record("in.mp4", frames: 30)
        let (result, libraries) = try Self.loaded(folder, ["trim", "in.mp4", "--from", "0.5s", "--to", "0.8s", "-o", "out.mp4"])
        #expect(result.status == 0, "\(result.error.suffix(2000))")
        #expect(try folder.stamps("out.mp4") == RecFolder.stamps(15..<24))
        #expect(libraries.contains { $0.hasPrefix("libavcodec.so") }, "\(libraries.sorted())")
        #expect(!libraries.contains { $0.hasPrefix("libavfilter.so") || $0.hasPrefix("libavdevice.so") }, "\(libraries.sorted())")
        // Nor libv4l2: V4L2 M2M encoders are asked through the kernel (TrimHardwareTests).
        #expect(!libraries.contains { $0.hasPrefix("libv4l2.so") }, "\(libraries.sorted())")
    }

    /// A recording maps them only when it uses them (Media's `SharedLibrary`): a filter opens
    /// libavfilter, a microphone libavdevice; a recording without either maps neither (a network
    /// camera's copy session saves ~7.7 MB of private memory so). Cameras still have libv4l2.
    @Test func aRecordingLoadsLibavfilterOnlyForAFilter() throws {
        let folder = try RecFolder()
        let plain = ["record", "--source", "test:160x120@30", "--frames", "3", "--pace", "off", "-o", "a.mkv"]
        let (result, libraries) = try Self.loaded(folder, plain)
        #expect(result.status == 0, "\(result.error.suffix(2000))")
        #expect(!libraries.contains { $0.hasPrefix("libavfilter.so") || $0.hasPrefix("libavdevice.so") }, "\(libraries.sorted())")
        #expect(libraries.contains { $0.hasPrefix("libv4l2.so") }, "\(libraries.sorted())")

        let filtered = try RecFolder()
        let (hflip, withFilter) = try Self.loaded(filtered, ["record", "--source", "test:160x120@30", "--frames", "3", "--pace", "off",
                                                            "--filter", "hflip", "-o", "b.mkv"])
        #expect(hflip.status == 0, "\(hflip.error.suffix(2000))")
        #expect(withFilter.contains { $0.hasPrefix("libavfilter.so") }, "\(withFilter.sorted())")
        #expect(try filtered.stamps("b.mkv").count == 3)
    }
}
