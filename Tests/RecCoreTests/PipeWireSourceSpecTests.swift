import Testing
@testable import RecCore

/// `pipewire:NODE` and `wayland` (SourceSpec+PipeWire.swift).
@Suite struct PipeWireSourceSpecTests {
    @Test(arguments: ["rectest", "42", "alsa_input.usb-Foo.analog-stereo"])
    func aNodeByNameOrSerial(_ node: String) throws {
        let spec = try SourceSpec.parse("pipewire:" + node)
        #expect(spec == .pipewire(node: node))
        #expect(spec.description == "pipewire:" + node)
        #expect(!spec.isNetwork)
    }

    @Test func theScreenThroughThePortal() throws {
        #expect(try SourceSpec.parse("wayland") == .waylandScreen)
        #expect(try SourceSpec.parse("wayland:window") == .waylandWindow && SourceSpec.waylandWindow.description == "wayland:window")
    }

    @Test(arguments: ["pipewire:", "pipewire:two words"])
    func aMissingOrBadNodeIsAUsageError(_ text: String) {
        #expect {
            _ = try SourceSpec.parse(text)
        } throws: { error in
            guard let e = error as? RecError else { return false }
            return e.code == .usage && e.message.contains("'pipewire:' needs a video node's name or serial")
        }
    }
}
