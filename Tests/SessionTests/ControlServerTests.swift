import Dispatch
import Foundation
import Glibc
import RecCore
import Session
import Synchronization
import Testing
import TestPool

@Suite("ControlServer", .blocking)
struct ControlServerTests {
    @Test("hello is answered by the server with its name and pid")
    func hello() throws {
        let running = try RunningServer(name: "cam-1")
        let reply = try running.connect().send(.hello)
        #expect(reply == .ok(.hello(HelloBody(session: "cam-1", pid: getpid()))))
        #expect(running.handler.seen.withLock { $0.isEmpty })
    }

    @Test("each request reaches the handler and its reply comes back", arguments: [
        ControlCommand.status(),
        .save(SaveRequest(from: .text("-10s"), to: .seconds(3), output: "/tmp/out.mkv", keyframe: true)),
        .save(SaveRequest(last: .seconds(5), output: "/tmp/fail.mkv")),
        .snapshot(SnapshotRequest(output: "/tmp/s.png")),
        .stop,
    ])
    func roundTrip(command: ControlCommand) throws {
        let running = try RunningServer()
        let reply = try running.connect().send(command)
        #expect(running.handler.seen.withLock { $0.map(\.command) } == [command])
        let expected = TestHandler().handle(ControlRequest(id: .number(1), command: command))
        if case .status = command {
            #expect(reply == .ok(.status(StatusBody(state: .recording, source: "testsrc", frames: 1))))
        } else {
            #expect(reply == expected)
        }
    }

    @Test("ids are echoed and several requests share one connection")
    func manyOnOneConnection() throws {
        let running = try RunningServer()
        let connection = try running.connect()
        try connection.sendLine(Array("{\"v\":1,\"id\":\"first\",\"type\":\"status\"}\n{\"v\":1,\"id\":99,\"type\":\"hello\"}\n".utf8))
        #expect(try connection.receive().id == .string("first"))
        #expect(try connection.receive().id == .number(99))
        for _ in 0..<5 {
            #expect(throws: Never.self) { try connection.send(.status()).get() }
        }
    }

    static let badLines: [(String, String)] = [
        ("{\"v\":1,\"id\":1,\"type\":", "malformed JSON"),
        ("{\"v\":1,\"id\":2,\"type\":\"reboot\"}", "unknown request type 'reboot'"),
        ("{\"v\":7,\"id\":3,\"type\":\"status\"}", "version 7"),
        ("{\"v\":1,\"id\":4,\"type\":\"save\"}", "missing field 'output'"),
        (String(repeating: "x", count: 70_000), "longer than 65536 bytes"),
        ("\u{FF}\u{00}binary", "malformed JSON"),
    ]

    @Test("bad messages get a protocol error and the next good request is still answered", arguments: badLines)
    func badThenGood(line: String, mentions: String) throws {
        let running = try RunningServer()
        let connection = try running.connect()
        try connection.sendLine(Array((line + "\n").utf8))
        let response = try connection.receive()
        guard case .error(let error) = response.reply else {
            Issue.record("bad line accepted: \(response)")
            return
        }
        #expect(error.code == .protocol)
        #expect(error.message.contains(mentions), "\(error.message)")
        #expect(try connection.send(.hello) == .ok(.hello(HelloBody(session: "default", pid: getpid()))))
    }

    @Test("many clients at once all get their replies")
    func concurrentClients() throws {
        let running = try RunningServer()
        let okCount = Mutex(0)
        let runtime = running.temp.runtime
        onThreads(8) { _ in
            guard let connection = try? ControlClient.connect(session: "default", runtime: runtime) else { return }
            for _ in 0..<10 {
                if case .ok(.status) = try? connection.send(.status()) { okCount.withLock { $0 += 1 } }
            }
        }
        #expect(okCount.withLock { $0 } == 80)
        #expect(running.handler.seen.withLock { $0.count } == 80)
    }

