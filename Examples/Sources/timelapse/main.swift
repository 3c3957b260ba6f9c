// timelapse: draws its own pictures, a dusk-to-dawn sky that brightens a step each frame with a
// bar that grows across it, and encodes them into OUTPUT with an AssetWriter at exact frame times.
//
//   timelapse OUTPUT [--frames N] [--size WxH]
//
// Frame n is at n/30 s to the nearest microsecond (0, 33333, 66667, …), as a camera's would be,
// and its sky's luma is 16 + 3n (at most 235): the file's frames can be told apart by brightness.
import Foundation
import Rec

var output: URL?
var count = 60
var (width, height) = (320, 180)
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--frames": count = max(1, Int(arguments.popFirst() ?? "") ?? 1)
    case "--size":
        let parts = (arguments.popFirst() ?? "").split(separator: "x").compactMap { Int($0) }
        if parts.count == 2 { (width, height) = (parts[0] & ~1, parts[1] & ~1) }   // even, for 4:2:0
    default: output = URL(fileURLWithPath: argument)
    }
}

/// Frame `n` of `total`: luma 16 + 3n everywhere but a bar in the bottom eighth, as wide as the
/// share of the frames done, at the opposite brightness; neutral colour.
func picture(_ n: Int, of total: Int, width: Int, height: Int) throws(RecError) -> Frame {
    let frame = try Frame(width: width, height: height, time: .microseconds((n * 1_000_000 + 15) / 30))
    let sky = UInt8(min(235, 16 + 3 * n))
    let bar = (width * (n + 1) / total, height - height / 8)          // its width, and its top row
    _ = frame.withMutablePlane(0) { bytes, bytesPerRow in
        for row in 0..<height {
            bytes[row * bytesPerRow..<row * bytesPerRow + width].initializeMemory(as: UInt8.self, repeating: sky)
            if row >= bar.1 { bytes[row * bytesPerRow..<row * bytesPerRow + bar.0].initializeMemory(as: UInt8.self, repeating: 251 - sky) }
        }
    }
    for plane in 1...2 {                                               // chroma: grey
        _ = frame.withMutablePlane(plane) { bytes, _ in bytes.initializeMemory(as: UInt8.self, repeating: 128) }
    }
    return frame
}

do throws(RecError) {
    guard let output else { throw RecError(kind: .invalidRequest, message: "usage: timelapse OUTPUT [--frames N] [--size WxH]") }
    let writer = try await AssetWriter(url: output, width: width, height: height, frameRate: 30, overwrite: true)
    for n in 0..<count {
        try writer.append(try picture(n, of: count, width: width, height: height))                 // waits while the encoder is 2 frames behind
    }
    print(try await writer.finish())                                 // the file is whole when this returns
} catch {
    FileHandle.standardError.write(Data("timelapse: \(error)\n".utf8))
    exit(error.exitStatus)
}
