import Foundation
import Testing

/// The fake V4L2 kernel driver (Tests/FakeKernel/fakev4l2.c) built once with gcc and preloaded
/// into the real `rec`, so `rec devices`, `rec record` and sessions run through the real libv4l2
/// and its plugins against scripted cameras.
enum FakeKernel {
    /// The built library, or the reason it could not be built (no gcc).
    static let library: Result<String, FakeKernelUnavailable> = {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("FakeKernel/fakev4l2.c").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("rec-fakev4l2-\(UUID()).so").path
        let gcc = Process()
        gcc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gcc.arguments = ["gcc", "-shared", "-fPIC", "-O1", "-Wall", "-o", output, source, "-ldl", "-lpthread"]
        gcc.standardError = FileHandle.nullDevice
        guard (try? gcc.run()) != nil else { return .failure(FakeKernelUnavailable()) }
        gcc.waitUntilExit()
        return gcc.terminationStatus == 0 ? .success(output) : .failure(FakeKernelUnavailable())
    }()

    /// A folder with stand-in device nodes the fake claims, e.g. `["video0": "yuyv"]`.
    struct Machine {
        let folder: String
        let devices: String
        var environment: [String: String]

        init(_ nodes: [(String, String)], faults: [String: String] = [:]) throws {
            folder = try RecBinary.temporaryFolder()
            try FileManager.default.createDirectory(atPath: folder + "/dev", withIntermediateDirectories: true)
            let folder = self.folder
            for (node, _) in nodes { _ = FileManager.default.createFile(atPath: folder + "/dev/" + node, contents: nil) }
            devices = nodes.map { "\(folder)/dev/\($0.0):\($0.1)" }.joined(separator: ",")
            var environment = ProcessInfo.processInfo.environment
            environment["LD_PRELOAD"] = try FakeKernel.library.get()
            environment["REC_DEVICE_DIR"] = folder + "/dev"
            environment["FAKEV4L2_DEVICES"] = devices
            environment["FAKEV4L2_LOG"] = folder + "/driver.log"
            environment["NO_COLOR"] = "1"
            for (key, value) in faults { environment[key] = value }
            if nodes.contains(where: { $0.1 == "mjpeg" }) { environment["FAKEV4L2_JPEG"] = try FakeKernel.jpeg(in: folder) }
            self.environment = environment
        }

        func node(_ name: String) -> String { folder + "/dev/" + name }

        /// Runs the real rec with the fake driver preloaded.
        func rec(_ arguments: [String]) throws -> RecBinary.Result {
            try RecBinary.run(arguments, in: folder, environment: environment)
        }

        /// What the driver logged: "open …", "streamon … 50fps".
        var driverLog: [String] {
            ((try? String(contentsOfFile: folder + "/driver.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    /// A 320x240 grey JPEG made by the ffmpeg CLI.
    static func jpeg(in folder: String) throws -> String {
        let path = folder + "/frame.jpg"
        _ = try ToolOutput.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=gray:s=320x240", "-frames:v", "1",
                                    "-pix_fmt", "yuvj422p", "-y", path])
        return path
    }

    /// The frame numbers the fake drew into a recorded file (YUYV cameras), in file order,
    /// read back with ffmpeg as 4x4 grids of black and white blocks.
    /// `filter` (an ffmpeg -vf chain) first, e.g. one field scaled back to 320x240.
    static func frameNumbers(_ file: String, filter: String? = nil) throws -> [Int] {
        let gray = try ToolOutput.run("ffmpeg", ["-v", "error", "-i", file, "-vsync", "0"] + (filter.map { ["-vf", $0] } ?? [])
                                      + ["-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let frameBytes = 320 * 240
        return stride(from: 0, to: gray.count - frameBytes + 1, by: frameBytes).map { start in
            (0..<16).reduce(0) { number, bit in
                let x = (bit % 4) * 80 + 40, y = (bit / 4) * 60 + 30
                return number << 1 | (gray[start + y * 320 + x] > 128 ? 1 : 0)
            }
        }
    }

    /// The "frame N" numbers in a copy recording's JPEGs, in file order.
    static func jpegNumbers(_ file: String) throws -> [Int] {
        let data = try ToolOutput.run("ffmpeg", ["-v", "error", "-i", file, "-c", "copy", "-f", "mjpeg", "-"])
        var numbers: [Int] = []
        let marker = Array("frame ".utf8)
        var i = 0
        while i + 10 < data.count {
            if data[i] == 0xFF, data[i + 1] == 0xFE, Array(data[(i + 4)..<(i + 10)]) == marker {
                var j = i + 10, n = 0
                while j < data.count, (48...57).contains(data[j]) { n = n * 10 + Int(data[j] - 48); j += 1 }
                numbers.append(n)
                i = j
            } else { i += 1 }
        }
        return numbers
    }
}

struct FakeKernelUnavailable: Error, CustomStringConvertible {
    var description: String { "gcc could not build Tests/FakeKernel/fakev4l2.c" }
}

/// Runs a tool such as ffmpeg and returns its standard output.
enum ToolOutput {
    static func run(_ name: String, _ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(data)
    }
}
