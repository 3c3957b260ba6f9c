/// Where `rec start --http [ADDR:]PORT` serves the live page: loopback unless an address is given.
package struct LiveEndpoint: Sendable, Equatable {
    package var address: String
    /// 0 picks any free port (the session prints the one it got).
    package var port: Int

    package init(address: String = "127.0.0.1", port: Int) {
        self.address = address
        self.port = port
    }

    /// Parses `8080`, `127.0.0.1:8080`, `0.0.0.0:8080`, `[::1]:8080`.
    package static func parse(_ text: String) throws(RecError) -> LiveEndpoint {
        var address = "127.0.0.1"
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw .usage("--http \(text) is not [ADDR:]PORT; write an IPv6 address in brackets, e.g. [::1]:8080")
            }
            address = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            address = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            if address.contains(":") {
                throw .usage("--http \(text): write an IPv6 address in brackets, e.g. [::1]:8080")
            }
        }
        if address == "localhost" { address = "127.0.0.1" }
        guard !address.isEmpty, let port = Int(portText), (0...65535).contains(port) else {
            throw .usage("--http \(text) is not [ADDR:]PORT; give a port from 1 to 65535, e.g. --http 8080 or --http 0.0.0.0:8080")
        }
        return LiveEndpoint(address: address, port: port)
    }

    package var isLoopback: Bool { LiveAccess.isLoopback(address) }
}
