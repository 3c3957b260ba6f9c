/// How a save from several sessions names its clips, one per session, from one `-o`:
///
/// - a folder (`-o clips/`, or an existing folder): `clips/SESSION.mp4`;
/// - a pattern with `%s` (`-o 'clip-%s.mkv'`): `%s` becomes the session's name;
/// - no `-o`: the name a single save would get (`clip-20261129-140305.mp4`, or the configured
///   `output` pattern's), with `-SESSION` before its extension.
///
/// Any other `-o` names one file, which several clips cannot share: a usage error.
package enum ClipNaming: Sendable, Equatable {
    case folder(String)
    case pattern(String)
    case suffixed(String)

    /// The extension of clips written into a folder.
    package static let folderExtension = Container.mp4.rawValue

    /// The naming `-o` asks for; `isFolder` says whether it names an existing folder (the caller
    /// looks, so this stays free of I/O).
    package init(output: String, isFolder: Bool) throws(RecError) {
        if isFolder || output.hasSuffix("/") {
            self = .folder(output.hasSuffix("/") ? String(output.dropLast()) : output)
        } else if output.contains("%s") {
            self = .pattern(output)
        } else {
            throw .usage("-o \(output) names one file, and each session needs its own clip; give a folder "
                + "(-o clips/ writes clips/SESSION.mp4) or a name with %s for the session (-o 'clip-%s.mp4')")
        }
    }

    /// The clip's path for session `name`.
    package func path(for name: String) -> String {
        switch self {
        case .folder(let folder):
            return folder + "/" + name + "." + Self.folderExtension
        case .pattern(let pattern):
            return pattern.replacingAll("%s", with: name)
        case .suffixed(let single):
            let slash = single.lastIndex(of: "/").map { single.index(after: $0) } ?? single.startIndex
            guard let dot = single[slash...].lastIndex(of: "."), dot > slash else { return single + "-" + name }
            return String(single[..<dot]) + "-" + name + String(single[dot...])
        }
    }
}

extension String {
    /// Every `target` replaced by `replacement`, without Foundation.
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
