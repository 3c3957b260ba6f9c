/// The boxes one command acts on, in the order given, each once, with the short name that heads
/// its column and starts its clips' names.
///
/// No `--host` (and no configured `hosts`) is this box alone, as rec has always been; a list of
/// hosts is exactly those boxes, and this one only when the list says `local`: an operator's
/// laptop asking its cameras' boxes has no sessions of its own to show.
package struct BoxList: Sendable, Equatable {
    package let boxes: [Box]
    /// One per box: `local`, the host name, or `user@host:port` where two boxes share a host name.
    package let labels: [String]

    /// Parses `texts` (each `local`, `ssh://user@box[:port]` or `[user@]box`); none means this box.
    package init(_ texts: [String]) throws(RecError) {
        var boxes: [Box] = []
        for text in texts {
            let box = try Box.parse(text)
            if !boxes.contains(box) { boxes.append(box) }
        }
        self.init(boxes: boxes.isEmpty ? [.local] : boxes)
    }

    package init(boxes: [Box]) {
        self.boxes = boxes
        let short = boxes.map { box -> String in
            switch box {
            case .local: Box.localName
            case .remote(let host): host.host
            }
        }
        labels = zip(boxes, short).map { box, name in
            short.filter { $0 == name }.count > 1 ? box.display : name
        }
    }

    /// Whether the command runs here only, as without `--host`.
    package var isLocalOnly: Bool { boxes == [.local] }

    /// The name a clip from `session` on the box labelled `box` is filed under: `box-session`.
    package static func clipName(box: String, session: String) -> String {
        box + "-" + session
    }
}

extension ClipNaming {
    /// The path of the clip of `session` on box `box` (`clips/box-door.mp4`, `clip-box-door.mp4`).
    package func path(box: String, session: String) -> String {
        path(for: BoxList.clipName(box: box, session: session))
    }

    /// The naming a save on box `box` gives its own sessions: `%s` stands for the session
    /// (`clips/box-%s.mp4`), for a `rec save` run on that box directly.
    package func pattern(box: String) -> String {
        path(for: BoxList.clipName(box: box, session: "%s"))
    }
}
