/// Where `--upload` copies files: an rclone remote path (`remote:bucket/dir`, `remote:`, a remote
/// with options such as `:sftp,host=box:dir`) or a local or mounted folder. rec never speaks the
/// storage's protocol itself: rclone does, configured with `rclone config`.
package struct UploadDestination: Sendable, Hashable, CustomStringConvertible {
    /// The destination as rclone takes it.
    package let text: String
    /// The configured remote's name (`backup` of `backup:dir` or `backup,opt=v:dir`); nil for a
    /// local folder and for an on-the-fly remote (`:sftp,…:`), which needs no configuration.
    package let remote: String?

    /// Parses DEST as rclone does: `name:path` names a remote when `name` has no `/`; anything
    /// else is a local path, which must be absolute (the CLI makes it so).
    package init(_ text: String) throws(RecError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw .usage("--upload needs a destination: an rclone remote such as backup:cams (see 'rclone config') or a folder")
        }
        self.text = trimmed
        guard let colon = Self.remoteEnd(trimmed) else {
            guard trimmed.hasPrefix("/") else {
                throw .usage("--upload \(trimmed) is a relative folder; give it from / or as an rclone remote such as backup:cams")
            }
            remote = nil
            return
        }
        if trimmed.hasPrefix(":") {
            remote = nil
            return
        }
        let name = trimmed[..<colon].prefix { $0 != "," }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || "_-. @".contains($0) }) else {
            throw .usage("--upload \(Self.redacting(trimmed)): '\(Self.redacting(String(name)))' cannot be an rclone remote's name; "
                         + "'rclone listremotes' shows yours, or give a folder such as /mnt/backup")
        }
        remote = name.isEmpty ? nil : String(name)
    }

    /// Where the remote part ends (its `:`), or nil for a local path: rclone reads `name:` (with
    /// options, `name,opt=v:`) as a remote when what comes before the colon has no `/`.
    private static func remoteEnd(_ text: String) -> String.Index? {
        var quote: Character?
        // `:backend,opt=v:path`: the leading colon starts an on-the-fly remote.
        for i in text.indices where !(i == text.startIndex && text.hasPrefix(":")) {
            let c = text[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == ":" {
                return i
            } else if c == "/" {
                return nil
            }
        }
        return nil
    }

    /// Whether DEST is a folder of this machine (or one mounted on it).
    package var isLocal: Bool { Self.isLocal(text) }

    /// Whether `text` names a local folder rather than a remote (`name:path`).
    package static func isLocal(_ text: String) -> Bool { remoteEnd(text) == nil }

    /// The rclone path of the file `name` in DEST.
    package func file(_ name: String) -> String {
        if text.hasSuffix("/") || text.hasSuffix(":") { return text + name }
        return text + "/" + name
    }

    /// The hidden name a copy is written under until it is verified, then renamed from, so a
    /// partial copy is never visible under its final name.
    package func partialFile(_ name: String, id: Int) -> String { file(".\(name).rec-partial-\(id)") }

    /// DEST for messages and status: secret options (`pass=`, `key=`, …) and credentials in URLs
    /// hidden.
    package var redacted: String { Self.redacting(text) }
    package var description: String { redacted }

    /// `message` (rclone's text) with every secret of DEST replaced by `***`.
    package func scrubbed(_ message: String) -> String { Self.scrub(message, secrets: Self.secrets(in: text)) }

    package static func redacting(_ text: String) -> String { scrub(text, secrets: secrets(in: text)) }

    private static func scrub(_ message: String, secrets: [String]) -> String {
        var result = message
        // Longest first, so a password is not half-hidden by a shorter secret inside it.
        for secret in Set(secrets).sorted(by: { $0.count > $1.count }) where !secret.isEmpty {
            result = result.replacing(secret, with: "***")
        }
        return result
    }

    /// The values of secret options (`pass=`, `key=`, `token=`…) and the user information of a
    /// URL (`url='https://user:pass@host'`) in `text`.
    static func secrets(in text: String) -> [String] {
        var found = options(text).filter { NetworkURL.isSecret(key: Substring($0.key)) }.map(\.value)
        var rest = Substring(text)
        while let scheme = rest.firstRange(of: "://") {
            let after = rest[scheme.upperBound...]
            let end = after.firstIndex { $0 == "/" || $0 == "'" || $0 == "\"" || $0 == "," } ?? after.endIndex
            if let at = after[..<end].lastIndex(of: "@") {
                let userinfo = after[..<at]
                found.append(String(userinfo))
                if let colon = userinfo.firstIndex(of: ":") { found.append(String(userinfo[userinfo.index(after: colon)...])) }
            }
            rest = after[end...]
        }
        return found
    }

    /// The `key=value` options of a remote (`:sftp,host=h,pass=p:dir`, `name,opt=v:dir`), quotes
    /// removed.
    static func options(_ text: String) -> [(key: String, value: String)] {
        guard let end = remoteEnd(text), let comma = text[..<end].firstIndex(of: ",") else {
            return []
        }
        var pairs: [(key: String, value: String)] = []
        var rest = text[text.index(after: comma)...]
        while let equals = rest.firstIndex(of: "=") {
            let key = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
            var value: Substring
            if let quote = rest.first, quote == "'" || quote == "\"" {
                rest = rest.dropFirst()
                let close = rest.firstIndex(of: quote) ?? rest.endIndex
                value = rest[..<close]
                rest = close < rest.endIndex ? rest[rest.index(after: close)...] : rest[close...]
            } else {
                let stop = rest.firstIndex { $0 == "," || $0 == ":" } ?? rest.endIndex
                value = rest[..<stop]
                rest = rest[stop...]
            }
            pairs.append((key, String(value)))
            guard rest.first == "," else { break }
            rest = rest.dropFirst()
        }
        return pairs
    }
}

extension UploadDestination {
    /// Checks `--upload-limit`: what rclone's `--bwlimit` takes for one rate, a number with an
    /// optional unit (`512k`, `2M`, `1.5G`: KiB/s, MiB/s, GiB/s; a number alone is KiB/s) or `off`.
    package static func checkLimit(_ text: String) throws(RecError) {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.lowercased() == "off" { return }
        var number = Substring(t)
        if let unit = number.last, "bkmgtpBKMGTP".contains(unit) { number = number.dropLast() }
        guard let value = Double(number), value > 0, value.isFinite else {
            throw .usage("--upload-limit \(text) is not a rate; give a rate such as 512k, 2M or 1G (bytes a second; a number alone is KiB/s)")
        }
    }
}
