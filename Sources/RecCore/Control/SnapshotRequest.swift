/// The fields of a `snapshot` request: write the latest frame as an image.
package struct SnapshotRequest: Sendable, Equatable, Codable {
    /// Absolute path of the JPEG to write (`.jpg` or `.jpeg`).
    package var output: String
    /// Overwrite `output` if it exists.
    package var force: Bool

    package init(output: String, force: Bool = false) {
        self.output = output
        self.force = force
    }

    private enum CodingKeys: String, CodingKey {
        case output, force
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        output = try c.decode(String.self, forKey: .output)
        force = try c.decodeIfPresent(Bool.self, forKey: .force) ?? false
    }

    /// The checks JSON decoding cannot make; nil when the request makes sense.
    package func problem() -> String? {
        ControlPaths.problem(output, field: "output")
    }
}

/// Checks on paths carried in requests.
enum ControlPaths {
    static func problem(_ path: String, field: String) -> String? {
        if path.isEmpty { return "'\(field)' is empty; give an absolute path" }
        if !path.hasPrefix("/") { return "'\(field)' must be an absolute path, not '\(path)'" }
        if path.utf8.contains(0) { return "'\(field)' contains a NUL byte" }
        return nil
    }
}
