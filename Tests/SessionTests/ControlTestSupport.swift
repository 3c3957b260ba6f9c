import Dispatch
import Foundation
import Glibc
import RecCore
import Session
import Synchronization

/// A private runtime folder under /tmp for one test, removed when released. Short paths keep
/// socket paths under the 108-byte `sun_path` limit.
final class TempRuntime {
    let root: String
    let runtime: RuntimeDirectory

    init() {
        var template = Array("/tmp/rec-t-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        root = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        runtime = RuntimeDirectory(path: root + "/rec")
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The mode bits (permissions only) of `path`.
    func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }
}

/// A handler that answers every request with a recognisable body. Saves to a path containing
/// "slow" signal `arrived` and wait for `gate` (at most 10 s, then fail), so tests can hold
/// several of them in flight; saves to a path containing "wait" signal `arrived`, then wait
/// (at most 10 s) for their client to hang up and signal `gaveUp`.
final class TestHandler: ControlHandler {
    let arrived = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    let gaveUp = DispatchSemaphore(value: 0)
    let seen = Mutex<[ControlRequest]>([])
    /// Set when a test wants `stop` to stop the server from inside the handler.
    let server = Mutex<ControlServer?>(nil)

    func handle(_ request: ControlRequest, peer: ControlPeer) -> ControlReply {
        guard case .save(let save) = request.command, save.output.contains("wait") else { return handle(request) }
        arrived.signal()
        for _ in 0..<1000 where peer.hasHungUp(waiting: 10) {
            gaveUp.signal()
            return .runtime("client hung up")
        }
        return .runtime("the client never hung up")
    }

    func handle(_ request: ControlRequest) -> ControlReply {
        seen.withLock { $0.append(request) }
        switch request.command {
        case .hello:
            return .runtime("hello reached the handler")
        case .status:
            return .ok(.status(StatusBody(state: .recording, source: "testsrc", frames: seen.withLock { $0.count })))
        case .save(let save):
            if save.output.contains("slow") {
                arrived.signal()
                if gate.wait(timeout: .now() + 10) == .timedOut { return .runtime("gate never opened") }
            }
            if save.output.contains("fail") { return ControlReply(RecError.runtime("disk full")) }
            return .ok(.save(SaveReport(path: save.output, frames: 42, keyframe: 0.5)))
        case .snapshot(let snapshot):
            return .ok(.snapshot(SnapshotReport(path: snapshot.output, width: 64, height: 48)))
        case .events:
            return .ok(.events(EventsReport(session: "test", motion: false)))
        case .control(let control):
            return .ok(.control(CameraControlReport(controls: control.settings.map {
                ControlState(CameraControl(id: 1, label: $0.name, kind: .integer, value: Int64($0.value)))
            })))
        case .stop:
            server.withLock { $0 }?.stop()
            return .ok(.stop(StopSummary(path: "/tmp/r.mkv", frames: 100)))
        }
    }
}

/// A running server on a claimed folder, stopped when released.
final class RunningServer {
    let temp = TempRuntime()
    let handler = TestHandler()
    let folder: SessionFolder
    let server: ControlServer

    init(name: String = "default", options: ControlServer.Options = ControlServer.Options()) throws {
        folder = try temp.runtime.claim(name, source: "testsrc")
        server = ControlServer(folder: folder, handler: handler, options: options)
        try server.start()
    }

    func connect() throws(RecError) -> ControlConnection {
        try ControlClient.connect(session: folder.name, runtime: temp.runtime)
    }

    deinit {
        server.stop()
        folder.remove()
    }
}

/// Runs `body` on `count` fresh threads and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchSemaphore(value: 0)
    for index in 0..<count {
        Thread {
            body(index)
            done.signal()
        }.start()
    }
    for _ in 0..<count { done.wait() }
}
