import Foundation
import Encoding
import Media
import RecCore

/// A pixel format, by FFmpeg's name for it: how a ``Frame``'s pixels are laid out.
///
/// Frames arrive in their source's own format, converted only when it must be: the stand-in
/// camera gives `yuv420p`; a V4L2 camera what it was asked for (`yuyv422` for YUYV, `nv12`, or
/// `yuvj422p`/`yuvj420p` decoded from MJPEG); a network camera or file its decoder's (`yuv420p`,
/// `yuvj420p`); an X11 or Wayland screen `bgr0` (`yuv420p` when the preset encodes that and no
/// filter runs). A session that copies its source's stream gives encoded frames (``Codec``).
public enum PixelFormat: String, Sendable, CaseIterable {
    /// Planar 4:2:0 YUV, video range: the stand-in camera's, most decoders' and encoders'.
    case yuv420p
    /// Planar 4:2:0 YUV, full range: decoded MJPEG and some cameras' H.264.
    case yuvj420p
    /// Planar 4:2:2 YUV, video range.
    case yuv422p
    /// Planar 4:2:2 YUV, full range: decoded MJPEG from most USB cameras.
    case yuvj422p
    /// Planar 4:4:4 YUV, video range.
    case yuv444p
    /// Planar 4:4:4 YUV, full range.
    case yuvj444p
    /// 4:2:0 YUV with the chroma interleaved in one plane (a V4L2 camera's NV12).
    case nv12
    /// `nv12` with the chroma the other way round.
    case nv21
    /// Packed 4:2:2 YUV, one plane (a V4L2 camera's YUYV).
    case yuyv422
    /// Packed 4:2:2 YUV in the other byte order (UYVY).
    case uyvy422
    /// Packed RGB, 3 bytes a pixel.
    case rgb24
    /// Packed BGR, 3 bytes a pixel.
    case bgr24
    /// Packed RGB with alpha, 4 bytes a pixel.
    case rgba
    /// Packed BGR with alpha, 4 bytes a pixel.
    case bgra
    /// Packed alpha then RGB, 4 bytes a pixel.
    case argb
    /// Packed alpha then BGR, 4 bytes a pixel.
    case abgr
    /// Packed RGB and an unused byte.
    case rgb0
    /// Packed BGR and an unused byte: an X11 or Wayland screen's.
    case bgr0
    /// 8-bit luma alone.
    case gray

    /// FFmpeg's name: `yuv420p`, `bgr0`, …
    public var name: String { rawValue }

    /// The format FFmpeg calls `name`, if this enum has it.
    public init?(name: String) { self.init(rawValue: name) }

    var media: Media.PixelFormat {
        Media.PixelFormat(name: rawValue) ?? .none
    }
}

/// A compressed video format, by FFmpeg's name: what an encoded ``Frame`` holds.
public enum Codec: String, Sendable, CaseIterable {
    /// H.264 (AVC): most network cameras', and the `default` preset's.
    case h264
    /// H.265 (HEVC).
    case hevc
    /// Motion JPEG: a USB camera's own compression.
    case mjpeg
    /// AV1.
    case av1
    /// VP8.
    case vp8
    /// VP9: the `small` preset's.
    case vp9
    /// MPEG-4 Part 2.
    case mpeg4
    /// FFV1, lossless: the `lossless` preset's.
    case ffv1

    /// FFmpeg's name: `h264`, `hevc`, …
    public var name: String { rawValue }

    /// The codec FFmpeg calls `name`, if this enum has it.
    public init?(name: String) { self.init(rawValue: name) }
}

/// A V4L2 camera's pixel format, by its four-character code: what to ask a camera for
/// (``CaptureSession/Configuration/cameraFormat``) and what it offers (``Devices/Mode/format``).
public struct CameraPixelFormat: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The four-character code, such as `YUYV`.
    public let rawValue: String

    /// A four-character code (letters, digits and spaces); nil for anything else.
    public init?(rawValue: String) {
        guard rawValue.utf8.count == 4, rawValue.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == " ") }) else {
            return nil
        }
        self.rawValue = rawValue
    }

    init(code: String) { rawValue = code }

    /// Packed 4:2:2 YUV, the uncompressed format every UVC camera offers.
    public static let yuyv = CameraPixelFormat(code: "YUYV")
    /// Motion JPEG: the camera compresses each picture; larger sizes at full rate over USB 2.
    public static let mjpeg = CameraPixelFormat(code: "MJPG")
    /// Semi-planar 4:2:0 YUV.
    public static let nv12 = CameraPixelFormat(code: "NV12")
    /// Planar 4:2:0 YUV.
    public static let yu12 = CameraPixelFormat(code: "YU12")
    /// H.264 from the camera's own encoder.
    public static let h264 = CameraPixelFormat(code: "H264")
    /// Packed 4:2:2 YUV, the other byte order.
    public static let uyvy = CameraPixelFormat(code: "UYVY")

    public var description: String { rawValue }
}

