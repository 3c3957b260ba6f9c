import Foundation
import Media
import RecCore
import Testing
import TestPool

/// The parts of hardware set-up that run without hardware: finding render nodes and refusing
/// a device context v4l2m2m does not have.
@Suite(.blocking) struct HardwareDeviceTests {
    @Test func renderNodesAreFoundInOrderAndOthersIgnored() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dri-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for name in ["renderD129", "card0", "renderD128", "by-path"] {
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: nil))
        }
        #expect(HardwareNodes.renderNodes(directory: dir) == [dir + "/renderD128", dir + "/renderD129"])
        #expect(HardwareNodes.renderNodes(directory: dir + "/missing").isEmpty)
    }

    @Test func v4l2m2mHasNoDeviceContext() {
        #expect(HardwareDevice.probe(.v4l2m2m, path: nil) != nil)
    }

    @Test func aVAAPIDeviceThatIsNoRenderNodeFailsToOpen() {
        #expect(HardwareDevice.probe(.vaapi, path: "/dev/null") != nil)
    }
}
