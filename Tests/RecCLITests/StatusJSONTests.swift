import RecClient
import RecCore
import SessionControl
import Testing
import TestPool

/// `rec status --json` and the wire show times as decimals, not binary floats.
@Suite(.blocking) struct StatusJSONTests {
    @Test func timesHaveMillisecondPrecision() {
        let body = StatusBody(state: .recording, uptime: 61.123456789, fps: 29.970029970029969, ringSpan: 60.699999999999996)
        let json = StatusText.json(body)
        #expect(json == #"{"fps":29.97,"ring_span":60.7,"state":"recording","uptime":61.123}"#, "\(json)")
        let wire = String(decoding: ControlCodec.encode(ControlResponse(id: nil, reply: .ok(.status(body)))), as: UTF8.self)
        #expect(wire.contains(#""ring_span":60.7,"#), "\(wire)")
    }
}
