import RecCore
import Testing

/// Which hardware presets can run, on simulated machines.
@Suite struct HardwareCheckTests {
    static func machine(encoders: Set<String> = ["h264_vaapi", "h264_nvenc", "h264_v4l2m2m"], renderNodes: [String] = [],
                        opens: Set<String> = [], cuda: Bool = false, m2m: [String] = []) -> HardwareProbe {
        HardwareProbe(hasEncoder: { encoders.contains($0) }, renderNodes: { renderNodes },
                      openDevice: { api, path in
                          switch api {
                          case .cuda: cuda ? nil : "Operation not permitted"
                          default: opens.contains(path ?? "") ? nil : "Input/output error"
                          }
                      },
                      m2mEncoders: { $0 == "h264" ? m2m : [] })
    }

    @Test func softwareEncodersNeedNothing() {
        let result = HardwareCheck.check(encoder: "libx264", probe: Self.machine(encoders: []))
        #expect(result.device == nil && result.problem == nil)
    }

    @Test func vaapiUsesTheFirstRenderNodeThatOpens() {
        let probe = Self.machine(renderNodes: ["/dev/dri/renderD128", "/dev/dri/renderD129"], opens: ["/dev/dri/renderD129"])
        #expect(HardwareCheck.check(encoder: "h264_vaapi", probe: probe).device == "/dev/dri/renderD129")
    }

    @Test func vaapiWithoutARenderNodeSaysThereIsNoGPU() {
        let problem = HardwareCheck.check(encoder: "h264_vaapi", probe: Self.machine()).problem
        #expect(problem == "h264_vaapi needs a VAAPI render node (/dev/dri/renderD128): none found; this machine has no GPU rec can use — choose the default preset (--preset default), which encodes on the CPU")
    }

    @Test func vaapiWithANodeThatWillNotOpenNamesTheDriverToInstall() {
        let problem = HardwareCheck.check(encoder: "h264_vaapi", probe: Self.machine(renderNodes: ["/dev/dri/renderD128"])).problem ?? ""
        #expect(problem.contains("/dev/dri/renderD128: Input/output error"))
        #expect(problem.contains("intel-media-va-driver or mesa-va-drivers"))
    }

    @Test func nvencNeedsACUDADevice() {
        #expect(HardwareCheck.check(encoder: "h264_nvenc", probe: Self.machine(cuda: true)).device == "CUDA device 0")
        let problem = HardwareCheck.check(encoder: "h264_nvenc", probe: Self.machine()).problem ?? ""
        #expect(problem.contains("needs an NVIDIA GPU") && problem.contains("Operation not permitted"), "\(problem)")
    }

    @Test func v4l2m2mNeedsAnEncoderNode() {
        #expect(HardwareCheck.check(encoder: "h264_v4l2m2m", probe: Self.machine(m2m: ["/dev/video11"])).device == "/dev/video11")
        let problem = HardwareCheck.check(encoder: "h264_v4l2m2m", probe: Self.machine()).problem ?? ""
        #expect(problem.contains("V4L2_CAP_VIDEO_M2M") && problem.contains("Raspberry Pi"), "\(problem)")
    }

    @Test func anEncoderMissingFromLibavcodecIsSaidFirst() {
        let problem = HardwareCheck.check(encoder: "h264_vaapi", probe: Self.machine(encoders: [], renderNodes: ["/dev/dri/renderD128"])).problem
        #expect(problem?.hasPrefix("h264_vaapi is not in this FFmpeg's libavcodec") == true)
    }

    @Test(arguments: [("h264_vaapi", HardwareAPI.vaapi), ("hevc_nvenc", .cuda), ("h264_v4l2m2m", .v4l2m2m)])
    func encoderNamesSayWhichHardware(encoder: String, api: HardwareAPI) {
        #expect(HardwareAPI.required(by: encoder) == api)
    }
}
