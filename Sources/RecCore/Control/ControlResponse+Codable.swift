/// The wire form of a reply: `{"v":1,"id":…,"ok":true,"<type>":{…}}` or
/// `{"v":1,"id":…,"ok":false,"error":{"code":…,"message":…}}`.
extension ControlResponse: Codable {
    private enum Keys: String, CodingKey {
        case v, id, ok, error, hello, status, save, snapshot, stop, control, events
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        version = try c.decode(Int.self, forKey: .v)
        id = try c.decodeIfPresent(ControlID.self, forKey: .id)
        if try c.decode(Bool.self, forKey: .ok) {
            if let body = try c.decodeIfPresent(HelloBody.self, forKey: .hello) {
                reply = .ok(.hello(body))
            } else if let body = try c.decodeIfPresent(StatusBody.self, forKey: .status) {
                reply = .ok(.status(body))
            } else if let body = try c.decodeIfPresent(SaveReport.self, forKey: .save) {
                reply = .ok(.save(body))
            } else if let body = try c.decodeIfPresent(SnapshotReport.self, forKey: .snapshot) {
                reply = .ok(.snapshot(body))
            } else if let body = try c.decodeIfPresent(StopSummary.self, forKey: .stop) {
                reply = .ok(.stop(body))
            } else if let body = try c.decodeIfPresent(CameraControlReport.self, forKey: .control) {
                reply = .ok(.control(body))
            } else if let body = try c.decodeIfPresent(EventsReport.self, forKey: .events) {
                reply = .ok(.events(body))
            } else {
                throw DecodingError.dataCorrupted(.init(codingPath: [Keys.ok],
                    debugDescription: "an ok reply carries none of hello, status, save, snapshot, stop, control, events"))
            }
        } else {
            reply = .error(try c.decode(ControlError.self, forKey: .error))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(version, forKey: .v)
        if let id { try c.encode(id, forKey: .id) } else { try c.encodeNil(forKey: .id) }
        switch reply {
        case .error(let error):
            try c.encode(false, forKey: .ok)
            try c.encode(error, forKey: .error)
        case .ok(let body):
            try c.encode(true, forKey: .ok)
            switch body {
            case .hello(let b): try c.encode(b, forKey: .hello)
            case .status(let b): try c.encode(b, forKey: .status)
            case .save(let b): try c.encode(b, forKey: .save)
            case .snapshot(let b): try c.encode(b, forKey: .snapshot)
            case .stop(let b): try c.encode(b, forKey: .stop)
            case .control(let b): try c.encode(b, forKey: .control)
            case .events(let b): try c.encode(b, forKey: .events)
            }
        }
    }
}
