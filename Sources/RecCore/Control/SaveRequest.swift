/// The fields of a `save` request: which part of the ring to write, and where.
///
/// The range is `from`…`to` (a missing `to` means now), or `last` (that much before now), or,
/// with none of them, everything the ring holds. `output` is an absolute path, because the
/// session's working folder is not the client's.
package struct SaveRequest: Sendable, Equatable, Codable {
    package var from: ControlTime?
    package var to: ControlTime?
    package var last: ControlTime?
    /// Absolute path of the file to write.
    package var output: String
    /// Start the clip on the keyframe at or before `from` instead of exactly at `from`.
    package var keyframe: Bool
    /// Drop what was saved from the ring afterwards, so the next save does not repeat it.
    package var clear: Bool
    /// Overwrite `output` if it exists.
    package var force: Bool
    /// Also copy the clip off the box to this rclone destination (`rec save --upload DEST`).
    package var upload: String?
    /// Copy this clip nowhere, even when the session copies every clip (`rec save --no-upload`;
    /// a save from another box, whose clip goes back to the asker).
    package var noUpload: Bool
    /// A start before what the session holds moves up to its oldest frame, as `last` does: `rec
    /// save --last 60s` from several sessions sends each the same wall-clock range, and a session
    /// younger than the range saves what it has (reported `before_session`) instead of failing.
    package var clampsStart = false
    /// Wait for a `from` or `to` given from the start that the live session has not reached yet,
    /// instead of refusing it (the Swift API; not part of the control protocol, never encoded).
    package var waitsForOffsets = false

    package init(from: ControlTime? = nil, to: ControlTime? = nil, last: ControlTime? = nil, output: String,
                keyframe: Bool = false, clear: Bool = false, force: Bool = false, upload: String? = nil,
                noUpload: Bool = false) {
        self.from = from
        self.to = to
        self.last = last
        self.output = output
        self.keyframe = keyframe
        self.clear = clear
        self.force = force
        self.upload = upload
        self.noUpload = noUpload
    }

    private enum CodingKeys: String, CodingKey {
        case from, to, last, output, keyframe, clear, force, upload, noUpload = "no_upload", clampsStart = "clamps_start"
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        from = try c.decodeIfPresent(ControlTime.self, forKey: .from)
        to = try c.decodeIfPresent(ControlTime.self, forKey: .to)
        last = try c.decodeIfPresent(ControlTime.self, forKey: .last)
        output = try c.decode(String.self, forKey: .output)
        keyframe = try c.decodeIfPresent(Bool.self, forKey: .keyframe) ?? false
        clear = try c.decodeIfPresent(Bool.self, forKey: .clear) ?? false
        force = try c.decodeIfPresent(Bool.self, forKey: .force) ?? false
        upload = try c.decodeIfPresent(String.self, forKey: .upload)
        noUpload = try c.decodeIfPresent(Bool.self, forKey: .noUpload) ?? false
        clampsStart = try c.decodeIfPresent(Bool.self, forKey: .clampsStart) ?? false
    }

    /// `no_upload` and `clamps_start` are written only when true, so a request without them reads as before.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(from, forKey: .from)
        try c.encodeIfPresent(to, forKey: .to)
        try c.encodeIfPresent(last, forKey: .last)
        try c.encode(output, forKey: .output)
        try c.encode(keyframe, forKey: .keyframe)
        try c.encode(clear, forKey: .clear)
        try c.encode(force, forKey: .force)
        try c.encodeIfPresent(upload, forKey: .upload)
        if noUpload { try c.encode(true, forKey: .noUpload) }
        if clampsStart { try c.encode(true, forKey: .clampsStart) }
    }

    /// The checks JSON decoding cannot make; nil when the request makes sense.
    package func problem() -> String? {
        if let problem = ControlPaths.problem(output, field: "output") { return problem }
        if last != nil && (from != nil || to != nil) {
            return "give either 'last' or 'from'/'to', not both"
        }
        for (field, time) in [("from", from), ("to", to), ("last", last)] {
            if let problem = time?.rangeProblem(field: field) { return problem }
        }
        if let upload, upload.isEmpty || upload.utf8.count > 4096 {
            return "'upload' must be an rclone destination such as backup:cams, at most 4096 bytes"
        }
        if noUpload, upload != nil {
            return "give either 'upload' or 'no_upload', not both"
        }
        if let last, !last.isDuration {
            return "'last' must be a string in rec's time syntax or a number of seconds"
        }
        return nil
    }
}
