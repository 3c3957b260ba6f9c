import Foundation
import Testing
import TestFileWatch
import TestPool

/// No one locks a session out: abandoned saves and idle connections do not hold its slots, a
/// refused client hears why, and `rec status` reports problems as errors.
@Suite(.blocking) struct SessionLockoutTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    static func socket(_ box: Sandbox, _ session: String = "default") -> String {
        box.folder + "/run/rec/\(session)/control.sock"
    }

    @Test func abandonedSavesAndIdleClientsDoNotLockTheSessionOut() throws {
        let box = try Sandbox()
        #expect(try box.rec(["start", "--source", "test:320x240@30", "--no-file"]).status == 0)
        try box.waitForFrames(30)
        let log = FileWatch([box.folder + "/run/rec/default/log"])
        // 40 saves waiting for a time far ahead, whose clients then hang up…
        for i in 0..<40 {
            let client = try #require(RawClient(path: Self.socket(box)))
            client.send(#"{"v":1,"id":1,"type":"save","from":"-1s","to":"+1000s","output":"\#(box.path("w\(i).mp4"))"}"# + "\n")
            client.close()
        }
        // …and 40 connections that never send anything.
        let idle = (0..<40).compactMap { _ in RawClient(path: Self.socket(box)) }
        #expect(idle.count == 40)
        let status = try box.rec(["status"])
        #expect(status.status == 0, "\(status.error)")
        // A save needs a slot the abandoned ones held: it gets one once they notice the hang-up,
        // which each writes to the session's log ("the client hung up"): try again on each line.
        let saved = try log.wait { try box.rec(["save", "--last", "1s", "-o", "after.mp4"]).status == 0 }
        #expect(saved)
        #expect(!FileManager.default.fileExists(atPath: box.path("w0.mp4")))
        let stop = try box.rec(["stop"])
        #expect(stop.status == 0, "\(stop.error)")
        withExtendedLifetime(idle) {}
    }

    @Test func statusOfABadSessionNameIsAUsageError() throws {
        let box = try Sandbox()
        let status = try box.rec(["status", "--session", "../etc"])
        #expect(status.status == 64)
        #expect(status.output.isEmpty)
        #expect(status.error.hasPrefix("rec: session name '../etc' contains '/'"), "\(status.error)")
    }

    @Test func statusOfNoSessionSaysSoOnStderr() throws {
        let box = try Sandbox()
        let status = try box.rec(["status"])
        #expect(status.status == 1)
        #expect(status.output.isEmpty)
        #expect(status.error.hasPrefix("rec: no session 'default' is running"), "\(status.error)")
        let json = try box.rec(["status", "--json"])
        #expect(json.status == 1)
        #expect(json.output.contains(#""state":"absent""#))
    }
}

extension SessionLockoutTests {
    @Test(arguments: ["status", "stop", "save"])
    func aRefusedClientPrintsTheSessionsReason(command: String) throws {
        let box = try Sandbox()
        let reason = "session 'default' is busy answering 32 requests; try again in a moment"
        let listener = try RefusingListener(path: Self.socket(box),
                                            reply: #"{"error":{"code":"runtime","message":"\#(reason)"},"id":null,"ok":false,"v":1}"#)
        for _ in 0..<5 {
            let arguments = command == "save" ? ["save", "--last", "1s", "-o", "x.mp4"] : [command]
            let result = try box.rec(arguments)
            #expect(result.status == 1)
            #expect(result.error == "rec: \(reason)\n", "\(result.error)")
        }
        withExtendedLifetime(listener) {}
    }
}
