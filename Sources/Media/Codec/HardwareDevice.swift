import CFFmpeg
import RecCore

/// One hardware device context (`AVHWDeviceContext`): a VAAPI render node or a CUDA device.
/// Owns its reference; frames contexts take their own (`av_buffer_ref`).
///
/// The corresponding C functions are `av_hwdevice_ctx_create` and `av_buffer_unref`.
package final class HardwareDevice {
    let reference: UnsafeMutablePointer<AVBufferRef>
    package let api: HardwareAPI

    /// Opens the device: `path` is a render node for VAAPI ("/dev/dri/renderD128"), nil for the
    /// default device (CUDA device 0).
    package init(_ api: HardwareAPI, path: String?) throws(FFmpegError) {
        let type: AVHWDeviceType = switch api {
        case .vaapi: AV_HWDEVICE_TYPE_VAAPI
        case .cuda: AV_HWDEVICE_TYPE_CUDA
        case .v4l2m2m: AV_HWDEVICE_TYPE_NONE
        }
        guard type != AV_HWDEVICE_TYPE_NONE else {
            // v4l2m2m encoders open their own node and take frames in system memory.
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "av_hwdevice_ctx_create(v4l2m2m has no device context)")
        }
        var ref: UnsafeMutablePointer<AVBufferRef>? = nil
        try check(av_hwdevice_ctx_create(&ref, type, path, nil, 0), "av_hwdevice_ctx_create(\(api.rawValue), \(path ?? "default"))")
        self.reference = try allocated(ref, "av_hwdevice_ctx_create")
        self.api = api
    }

    deinit {
        var ref: UnsafeMutablePointer<AVBufferRef>? = reference
        av_buffer_unref(&ref)
    }

    /// Whether the device opens (then closes it again): nil, or why not, for `rec presets` and
    /// a preset's check.
    package static func probe(_ api: HardwareAPI, path: String?) -> String? {
        do { _ = try HardwareDevice(api, path: path) } catch { return error.text }
        return nil
    }
}
