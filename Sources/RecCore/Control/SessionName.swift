/// Checks the name of a background session (`--session NAME`): it becomes a folder name under
/// the runtime folder, so it is kept to letters, digits, `-`, `_` and `.`, 1 to 64 characters,
/// and may not be `.` or `..`.
package enum SessionName {
    /// The session used when none is named.
    package static let defaultName = "default"
    /// The longest name accepted.
    package static let maxLength = 64

    /// Returns `name` if it is a valid session name, else throws a usage error saying why.
    @discardableResult
    package static func validate(_ name: String) throws(RecError) -> String {
        if name.isEmpty {
            throw .usage("a session name cannot be empty; use letters, digits, '-', '_' or '.'")
        }
        if name.utf8.count > maxLength {
            throw .usage("session name '\(name.prefix(20))…' is \(name.utf8.count) characters; the limit is \(maxLength)")
        }
        if name == "." || name == ".." {
            throw .usage("'\(name)' cannot be a session name; pick another --session NAME")
        }
        if let bad = name.unicodeScalars.first(where: { !isAllowed($0) }) {
            throw .usage("session name '\(name)' contains '\(bad)'; use only letters, digits, '-', '_' or '.'")
        }
        return name
    }

    /// True when `name` passes `validate`.
    package static func isValid(_ name: String) -> Bool {
        (try? validate(name)) != nil
    }

    private static func isAllowed(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": true
        default: false
        }
    }

    /// The hint `rec` commands give for starting this session: `rec start` or `rec start --session NAME`.
    package static func startCommand(for name: String) -> String {
        name == defaultName ? "rec start" : "rec start --session \(name)"
    }
}

extension SessionName {
    /// The names in `--session a,b,c`, each checked, in the order given. Spaces around a name are
    /// dropped; an empty name or one given twice is a usage error.
    package static func list(_ text: String) throws(RecError) -> [String] {
        var names: [String] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var trimmed = part
            while trimmed.first == " " { trimmed.removeFirst() }
            while trimmed.last == " " { trimmed.removeLast() }
            let name = String(trimmed)
            if name.isEmpty {
                throw .usage("'\(text)' has an empty session name; separate names with single commas, such as a,b,c")
            }
            if names.contains(name) { throw .usage("session '\(name)' is named twice in --session \(text); name each once") }
            names.append(try validate(name))
        }
        return names
    }
}
