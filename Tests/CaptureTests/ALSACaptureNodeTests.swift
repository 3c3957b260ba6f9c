@testable import Capture
import Glibc
import Testing
import TestPool

/// An ALSA failure is told by the device node's errno, not by libavdevice's log text (it says
/// EIO for all of them): the names that map onto one node, and the errno of one that is absent.
@Suite(.blocking) struct ALSACaptureNodeTests {
    static func cards(_ id: String) -> Int? { id == "C920" ? 2 : nil }

    @Test(arguments: [
        ("hw:1,0", ALSACaptureNode.Card.number(1), 0),
        ("plughw:1", .number(1), 0),
        ("hw:0,3", .number(0), 3),
        ("hw:CARD=C920,DEV=1", .number(2), 1),
        ("sysdefault:CARD=C920", .number(2), 0),
        ("plughw:CARD=Nope,DEV=0", .unknown, 0),
    ])
    func aNameWithOneCardHasANode(_ name: String, _ card: ALSACaptureNode.Card, _ device: Int) throws {
        let parsed = try #require(ALSACaptureNode.parse(name, cards: Self.cards))
        #expect(parsed.card == card && parsed.device == device)
    }

    @Test(arguments: ["default", "pulse", "dmix", "hw:", "hw:1,x", "hw:1,0,SUBDEV=2", "null"])
    func otherNamesHaveNone(_ name: String) {
        #expect(ALSACaptureNode.parse(name, cards: Self.cards) == nil)
    }

    @Test func anAbsentCardIsNoEntry() {
        #expect(ALSACaptureNode.openError("hw:97,0") == ENOENT)
        #expect(ALSACaptureNode.openError("hw:CARD=NoSuchCardHere,DEV=0") == ENOENT)
        #expect(ALSACaptureNode.openError("default") == nil)
    }
}
