/// What may be shown of a URL: never its user name and password, nor a query value that holds a
/// secret. Also what `String(describing:)`, `String(reflecting:)` and `dump` print.
extension NetworkURL: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The URL without its credentials (`rtsp://***@cam:554/live`) and with its secret query
    /// values hidden (`…?user=admin&password=***`), for messages, logs and status.
    package var redacted: String { Self.redacting(address) }

    package var description: String { redacted }
    package var debugDescription: String { "NetworkURL(\(redacted))" }
    package var customMirror: Mirror { Mirror(self, children: ["redacted": redacted], displayStyle: .struct) }

    /// `text` with everything between `://` (or its start) and its last `@` replaced by `***`, and
    /// the values of secret query keys by `***`: for any text that may be a URL, one that did not
    /// parse included. It hides more than the credentials when an `@` comes later in the URL,
    /// never less.
    package static func redacting(_ text: String) -> String {
        var shown = Substring(text)
        if let at = text.lastIndex(of: "@") {
            let start = text.firstRange(of: "://").map(\.upperBound) ?? text.startIndex
            if start <= at { shown = text[..<start] + "***" + text[at...] }
        }
        guard let question = shown.firstIndex(of: "?") else { return String(shown) }
        // The whole rest is the query here, a '#' included: SRT's streamid starts with "#!::".
        let items = shown[shown.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
        let hidden = items.map { item -> Substring in
            guard let equals = item.firstIndex(of: "="), isSecret(key: item[..<equals]) else { return item }
            return item[...equals] + "***"
        }
        return String(shown[...question]) + hidden.joined(separator: "&")
    }

    /// `text` (FFmpeg's error text, a log line) with this URL's secrets replaced by `***` wherever
    /// they appear: the user name and password as written, the password percent-decoded, and the
    /// values of secret query keys. A short password hides its characters wherever they are.
    package func scrubbed(_ text: String) -> String {
        var secrets: [String] = []
        if hasCredentials, let schemeEnd = address.firstRange(of: "://") {
            let authority = Self.authority(of: address[schemeEnd.upperBound...])
            if let at = authority.lastIndex(of: "@") {
                let userinfo = authority[..<at]
                secrets.append(String(userinfo))
                if let colon = userinfo.firstIndex(of: ":") {
                    let password = userinfo[userinfo.index(after: colon)...]
                    secrets += [String(password), Self.percentDecoded(password)]
                }
            }
        }
        if let question = address.firstIndex(of: "?") {
            for item in address[address.index(after: question)...].split(separator: "&") {
                guard let equals = item.firstIndex(of: "="), Self.isSecret(key: item[..<equals]) else { continue }
                let value = item[item.index(after: equals)...]
                secrets += [String(value), Self.percentDecoded(value)]
            }
        }
        var result = text
        // Longest first, so a password is not half-hidden by a shorter secret inside it.
        for secret in Set(secrets).sorted(by: { $0.count > $1.count }) where !secret.isEmpty {
            result = result.replacing(secret, with: "***")
        }
        return result
    }

    /// Whether a query key names a secret: a password, passphrase, token, key or signature.
    static func isSecret(key: Substring) -> Bool {
        let key = key.lowercased()
        let exact: Set<String> = ["pass", "pwd", "pw", "key", "auth", "authorization", "sig", "signature"]
        return exact.contains(key) || ["passw", "passphrase", "secret", "token", "apikey", "api_key"].contains { key.contains($0) }
    }

    /// `%XX` sequences decoded as UTF-8; anything else kept as it is.
    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let high = hexValue(utf8[utf8.startIndex]), let low = hexValue(utf8[utf8.index(after: utf8.startIndex)]) {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
