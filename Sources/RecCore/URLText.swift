/// URLs as rec shows them: without the credentials (`user:password@`) and the query (SRT
/// passphrases, stream keys), which are never printed, logged or shown in `status`.
package enum URLText {
    /// `text` without its user information and query when it is a URL (`scheme://…`); any other
    /// text (a device, a file) as it is. `PublishTarget.display` is this.
    package static func withoutSecrets(_ text: String) -> String {
        guard let scheme = text.firstRange(of: "://") else { return text }
        var s = Substring(text)
        if let q = s.firstIndex(of: "?") { s = s[..<q] }
        // The last '@': a password may hold an unescaped '@' or '/', and showing too little of a
        // URL is better than showing part of a password.
        if let at = s[scheme.upperBound...].lastIndex(of: "@") {
            s = s[..<scheme.upperBound] + s[s.index(after: at)...]
        }
        return String(s)
    }
}
