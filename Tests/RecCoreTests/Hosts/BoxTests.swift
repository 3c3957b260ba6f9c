import Foundation
import RecCore
import Testing

/// Issue 23, several boxes as one: how `--host` names a box, and the short names its sessions'
/// rows and clips are filed under.
@Suite struct BoxTests {
    @Test(arguments: [
        ("local", Box.local),
        ("ssh://rec@box1", .remote(RemoteHost(user: "rec", host: "box1"))),
        ("ssh://rec@box1:2222", .remote(RemoteHost(user: "rec", host: "box1", port: 2222))),
        ("ssh://rec@box1:2222/", .remote(RemoteHost(user: "rec", host: "box1", port: 2222))),
        ("ssh://box-2.lan", .remote(RemoteHost(host: "box-2.lan"))),
        ("rec@10.0.0.7", .remote(RemoteHost(user: "rec", host: "10.0.0.7"))),
        ("garage", .remote(RemoteHost(host: "garage"))),
        ("ssh://ana@[fe80::1%eth0]:22", .remote(RemoteHost(user: "ana", host: "fe80::1%eth0", port: 22))),
    ])
    func parses(text: String, box: Box) throws {
        #expect(try Box.parse(text) == box)
    }

    @Test func displayIsWhatTheUserWouldWriteBack() throws {
        #expect(try Box.parse("ssh://rec@box1:2222").display == "rec@box1:2222")
        #expect(try Box.parse("ssh://[::1]:22").display == "[::1]:22")
        #expect(try Box.parse("garage").display == "garage")
        guard case .remote(let host) = try Box.parse("ssh://rec@[::1]:2222") else { Issue.record("not remote"); return }
        #expect(host.destination == "rec@::1")
    }

    /// Each refusal is a usage error that says what to write instead, and a password in the URL
    /// is never repeated.
    @Test(arguments: [
        ("ssh://rec:s3cret@box1", "put no password in it"),
        ("rec:s3cret@box1", "ssh-copy-id"),
        ("https://box1", "through ssh only"),
        ("ssh://-oProxyCommand=touch@x", "not a user name"),
        ("-oProxyCommand=x", "not a host name"),
        ("ssh://box1/srv/rec", "has a path"),
        ("box1:2222", "ssh://box1:2222"),
        ("ssh://box1:99999", "not a port"),
        ("ssh://box1:", "not a port"),
        ("ssh://", "names no box"),
        ("ssh://rec@", "names no box"),
        ("ssh://[::1", "no closing"),
        ("box one", "not a host name"),
    ])
    func refuses(text: String, message: String) {
        #expect {
            _ = try Box.parse(text)
        } throws: { error in
            guard let error = error as? RecError else { return false }
            return error.code == .usage && error.message.contains(message) && !error.message.contains("s3cret")
        }
    }

    @Test func aListHasEachBoxOnceAndThisBoxOnlyWhenNamed() throws {
        #expect(try BoxList([]).boxes == [.local] && BoxList([]).isLocalOnly)
        #expect(try BoxList(["local", "local"]).isLocalOnly)
        let list = try BoxList(["ssh://rec@box1", "box2", "ssh://rec@box1", "local"])
        #expect(list.boxes.count == 3 && !list.isLocalOnly)
        #expect(list.labels == ["box1", "box2", "local"])
        #expect(try BoxList(["ssh://box2"]).boxes == [.remote(RemoteHost(host: "box2"))])
    }

    /// Two boxes behind one name (two ports of one address, two users) are told apart.
    @Test func labelsTellBoxesWithOneHostNameApart() throws {
        let list = try BoxList(["ssh://rec@127.0.0.1:2201", "ssh://rec@127.0.0.1:2202", "ssh://ana@127.0.0.1:2202", "box3"])
        #expect(list.labels == ["rec@127.0.0.1:2201", "rec@127.0.0.1:2202", "ana@127.0.0.1:2202", "box3"])
        #expect(Set(list.labels).count == list.labels.count)
    }

    /// A clip is filed as BOX-SESSION under each naming of `-o`.
    @Test func clipsAreNamedByBoxAndSession() throws {
        #expect(try ClipNaming(output: "clips/", isFolder: false).path(box: "box1", session: "door") == "clips/box1-door.mp4")
        #expect(try ClipNaming(output: "clip-%s.mkv", isFolder: false).path(box: "local", session: "yard") == "clip-local-yard.mkv")
        #expect(ClipNaming.suffixed("/v/clip-20261129-140305.mp4").path(box: "box2", session: "door")
                == "/v/clip-20261129-140305-box2-door.mp4")
        #expect(try ClipNaming(output: "/v/", isFolder: true).pattern(box: "box1") == "/v/box1-%s.mp4")
    }
}
