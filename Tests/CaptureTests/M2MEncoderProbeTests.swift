import CV4L2
@testable import Capture
import RecCore
import Testing
import VideoDevices
import TestPool

/// Finding a V4L2 memory-to-memory H.264 encoder (a Raspberry Pi's /dev/video11) on the fake driver.
@Suite(.blocking) struct M2MEncoderProbeTests {
    static let codec = FakeProfile(card: "bcm2835-codec-encode", driver: "bcm2835-codec", busInfo: "platform:bcm2835-codec", formats: [
        CameraFormat(fourcc: .h264, name: "H.264", isCompressed: true, sizes: .discrete([])),
    ])

    @Test func anM2MNodeOfferingH264IsFound() {
        let system = FakeV4L2System.webcam()
        system.cameras.append(FakeCamera(Self.codec, node: "/dev/video11", stableLink: nil))
        system.otherNodes["/dev/video11"] = CV4L2_CAP_VIDEO_M2M_MPLANE | CV4L2_CAP_STREAMING
        #expect(M2MEncoderProbe.encoders(system: system) == ["/dev/video11"])
        #expect(M2MEncoderProbe.encoders(offering: .mjpeg, system: system).isEmpty)
        #expect(system.openDescriptors == 0)
        // The codec node is no camera.
        #expect(V4L2Discovery.cameras(system: system).map(\.path) == ["/dev/video0"])
    }

    @Test func camerasAndMetadataNodesAreNoEncoders() {
        let system = FakeV4L2System.webcam()
        #expect(M2MEncoderProbe.encoders(system: system).isEmpty)
    }
}
