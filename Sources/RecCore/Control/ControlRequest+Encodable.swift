/// The wire form of a request: `{"v":1,"id":…,"type":"save",…fields}`, the command's fields
/// beside `v`, `id` and `type`. Decoding, with its error replies, is `ControlCodec.decodeRequest`.
extension ControlRequest: Encodable {
    private enum Keys: String, CodingKey {
        case v, id, type
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(ControlCodec.version, forKey: .v)
        try c.encode(id, forKey: .id)
        try c.encode(command.type, forKey: .type)
        switch command {
        case .hello, .stop: break
        case .status(let fields): try fields.encode(to: encoder)
        case .save(let fields): try fields.encode(to: encoder)
        case .snapshot(let fields): try fields.encode(to: encoder)
        case .control(let fields): try fields.encode(to: encoder)
        case .events(let fields): try fields.encode(to: encoder)
        }
    }
}