    @Test("two slow saves run at once and status is answered while they wait")
    func slowSavesDoNotBlock() throws {
        let running = try RunningServer()
        let runtime = running.temp.runtime
        let replies = Mutex<[ControlReply]>([])
        let handler = running.handler
        let savers = DispatchSemaphore(value: 0)
        for index in 0..<2 {
            Thread {
                let reply = try? ControlClient.send(.save(SaveRequest(output: "/tmp/slow-\(index).mkv")),
                                                    session: "default", runtime: runtime, timeout: .seconds(20))
                replies.withLock { $0.append(reply ?? .runtime("no reply")) }
                savers.signal()
            }.start()
        }
        // Both saves must be inside the handler at once; a serial server would never get there.
        #expect(handler.arrived.wait(timeout: .now() + 10) == .success)
        #expect(handler.arrived.wait(timeout: .now() + 10) == .success)
        let status = try ControlClient.send(.status(), session: "default", runtime: runtime)
        if case .ok(.status(let body)) = status {
            #expect(body.state == .recording)
        } else {
            Issue.record("status failed while saves were running: \(status)")
        }
        handler.gate.signal()
        handler.gate.signal()
        savers.wait()
        savers.wait()
        let paths = replies.withLock { $0 }.compactMap { reply -> String? in
            if case .ok(.save(let report)) = reply { return report.path }
            return nil
        }
        #expect(paths.sorted() == ["/tmp/slow-0.mkv", "/tmp/slow-1.mkv"])
    }

    @Test("a client gives up after its timeout with a clear message")
    func clientTimeout() throws {
        let running = try RunningServer()
        let connection = try running.connect()
        do {
            _ = try connection.send(.save(SaveRequest(output: "/tmp/slow.mkv")), timeout: .milliseconds(100))
            Issue.record("no timeout")
        } catch {
            #expect(error.message.contains("did not answer within"))
        }
        running.handler.gate.signal()
    }

    @Test("a peer with another uid gets an error and is disconnected")
    func foreignUIDRefused() throws {
        var options = ControlServer.Options()
        options.allowedUID = getuid() &+ 1
        let running = try RunningServer(options: options)
        let connection = try running.connect()
        let response = try connection.receive()
        guard case .error(let error) = response.reply else {
            Issue.record("foreign uid accepted")
            return
        }
        #expect(error.message.contains("permission denied"))
        #expect(throws: RecError.self) { try connection.receive(timeout: .seconds(5)) }
        #expect(running.handler.seen.withLock { $0.isEmpty })
    }

    @Test("stop removes the socket, ends idle clients, and clients then hear there is no session")
    func stopIsClean() throws {
        let running = try RunningServer()
        let idle = try running.connect()
        _ = try idle.send(.hello) // served, then idle on its own thread
        #expect(running.server.isListening)
        running.server.stop()
        #expect(!running.server.isListening)
        #expect(running.server.clientCount == 0)
        #expect(access(running.folder.socketPath, F_OK) != 0)
        #expect(throws: RecError.self) { try idle.receive(timeout: .seconds(5)) }
        do {
            _ = try running.connect()
            Issue.record("connected to a stopped server")
        } catch {
            #expect(error.message == "no session 'default' is running; start one with 'rec start'")
        }
        running.server.stop()
    }

    @Test("a stop request may stop the server from inside the handler and still gets its reply")
    func stopFromHandler() throws {
        let running = try RunningServer()
        running.handler.server.withLock { $0 = running.server }
        let reply = try running.connect().send(.stop)
        #expect(reply == .ok(.stop(StopSummary(path: "/tmp/r.mkv", frames: 100))))
        #expect(!running.server.isListening)
    }

    @Test("starting a second server on a live socket is refused")
    func doubleBind() throws {
        let running = try RunningServer()
        let second = ControlServer(folder: running.folder, handler: running.handler)
        #expect(throws: RecError.self) { try second.start() }
        #expect(try running.connect().send(.hello) == .ok(.hello(HelloBody(session: "default", pid: getpid()))))
    }
}
