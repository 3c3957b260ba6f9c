/// Which clips `--on-motion save` makes from a session's motion events (issue 40). Pure: events
/// and the time now in, clip ranges out once they are final.
///
/// A clip runs from `preRoll` before an event's first moving picture to `postRoll` after its
/// last. An event that starts before the clip under way has ended (its post-roll not yet over)
/// joins it, so events that touch make one clip; a clip that reaches `maximumLength` is cut there
/// and the next one starts where it ended. A clip is final when its end has passed with no new
/// motion: it is then saved at once from the ring. An event shorter than `minimumMotion` makes
/// no clip of its own, and one that starts within `coolDown` of the last clip's end makes none.
package struct MotionClipPlanner: Sendable {
    package struct Settings: Sendable, Equatable {
        package var preRoll = 10.0
        package var postRoll = 10.0
        package var minimumMotion = 0.0
        package var coolDown = 0.0
        package var maximumLength = 600.0
        package init() {}
    }

    /// A clip to save: session seconds `from` (inclusive) to `to` (exclusive), and the events in it.
    package struct Clip: Sendable, Equatable {
        package var from: Double
        package var to: Double
        package var events: [Int]
    }

    package let settings: Settings
    /// The clip being gathered: its start, the end of its last event, and its events.
    private var open: (from: Double, lastEnd: Double, events: [Int], moving: Bool, longest: Double)?
    /// Where the last clip ended, so the next never repeats its pictures.
    private var lastClipEnd: Double?
    /// Where the session's pictures begin: no clip starts before them.
    private let sessionStart: Double

    package init(settings: Settings = Settings(), sessionStart: Double = 0) {
        self.settings = settings
        self.sessionStart = sessionStart
    }

    /// An event started (its first moving picture at `event.start`).
    package mutating func started(_ event: MotionEvent) -> [Clip] {
        if var clip = open {
            clip.events.append(event.id)
            clip.moving = true
            open = clip
            return []
        }
        if let last = lastClipEnd, event.start - last < settings.coolDown { return [] }
        let from = max(event.start - settings.preRoll, lastClipEnd ?? sessionStart, sessionStart)
        open = (from, event.start, [event.id], true, 0)
        return []
    }

    /// An event ended (its last moving picture at `event.end`).
    package mutating func ended(_ event: MotionEvent) -> [Clip] {
        guard var clip = open, clip.events.contains(event.id) else { return [] }
        clip.lastEnd = max(clip.lastEnd, event.end)
        clip.moving = false
        clip.longest = max(clip.longest, event.length)
        open = clip
        return []
    }

    /// The clips that are final at `now` (session seconds): their post-roll is over with no new
    /// motion, or they reached the maximum length.
    package mutating func advance(to now: Double) -> [Clip] {
        var clips: [Clip] = []
        while let clip = open {
            let over = !clip.moving && now >= clip.lastEnd + settings.postRoll
            if over && clip.longest < settings.minimumMotion {
                open = nil
            } else if now - clip.from >= settings.maximumLength {
                let to = clip.from + settings.maximumLength
                lastClipEnd = to
                // The rest of a long event goes on in the next clip, which no minimum holds back.
                let goesOn = clip.moving || clip.lastEnd + settings.postRoll > to
                open = goesOn ? (to, clip.lastEnd, clip.events, clip.moving, max(clip.longest, settings.minimumMotion)) : nil
                clips.append(Clip(from: clip.from, to: to, events: clip.events))
            } else if over {
                open = nil
                let to = clip.lastEnd + settings.postRoll
                lastClipEnd = to
                clips.append(Clip(from: clip.from, to: to, events: clip.events))
            } else {
                break
            }
        }
        return clips
    }

    /// The clip still gathering when the session stops: what it holds so far, ending at `now`
    /// (its post-roll cut short), or nil.
    package mutating func finish(at now: Double) -> Clip? {
        guard let clip = open else { return nil }
        open = nil
        guard clip.moving || clip.longest >= settings.minimumMotion, now > clip.from else { return nil }
        lastClipEnd = now
        return Clip(from: clip.from, to: clip.moving ? now : min(now, clip.lastEnd + settings.postRoll), events: clip.events)
    }
}
