import Foundation
import RecCore
import VideoDevices

/// `rec devices` output: human text, or JSON for scripts.
package enum CameraListFormatter {
    /// One block per camera: node, card, driver and bus, stable path, then each format's sizes
    /// with their frame rates, e.g. "    1280x720   30, 15 fps".
    package static func text(_ cameras: [CameraInfo]) -> String {
        cameras.map { camera in
            var lines = ["\(camera.path)  \(camera.card)  (\(camera.driver), \(camera.busInfo))"]
            if let stable = camera.stablePath { lines.append("  stable path: \(stable)") }
            for format in camera.formats {
                lines.append("  \(format.fourcc)  \(format.name)" + (format.fourcc.isSupported ? "" : "  (rec cannot read this)"))
                switch format.sizes {
                case .discrete(let modes):
                    let width = modes.map(\.size.description.count).max() ?? 0
                    for mode in modes {
                        let size = mode.size.description
                        lines.append("    \(size)\(String(repeating: " ", count: width - size.count))  \(rates(mode.intervals))")
                    }
                case .stepwise(let min, let max, let step, let intervals):
                    lines.append("    \(min) to \(max) in steps of \(step)  \(rates(intervals)) at \(max)")
                }
            }
            if !camera.controls.isEmpty { lines += ["  controls:"] + ControlListFormatter.lines(camera.controls) }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n\n") + "\n"
    }

    /// "30, 15 fps", "5 to 30 fps".
    static func rates(_ intervals: FrameIntervals) -> String {
        switch intervals {
        case .discrete(let list):
            list.isEmpty ? "rate not reported" : list.map { formatRate($0.inverted.doubleValue) }.joined(separator: ", ") + " fps"
        case .stepwise(let min, let max, _):
            "\(formatRate(max.inverted.doubleValue)) to \(formatRate(min.inverted.doubleValue)) fps"
        }
    }

    /// A JSON array of cameras: path, stablePath, card, driver, busInfo, and formats with
    /// fourcc, name, compressed and either sizes (width, height, fps) or a range, and controls.
    package static func json(_ cameras: [CameraInfo]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(cameras.map(JSONCamera.init)) else { return "[]" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

private struct JSONCamera: Encodable {
    var path: String, stablePath: String?, card: String, driver: String, busInfo: String
    var formats: [JSONFormat]
    var controls: [ControlState]?

    init(_ c: CameraInfo) {
        (path, stablePath, card, driver, busInfo) = (c.path, c.stablePath, c.card, c.driver, c.busInfo)
        formats = c.formats.map(JSONFormat.init)
        controls = c.controls.isEmpty ? nil : c.controls.map(ControlState.init)
    }
}

private struct JSONFormat: Encodable {
    struct Size: Encodable { var width: Int, height: Int, fps: [Double]?, minFps: Double?, maxFps: Double? }
    struct Range: Encodable { var min: Size, max: Size, step: Size }
    var fourcc: String, name: String, compressed: Bool, supported: Bool
    var sizes: [Size]?
    var range: Range?

    init(_ f: CameraFormat) {
        (fourcc, name, compressed, supported) = (f.fourcc.description, f.name, f.isCompressed, f.fourcc.isSupported)
        switch f.sizes {
        case .discrete(let modes): sizes = modes.map { Self.size($0.size, $0.intervals) }
        case .stepwise(let min, let max, let step, let intervals):
            range = Range(min: Self.size(min, nil), max: Self.size(max, intervals), step: Self.size(step, nil))
        }
    }

    static func size(_ s: FrameSize, _ intervals: FrameIntervals?) -> Size {
        var size = Size(width: s.width, height: s.height, fps: nil, minFps: nil, maxFps: nil)
        switch intervals {
        case .discrete(let list)?: size.fps = list.map { ($0.inverted.doubleValue * 100).rounded() / 100 }
        case .stepwise(let min, let max, _)?: (size.minFps, size.maxFps) = (1 / max.doubleValue, 1 / min.doubleValue)
        case nil: break
        }
        return size
    }
}
