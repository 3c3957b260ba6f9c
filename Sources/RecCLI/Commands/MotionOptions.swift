import Foundation
import RecClient
import RecCore
import Session
import SessionControl

/// `--motion` and `--on-motion save` with their settings (docs/EVENTS.md), for `rec start`.
struct MotionOptions: Sendable, Equatable {
    static let arguments: [ArgumentSpec] = [
        .motion, .motionMask, .motionThreshold, .motionFPS, .onMotion, .preRoll, .postRoll, .minMotion, .coolDown, .maxClip,
        .motionClips, .motionSource,
    ]
    /// The environment variable a detached session reads a motion stream URL with a password from.
    static let hiddenVariable = "REC_SESSION_MOTION_SOURCE"

    var motion: Bool
    var masks: [String]
    var threshold: String?
    var fps: String?
    var onMotion: String?
    var preRoll: String
    var postRoll: String
    var minMotion: String
    var coolDown: String
    var maxClip: String
    var clips: String?
    var source: String?

    init(_ values: ParsedValues) throws(RecError) {
        motion = values.flag(.motion)
        masks = try values.values(.motionMask)
        threshold = try values.value(.motionThreshold)
        fps = try values.value(.motionFPS)
        onMotion = try values.value(.onMotion)
        preRoll = try values.require(.preRoll)
        postRoll = try values.require(.postRoll)
        minMotion = try values.require(.minMotion)
        coolDown = try values.require(.coolDown)
        maxClip = try values.require(.maxClip)
        clips = try values.value(.motionClips)
        source = try values.value(.motionSource)
    }

    /// The session's motion settings, or nil when motion is off; usage errors for bad values.
    func configuration() throws(RecError) -> MotionConfiguration? {
        let saves = onMotion != nil
        if let onMotion, onMotion != "save" {
            throw .usage("--on-motion \(onMotion) is not an action rec knows; --on-motion save saves each motion event as a clip")
        }
        guard motion || saves else {
            if !masks.isEmpty || threshold != nil || fps != nil || clips != nil || source != nil {
                throw .usage("--motion-mask, --motion-threshold, --motion-fps, --motion-clips and --motion-source set up motion detection; add --motion (or --on-motion save)")
            }
            return nil
        }
        var c = MotionConfiguration()
        c.detector.masks = try masks.map(Self.mask)
        if let threshold {
            guard let value = Int(threshold), (1...254).contains(value) else {
                throw .usage("--motion-threshold \(threshold) must be a whole number from 1 to 254 (the default is 30; higher ignores smaller changes)")
            }
            c.detector.threshold = value
        }
        if let fps {
            guard let value = Double(fps), value >= 1, value <= 30 else {
                throw .usage("--motion-fps \(fps) must be a number of pictures a second from 1 to 30 (the default is 5)")
            }
            c.rate = value
        }
        if saves {
            var s = MotionClipPlanner.Settings()
            s.preRoll = try TimeParser.duration(preRoll).seconds
            s.postRoll = try TimeParser.duration(postRoll).seconds
            s.minimumMotion = try TimeParser.duration(minMotion).seconds
            s.coolDown = try TimeParser.duration(coolDown).seconds
            s.maximumLength = try TimeParser.duration(maxClip).seconds
            guard s.maximumLength >= 1 else { throw .usage("--max-clip \(maxClip) is too short; give at least 1s, e.g. --max-clip 10m") }
            c.clips = s
        }
        c.clipPattern = OutputFile.absolute(clips ?? c.clipPattern)
        _ = try SegmentNaming(path: c.clipPattern)
        return c
    }

    /// `--motion-source`: a network camera's URL (its sub-stream), checked.
    func sourceURL() throws(RecError) -> NetworkURL? {
        guard let source else { return nil }
        do {
            return try NetworkURL.parse(source)
        } catch {
            throw .usage("--motion-source needs a network camera's URL (rtsp://, rtmp://, srt://, http://), such as its sub-stream: \(error.message)")
        }
    }

    var hidesSecret: Bool { ((try? sourceURL())?.hasCredentials) ?? false }

    /// `x,y,w,h` in fractions of the picture (0.5) or percent (50%).
    static func mask(_ text: String) throws(RecError) -> MotionRect {
        let parts = text.split(separator: ",").map { part -> Double? in
            let p = part.trimmingCharacters(in: .whitespaces)
            return p.hasSuffix("%") ? Double(p.dropLast()).map { $0 / 100 } : Double(p)
        }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
              x >= 0, y >= 0, w > 0, h > 0, x + w <= 1.0001, y + h <= 1.0001 else {
            throw .usage("--motion-mask \(text) is not a rectangle inside the picture; give x,y,width,height as fractions "
                         + "or percent from the top left, e.g. --motion-mask 0,0,30%,10% for a clock in the top left corner")
        }
        return MotionRect(x: x, y: y, width: w, height: h)
    }

