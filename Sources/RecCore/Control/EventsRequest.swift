/// The fields of an `events` request (`rec events`, `GET /api/events`): the motion events and
/// levels of a stretch of the session, as `save` gives a range (`from`/`to`, or `last`); with
/// none, everything the session keeps.
package struct EventsRequest: Sendable, Equatable, Codable {
    package var from: ControlTime?
    package var to: ControlTime?
    package var last: ControlTime?
    /// Also the level of motion every 200 ms (`levels` in the report).
    package var levels: Bool

    package init(from: ControlTime? = nil, to: ControlTime? = nil, last: ControlTime? = nil, levels: Bool = false) {
        (self.from, self.to, self.last, self.levels) = (from, to, last, levels)
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        from = try c.decodeIfPresent(ControlTime.self, forKey: .from)
        to = try c.decodeIfPresent(ControlTime.self, forKey: .to)
        last = try c.decodeIfPresent(ControlTime.self, forKey: .last)
        levels = try c.decodeIfPresent(Bool.self, forKey: .levels) ?? false
    }

    /// The range as a save request would give it (the same time syntax).
    package var selection: SaveRequest {
        // A save of the same range, to a name no save writes (only its times are used).
        var request = SaveRequest(from: from, to: to, last: last, output: "/")
        request.clampsStart = true
        return request
    }
}

/// A session's answer to `events`: its motion now, and the events, clips and levels asked for.
/// Times are session seconds; `wallclock` is the wall clock at session time 0.
package struct EventsReport: Sendable, Equatable, Codable {
    package var session: String
    /// Whether the session watches for motion (`rec start --motion`); without it, nothing else.
    package var motion: Bool
    package var wallclock: Double?
    package var moving: Bool
    package var level: Double
    package var events: [MotionEvent]
    package var clips: [MotionClipRecord]
    /// The range the report covers.
    package var from: Double?
    package var to: Double?
    /// With `levels`: one level every `step` seconds from `from` (null where nothing was judged).
    package var levels: [Double?]?
    package var step: Double?

    package init(session: String, motion: Bool, wallclock: Double? = nil, moving: Bool = false, level: Double = 0,
                events: [MotionEvent] = [], clips: [MotionClipRecord] = []) {
        (self.session, self.motion, self.wallclock, self.moving, self.level) = (session, motion, wallclock, moving, level)
        (self.events, self.clips) = (events, clips)
    }
}

/// A clip saved on motion (`--on-motion save`), or why it was not.
package struct MotionClipRecord: Sendable, Equatable, Codable {
    package var path: String
    package var from: Double
    package var to: Double
    package var events: [Int]
    package var frames: Int?
    package var error: String?

    package init(path: String, from: Double, to: Double, events: [Int], frames: Int? = nil, error: String? = nil) {
        (self.path, self.from, self.to, self.events, self.frames, self.error) = (path, from, to, events, frames, error)
    }
}
