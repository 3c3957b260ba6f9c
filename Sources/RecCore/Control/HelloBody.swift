/// The answer to `hello`, given by the server itself: who is listening.
public struct HelloBody: Sendable, Equatable, Codable {
    /// The protocol version the server speaks.
    public var protocolVersion: Int
    /// The session's name.
    public var session: String
    /// The session process's pid.
    public var pid: Int32

    public init(protocolVersion: Int = ControlCodec.version, session: String, pid: Int32) {
        self.protocolVersion = protocolVersion
        self.session = session
        self.pid = pid
    }

    private enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol", session, pid
    }
}
