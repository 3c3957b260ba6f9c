import CFFmpeg
@testable import Capture
import RecCore

/// What a fake camera is: its identity and the formats its driver enumerates.
struct FakeProfile {
    var card: String
    var driver = "uvcvideo"
    var busInfo = "usb-0000:00:14.0-1"
    var formats: [CameraFormat]
    /// Extra bytes at the end of each raw row, as some drivers pad bytesperline.
    var linePadding = 0
    /// Formats libv4l2 would add by converting in software (flagged V4L2_FMT_FLAG_EMULATED).
    var emulated: [CameraFormat] = []
    /// The controls its driver offers (FakeDeviceControls.swift); none by default.
    var controls: [FakeControl] = []

    static func rates(_ fps: Int...) -> FrameIntervals { .discrete(fps.map { Rational(1, Int32($0)) }) }
    static func mode(_ w: Int, _ h: Int, _ intervals: FrameIntervals) -> SizeMode {
        SizeMode(size: FrameSize(width: w, height: h), intervals: intervals)
    }

    /// A typical USB webcam: MJPEG up to 1920x1080@30, YUYV 640x480@30, 1280x720@10, 1920x1080@5.
    static let usbWebcam = FakeProfile(card: "HD Pro Webcam C920", formats: [
        CameraFormat(fourcc: .yuyv, name: "YUYV 4:2:2", isCompressed: false, sizes: .discrete([
            mode(640, 480, rates(30, 15)), mode(1280, 720, rates(10, 5)), mode(1920, 1080, rates(5)),
        ])),
        CameraFormat(fourcc: .mjpeg, name: "Motion-JPEG", isCompressed: true, sizes: .discrete([
            mode(640, 480, rates(30, 15)), mode(1280, 720, rates(30, 15)), mode(1920, 1080, rates(30, 24, 15)),
        ])),
    ])

    /// A laptop camera that only does YUYV at low rates.
    static let lowRateYUYV = FakeProfile(card: "Integrated Camera", busInfo: "usb-0000:00:14.0-8", formats: [
        CameraFormat(fourcc: .yuyv, name: "YUYV 4:2:2", isCompressed: false, sizes: .discrete([
            mode(640, 480, .discrete([Rational(1, 15), Rational(2, 15)])), mode(320, 240, rates(15)),
        ])),
    ], linePadding: 64)

    /// A capture device with ranges of sizes (like vivid or a capture card): NV12 and YUYV from
    /// 64x64 to 1920x1080 in steps of 16x8, any rate from 1 to 60 fps.
    static let stepwise = FakeProfile(card: "Capture Card", driver: "fakecap", busInfo: "platform:fakecap", formats: [
        CameraFormat(fourcc: .nv12, name: "Y/CbCr 4:2:0", isCompressed: false, sizes: .stepwise(
            min: FrameSize(width: 64, height: 64), max: FrameSize(width: 1920, height: 1080), step: FrameSize(width: 16, height: 8),
            intervals: .stepwise(min: Rational(1, 60), max: Rational(1, 1), step: nil))),
        CameraFormat(fourcc: .yuyv, name: "YUYV 4:2:2", isCompressed: false, sizes: .stepwise(
            min: FrameSize(width: 64, height: 64), max: FrameSize(width: 1920, height: 1080), step: FrameSize(width: 16, height: 8),
            intervals: .stepwise(min: Rational(1, 60), max: Rational(1, 1), step: nil))),
    ])
}

/// Real JPEGs made with libavcodec's mjpeg encoder, one flat grey picture per size.
enum TestJPEG {
    /// A `width`x`height` JPEG whose every luma sample is `luma`.
    static func make(width: Int, height: Int, luma: UInt8 = 128) -> [UInt8] {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else { return [] }
        var context = avcodec_alloc_context3(codec)
        var frame = av_frame_alloc()
        var packet = av_packet_alloc()
        defer {
            avcodec_free_context(&context)
            av_frame_free(&frame)
            av_packet_free(&packet)
        }
        guard let context, let frame, let packet else { return [] }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUVJ422P
        context.pointee.time_base = AVRational(num: 1, den: 30)
        guard avcodec_open2(context, codec, nil) >= 0 else { return [] }
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = AV_PIX_FMT_YUVJ422P.rawValue
        guard av_frame_get_buffer(frame, 0) >= 0 else { return [] }
        for plane in 0..<3 {
            let base = withUnsafeBytes(of: frame.pointee.data) { $0.load(fromByteOffset: plane * 8, as: UnsafeMutablePointer<UInt8>.self) }
            let stride = withUnsafeBytes(of: frame.pointee.linesize) { $0.load(fromByteOffset: plane * 4, as: Int32.self) }
            base.initialize(repeating: plane == 0 ? luma : 128, count: Int(stride) * height)
        }
        guard avcodec_send_frame(context, frame) >= 0, avcodec_receive_packet(context, packet) >= 0 else { return [] }
        return Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }

    /// The JPEG with a COM segment "frame N" after its SOI marker: still valid, and identifiable.
    static func numbered(_ jpeg: [UInt8], _ number: Int) -> [UInt8] {
        let text = Array("frame \(number)".utf8)
        let length = text.count + 2
        return Array(jpeg[0..<2]) + [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + text + Array(jpeg[2...])
    }

    /// The N in a COM segment "frame N", if the JPEG has one.
    static func number(in jpeg: [UInt8]) -> Int? {
        guard jpeg.count > 6, jpeg[2] == 0xFF, jpeg[3] == 0xFE else { return nil }
        let length = Int(jpeg[4]) << 8 | Int(jpeg[5])
        let text = String(decoding: jpeg[6..<(4 + length)], as: UTF8.self)
        return text.hasPrefix("frame ") ? Int(text.dropFirst(6)) : nil
    }
}
