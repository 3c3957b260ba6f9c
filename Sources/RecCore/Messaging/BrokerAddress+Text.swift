/// What may be shown of a broker address (never its password), and the pieces of parsing that
/// read text: percent-decoding, the host and the port.
extension BrokerAddress: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `mqtts://user:***@broker.local:8883/home/cam1?ca=/etc/rec/ca.crt`: the user kept, the
    /// password never, the port always written; for messages, logs and status.
    package var redacted: String {
        var text = scheme.rawValue + "://"
        if let userAsWritten { text += userAsWritten + (password == nil ? "" : ":***") + "@" }
        text += (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        if !prefix.isEmpty { text += "/" + prefix }
        var options: [String] = []
        if let caFile { options.append("ca=" + caFile) }
        if insecure { options.append("insecure") }
        if let clientID { options.append("client-id=" + clientID) }
        if !options.isEmpty { text += "?" + options.joined(separator: "&") }
        return text
    }

    package var description: String { redacted }
    package var debugDescription: String { "BrokerAddress(\(redacted))" }
    package var customMirror: Mirror { Mirror(self, children: ["redacted": redacted], displayStyle: .struct) }

    /// `text` (a library's log line or error) with the password replaced by `***` wherever it
    /// appears; unchanged when there is no password.
    package func scrubbed(_ text: String) -> String {
        guard let password, !password.isEmpty else { return text }
        return text.replacing(password, with: "***")
    }

    /// `%XX` decoded; a `%` not followed by two hexadecimal digits is refused, since it almost
    /// always means a character that should have been encoded was not (a password's own `%`).
    static func decoded(_ text: Substring, what: String, shown: String) throws(RecError) -> String {
        var utf8 = text.utf8[...]
        while let percent = utf8.firstIndex(of: UInt8(ascii: "%")) {
            let digits = utf8[utf8.index(after: percent)...].prefix(2)
            guard digits.count == 2, digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else {
                throw .usage("the \(what) in '\(shown)' has a '%' that is not followed by two hexadecimal digits; "
                             + "write a '%' of its own as %25")
            }
            utf8 = utf8[digits.endIndex...]
        }
        return NetworkURL.percentDecoded(text)
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port`; the port nil when none is written.
    static func hostAndPort(_ text: Substring, scheme: Scheme, shown: String) throws(RecError) -> (String, Int?) {
        var host = text, portText: Substring?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else {
                throw .usage("'\(shown)' has '\(after)' after its IPv6 address; only ':PORT' may follow the ']'")
            }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else if let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains("[") || portText?.contains(":") == true {
                throw .usage("'\(shown)' names an IPv6 address without its brackets; write e.g. "
                             + "\(scheme.rawValue)://[fd00::1]:\(scheme.defaultPort)")
            }
        }
        guard !host.isEmpty, !host.contains("["), !host.contains("]") else {
            throw .usage("'\(shown)' names no host; write e.g. \(scheme.rawValue)://broker.local:\(scheme.defaultPort)")
        }
        guard let portText else { return (String(host), nil) }
        guard portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portText), (1...65_535).contains(port) else {
            throw .usage("'\(shown)' has port '\(portText)'; a port is a number from 1 to 65535 "
                         + "(\(scheme.defaultPort) for \(scheme.rawValue)://), or leave it out with its ':'")
        }
        return (String(host), port)
    }
}