    /// The options again, for a detached session's own command line.
    var arguments: [String] {
        var a: [String] = []
        if motion { a.append(ArgumentSpec.motion.displayName) }
        for m in masks { a += [ArgumentSpec.motionMask.displayName, m] }
        let pairs: [(ArgumentSpec, String?)] = [(.motionThreshold, threshold), (.motionFPS, fps), (.onMotion, onMotion), (.preRoll, preRoll),
                                                (.postRoll, postRoll), (.minMotion, minMotion), (.coolDown, coolDown), (.maxClip, maxClip),
                                                (.motionClips, clips.map { OutputFile.absolute($0) }), (.motionSource, hidesSecret ? nil : source)]
        for (spec, value) in pairs { if let value { a += [spec.displayName, value] } }
        return a
    }
}

extension ArgumentSpec {
    static let motion = flag("motion", help: "Watch the pictures for motion: a motion index beside the ring and each recording file, shown by 'rec events' and 'rec status' (docs/EVENTS.md).")
    static let motionMask = option(
        "motion-mask", value: "x,y,w,h", repeatable: true,
        help: "A part of the picture motion leaves out (a clock, a tree, a road), from the top left in fractions or percent, such as 0,0,30%,10%; repeat it for more."
    )
    static let motionThreshold = option("motion-threshold", value: "level", help: "How much a pixel must change (1-254, default 30) to count as motion.")
    static let motionFPS = option("motion-fps", value: "rate", help: "Pictures judged for motion a second (1-30, default 5).")
    static let onMotion = option("on-motion", value: "action", choices: ["save"], help: "save: save each motion event as a clip from the ring, with its pre-roll and post-roll.")
    static let preRoll = option("pre-roll", value: "time", default: "10s", help: "With --on-motion save, how much before the motion each clip starts.")
    static let postRoll = option("post-roll", value: "time", default: "10s", help: "With --on-motion save, how much after the motion each clip ends.")
    static let minMotion = option("min-motion", value: "time", default: "0s", help: "With --on-motion save, motion shorter than this makes no clip.")
    static let coolDown = option("cool-down", value: "time", default: "0s", help: "With --on-motion save, motion starting this soon after a clip ended makes no new clip.")
    static let maxClip = option("max-clip", value: "time", default: "10m", help: "With --on-motion save, longer motion is saved in clips of this length.")
    static let motionSource = option(
        "motion-source", value: "url",
        help: "With --motion, a smaller stream of the same camera (its sub-stream) to judge motion on, instead of decoding the recorded one."
    )
    static let motionClips = option(
        "motion-clips", value: "pattern",
        help: "With --on-motion save, the clips' names, with time fields such as %Y-%m-%d_%H-%M-%S (default motion-%Y-%m-%d_%H-%M-%S.mp4)."
    )
}

/// `--mqtt URL`: the broker a session publishes motion and saves to and takes saves from.
struct MQTTOption: Sendable, Equatable {
    static let arguments: [ArgumentSpec] = [.mqtt]
    /// The environment variable a detached session reads a URL with a password from (never argv).
    static let hiddenVariable = "REC_SESSION_MQTT"
    var url: String?

    init(_ values: ParsedValues) throws(RecError) {
        url = try values.value(.mqtt)
    }

    /// The broker, checked: a URL that does not parse or a CA file that cannot be read is a
    /// usage error before anything starts.
    func address() throws(RecError) -> BrokerAddress? {
        guard let url else { return nil }
        let address = try BrokerAddress.parse(url)
        if let ca = address.caFile, !FileManager.default.isReadableFile(atPath: ca) {
            throw .usage("cannot read the CA file '\(ca)' that ca= names in \(address.redacted); check the path")
        }
        return address
    }

    var hidesSecret: Bool { ((try? BrokerAddress.parse(url ?? ""))?.password) != nil }

    var arguments: [String] {
        guard let url, !hidesSecret else { return [] }
        return [ArgumentSpec.mqtt.displayName, url]
    }
}

extension ArgumentSpec {
    static let mqtt = option(
        "mqtt", value: "url",
        help: "An MQTT broker, such as mqtt://user:password@broker.local/home: the session publishes motion, events and saves under PREFIX/SESSION/ and takes save requests on PREFIX/SESSION/save (docs/EVENTS.md)."
    )
}