/// An FFmpeg filter chain applied to the pictures before they are encoded, checked when it is
/// made: each filter exists and takes its options.
///
/// ```swift
/// configuration.filters = [.horizontalFlip, try Filter("eq=contrast=1.2")]
/// ```
public struct Filter: Sendable, Hashable, CustomStringConvertible {
    /// The chain in FFmpeg's syntax, such as `hflip` or `scale=640:360,eq=contrast=1.2`.
    public let description: String

    /// A chain in FFmpeg's filter syntax.
    ///
    /// - Throws: ``RecError/Kind/invalidRequest`` naming what libavfilter refused (a filter
    ///   it does not have, an option it does not take, a value out of range). What depends on
    ///   the pictures (a crop larger than them) is found when the session starts.
    public init(_ description: String) throws(RecError) {
        FFmpegLog.quiet()   // libavfilter's own complaint is the error's cause, not a line on stderr
        do {
            try FilterGraph.validate(description)
        } catch {
            throw RecError(kind: .invalidRequest, message: "'\(description)' is not a filter chain FFmpeg can run; check the filters' names and options",
                           cause: error.description)
        }
        self.description = description
    }

    private init(checked description: String) { self.description = description }

    /// Mirrors the picture left to right.
    public static let horizontalFlip = Filter(checked: "hflip")
    /// Turns the picture upside down.
    public static let verticalFlip = Filter(checked: "vflip")
    /// Scales the picture to `width`x`height`.
    public static func scale(width: Int, height: Int) -> Filter { Filter(checked: "scale=\(max(1, width)):\(max(1, height))") }
    /// Keeps `fps` frames a second (dropping or repeating frames).
    public static func frameRate(_ fps: Int) -> Filter { Filter(checked: "fps=\(max(1, fps))") }
}

/// A recording preset: the codec and its settings (`rec presets` lists them).
///
/// Built-ins are static members; a preset of your own is loaded from its JSON file (the format
/// of docs/PRESETS.md) and checked when it is loaded.
public struct Preset: Sendable, Hashable, CustomStringConvertible {
    /// The preset's name: a built-in's, or the file's name without `.json`.
    public let name: String
    /// What the session's setup resolves: the name, or the file's path.
    let argument: String

    private init(builtIn name: String) { (self.name, argument) = (name, name) }

    /// H.264 at a quality good for most recordings.
    public static let `default` = Preset(builtIn: "default")
    /// H.264 at a higher quality, for footage that is edited later.
    public static let quality = Preset(builtIn: "quality")
    /// H.264 at a small size, for long recordings.
    public static let small = Preset(builtIn: "small")
    /// Lossless FFV1 in Matroska.
    public static let lossless = Preset(builtIn: "lossless")
    /// Motion JPEG, every frame a keyframe.
    public static let mjpeg = Preset(builtIn: "mjpeg")
    /// The source's own stream stored as it comes (a network camera's H.264 or H.265, a USB
    /// camera's MJPEG): no re-encoding.
    public static let cameraCopy = Preset(builtIn: "camera-copy")
    /// The built-in presets.
    public static let builtIn: [Preset] = [.default, .quality, .small, .lossless, .mjpeg, .cameraCopy]

    /// A preset by name: a built-in, or one of the user's (`~/.config/rec/presets/NAME.json`).
    ///
    /// - Throws: ``RecError/Kind/notFound`` for a name no preset has (the message lists them),
    ///   ``RecError/Kind/invalidRequest`` for a user preset that does not parse.
    public init(named name: String) throws(RecError) {
        let entry = try publicErrors { () throws(RecCore.RecError) in
            try PresetLibrary.load(environment: ProcessInfo.processInfo.environment, files: .local).entry(named: name)
        }
        try publicErrors { () throws(RecCore.RecError) in try EncoderCatalog.validate(entry.preset, origin: entry.source.origin) }
        (self.name, argument) = (name, name)
    }

    /// A preset from a JSON file, parsed and checked now.
    ///
    /// - Throws: ``RecError/Kind/notFound`` for a file that is not there,
    ///   ``RecError/Kind/invalidRequest`` for one that does not parse or names an encoder or
    ///   setting FFmpeg does not have.
    public init(contentsOf url: URL) throws(RecError) {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw RecError(kind: .notFound, message: "no preset file at \(path)")
        }
        // A file URL's path is absolute, so the library reads it as a file, not a name.
        let entry = try publicErrors { () throws(RecCore.RecError) in try PresetLibrary.builtins().resolve(path, files: .local) }
        try publicErrors { () throws(RecCore.RecError) in try EncoderCatalog.validate(entry.preset, origin: path) }
        (name, argument) = (entry.preset.name, path)
    }

    public var description: String { name }
}
