import CFFmpeg
import Foundation
import RecCore

/// A pool of frames in GPU memory for a hardware encoder (`AVHWFramesContext`), and the upload
/// of each system-memory frame into one, as FFmpeg's doc/examples/vaapi_encode.c does:
/// `av_hwframe_ctx_alloc` on the device, `format` the hardware format, `sw_format` (nv12) what
/// frames are uploaded from, then `av_hwframe_ctx_init`; per frame `av_hwframe_get_buffer` and
/// `av_hwframe_transfer_data`. Owned by the encoder that uses it, on the encode thread.
package final class HardwareFrames {
    let reference: UnsafeMutablePointer<AVBufferRef>
    /// Kept so the device outlives the frames context built on it.
    package let device: HardwareDevice
    /// The frame uploads go into, reused: unreferenced after each `send`.
    private let upload: FrameOwner

    package init(device: HardwareDevice, width: Int, height: Int, softwareFormat: PixelFormat,
                poolSize: Int32 = 20) throws(FFmpegError) {
        var ref: UnsafeMutablePointer<AVBufferRef>? = try allocated(av_hwframe_ctx_alloc(device.reference), "av_hwframe_ctx_alloc")
        do throws(FFmpegError) {
            let frames = try Self.framesContext(allocated(ref, "av_hwframe_ctx_alloc"))
            frames.pointee.format = device.api == .cuda ? AV_PIX_FMT_CUDA : AV_PIX_FMT_VAAPI
            frames.pointee.sw_format = softwareFormat.av
            frames.pointee.width = Int32(width)
            frames.pointee.height = Int32(height)
            frames.pointee.initial_pool_size = poolSize
            try check(av_hwframe_ctx_init(ref), "av_hwframe_ctx_init(\(softwareFormat.name) \(width)x\(height))")
            self.upload = try FrameOwner()
            self.reference = try allocated(ref, "av_hwframe_ctx_alloc")
        } catch {
            av_buffer_unref(&ref)
            throw error
        }
        self.device = device
    }

    deinit {
        var ref: UnsafeMutablePointer<AVBufferRef>? = reference
        av_buffer_unref(&ref)
    }

    /// The `AVHWFramesContext` an `AVBufferRef` from `av_hwframe_ctx_alloc` holds.
    private static func framesContext(_ ref: UnsafeMutablePointer<AVBufferRef>) throws(FFmpegError) -> UnsafeMutablePointer<AVHWFramesContext> {
        try allocated(ref.pointee.data, "av_hwframe_ctx_alloc").withMemoryRebound(to: AVHWFramesContext.self, capacity: 1) { $0 }
    }

    /// The pixel format encoders see for these frames (AV_PIX_FMT_VAAPI).
    var hardwareFormat: AVPixelFormat {
        reference.pointee.data.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: AVHWFramesContext.self).pointee.format }
            ?? AV_PIX_FMT_NONE
    }

    /// Sets the codec context up for these frames: its `pix_fmt` the hardware format, and its
    /// own reference in `hw_frames_ctx` (the codec unrefs it when freed).
    func attach(to codec: UnsafeMutablePointer<AVCodecContext>) throws(FFmpegError) {
        codec.pointee.pix_fmt = hardwareFormat
        codec.pointee.hw_frames_ctx = try allocated(av_buffer_ref(reference), "av_buffer_ref(hw_frames_ctx)")
    }

    /// Uploads `frame` (in the software format) and lends the GPU frame, with the source's pts
    /// and properties, to `body`; it is released when `body` returns.
    func uploading<R>(_ frame: UnsafePointer<AVFrame>,
                      _ body: (UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> R) throws(FFmpegError) -> R {
        let upload = self.upload.pointer
        defer { av_frame_unref(upload) }
        try check(av_hwframe_get_buffer(reference, upload, 0), "av_hwframe_get_buffer")
        try check(av_hwframe_transfer_data(upload, frame, 0), "av_hwframe_transfer_data")
        try check(av_frame_copy_props(upload, frame), "av_frame_copy_props")
        return try body(upload)
    }
}

extension VideoEncoder {
    /// The frames context a hardware encoder needs before `avcodec_open2`, or nil for encoders
    /// that take system memory (software ones, NVENC, v4l2m2m). VAAPI's device is the first
    /// render node that opens ("/dev/dri/renderD128"); `settings.pixelFormat` (nv12) is what the
    /// frames are uploaded from.
    static func hardwareFrames(for settings: EncoderSettings) throws(FFmpegError) -> HardwareFrames? {
        guard HardwareAPI.required(by: settings.encoder) == .vaapi else { return nil }
        let nodes = HardwareNodes.renderNodes()
        var last = FFmpegError(code: cffmpeg_averror(ENOENT), operation: "av_hwdevice_ctx_create(vaapi): no /dev/dri/renderD* node")
        for node in nodes {
            do {
                let device = try HardwareDevice(.vaapi, path: node)
                let format = settings.pixelFormat == .none ? PixelFormat.nv12 : settings.pixelFormat
                return try HardwareFrames(device: device, width: settings.width, height: settings.height, softwareFormat: format)
            } catch {
                last = error
            }
        }
        throw last
    }
}

/// Where the DRM render nodes are.
package enum HardwareNodes {
    /// "/dev/dri/renderD128", … in order; `directory` is for tests.
    package static func renderNodes(directory: String = "/dev/dri") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("renderD") }.sorted().map { directory + "/" + $0 }
    }
}
