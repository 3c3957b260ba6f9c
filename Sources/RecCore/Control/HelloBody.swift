/// The answer to `hello`, given by the server itself: who is listening.
package struct HelloBody: Sendable, Equatable, Codable {
    /// The protocol version the server speaks.
    package var protocolVersion: Int
    /// The session's name.
    package var session: String
    /// The session process's pid.
    package var pid: Int32

    package init(protocolVersion: Int = ControlCodec.version, session: String, pid: Int32) {
        self.protocolVersion = protocolVersion
        self.session = session
        self.pid = pid
    }

    private enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol", session, pid
    }
}
