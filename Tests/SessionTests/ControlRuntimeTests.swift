import Foundation
import Glibc
import RecCore
import Session
import Testing
import TestPool

@Suite("RuntimeDirectory", .blocking)
struct ControlRuntimeTests {
    @Test("the base folder comes from XDG_RUNTIME_DIR, else /tmp/rec-<uid>", arguments: [
        (["XDG_RUNTIME_DIR": "/run/user/1000"], "/run/user/1000/rec"),
        (["XDG_RUNTIME_DIR": "/run/user/1000/"], "/run/user/1000/rec"),
        (["XDG_RUNTIME_DIR": "relative/dir"], "/tmp/rec-1000"),
        (["XDG_RUNTIME_DIR": ""], "/tmp/rec-1000"),
        ([:], "/tmp/rec-1000"),
    ])
    func basePath(environment: [String: String], expected: String) {
        #expect(RuntimeDirectory.basePath(environment: environment, uid: 1000) == expected)
    }

    @Test("bad session names are usage errors before any file is touched", arguments: ["", "../x", "a/b", "sp ace", String(repeating: "n", count: 65)])
    func badNames(name: String) {
        let temp = TempRuntime()
        #expect(throws: RecError.self) { try temp.runtime.claim(name, source: "testsrc") }
        do {
            _ = try temp.runtime.folder(named: name)
        } catch {
            #expect(error.code == .usage)
        }
        #expect(access(temp.runtime.path, F_OK) != 0)
    }

    @Test("claim makes a 0700 folder with pid, session.json and log; the socket is 0600")
    func claimLayout() throws {
        let temp = TempRuntime()
        let started = Date(timeIntervalSince1970: 1_764_424_985)
        let folder = try temp.runtime.claim("cam", source: "/dev/video0", startedAt: started)
        #expect(folder.path == temp.runtime.path + "/cam")
        #expect(temp.mode(temp.runtime.path) == 0o700)
        #expect(temp.mode(folder.path) == 0o700)
        #expect(folder.readPID() == getpid())
        #expect(folder.readInfo() == SessionInfo(name: "cam", pid: getpid(), source: "/dev/video0", startedAt: started))
        #expect(temp.mode(folder.logPath) == 0o600)
        let server = ControlServer(folder: folder, handler: TestHandler())
        try server.start()
        defer { server.stop() }
        #expect(temp.mode(folder.socketPath) == 0o600)
    }

    @Test("a loose runtime folder of ours is tightened to 0700")
    func looseModeFixed() throws {
        let temp = TempRuntime()
        #expect(mkdir(temp.runtime.path, 0o755) == 0)
        #expect(chmod(temp.runtime.path, 0o755) == 0)
        try temp.runtime.prepare()
        #expect(temp.mode(temp.runtime.path) == 0o700)
    }

    @Test("a symlink in place of the runtime folder is refused")
    func symlinkRefused() throws {
        let temp = TempRuntime()
        #expect(mkdir(temp.root + "/elsewhere", 0o700) == 0)
        #expect(symlink(temp.root + "/elsewhere", temp.runtime.path) == 0)
        #expect(throws: RecError.self) { try temp.runtime.prepare() }
    }

    @Test("a runtime folder owned by someone else is refused")
    func foreignOwnerRefused() throws {
        let temp = TempRuntime()
        try temp.runtime.prepare()
        let other = RuntimeDirectory(path: temp.runtime.path, uid: getuid() &+ 1)
        do {
            try other.prepare()
            Issue.record("accepted a folder owned by uid \(getuid())")
        } catch {
            #expect(error.message.contains("belongs to uid \(getuid())"))
        }
    }

    @Test("a second start of a running session is refused with its pid and start time")
    func alreadyRunning() throws {
        let running = try RunningServer()
        let runtime = running.temp.runtime
        #expect(try runtime.inspect("default") == .running(pid: getpid(), info: running.folder.readInfo()))
        let since = try #require(running.folder.readInfo()).startedAtText
        let expected = "session 'default' is already running (pid \(getpid()), since \(since)); stop it with 'rec stop' or pick another --session NAME"
        #expect(throws: RecError.usage(expected)) { try runtime.claim("default", source: "testsrc") }
        #expect(throws: RecError.usage(expected)) { try runtime.checkAvailable("default") }
        #expect(try running.connect().send(.hello) == .ok(.hello(HelloBody(session: "default", pid: getpid()))))
    }

    @Test("a folder whose pid is dead or invalid is stale and a new claim replaces it", arguments: [
        (Int32.max - 1, "pid \(Int32.max - 1) is not running"), (0, "no valid pid"), (-1, "no valid pid"),
    ])
    func deadPIDIsStale(pid: Int32, reason expected: String) throws {
        let temp = TempRuntime()
        let folder = try temp.runtime.claim("old", source: "a", pid: pid)
        guard case .stale(let reason) = try temp.runtime.inspect("old") else {
            Issue.record("pid \(pid) not seen as stale")
            return
        }
        #expect(reason.contains(expected))
        #expect(throws: Never.self) { try temp.runtime.checkAvailable("old") }
        let again = try temp.runtime.claim("old", source: "b")
        #expect(again == folder)
        #expect(folder.readInfo()?.source == "b")
        #expect(folder.readPID() == getpid())
    }

    @Test("a socket that refuses connections is stale even when the pid lives")
    func refusedSocketIsStale() throws {
        let temp = TempRuntime()
        let folder = try temp.runtime.claim("crashed", source: "a")
        // What a crash leaves: a bound socket file that nothing listens on.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(folder.socketPath.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        #expect(bound == 0)
        guard case .stale(let reason) = try temp.runtime.inspect("crashed") else {
            Issue.record("refused socket not seen as stale")
            return
        }
        #expect(reason.contains("refuses"))
        do {
            _ = try ControlClient.connect(session: "crashed", runtime: temp.runtime)
            Issue.record("connected to a dead socket")
        } catch {
            #expect(error.message.contains("not answering"))
        }
        let again = try temp.runtime.claim("crashed", source: "b")
        #expect(access(again.socketPath, F_OK) != 0)
    }

    @Test("list shows every session with whether it runs; remove deletes the folder")
    func listAndRemove() throws {
        let running = try RunningServer(name: "live")
        let runtime = running.temp.runtime
        let dead = try runtime.claim("dead", source: "x", pid: Int32.max - 1)
        let listing = runtime.list()
        #expect(listing.map(\.folder.name) == ["dead", "live"])
        #expect(listing.last?.presence == .running(pid: getpid(), info: running.folder.readInfo()))
        #expect(listing.last?.info?.source == "testsrc")
        if case .stale = listing.first?.presence {} else { Issue.record("dead session listed as \(String(describing: listing.first?.presence))") }
        dead.remove()
        #expect(access(dead.path, F_OK) != 0)
        #expect(runtime.list().map(\.folder.name) == ["live"])
        #expect(RuntimeDirectory(path: running.temp.root + "/none").list().isEmpty)
    }

    @Test("connecting to a session that does not exist says how to start it", arguments: [
        ("default", "no session 'default' is running; start one with 'rec start'"),
        ("cam2", "no session 'cam2' is running; start one with 'rec start --session cam2'"),
    ])
    func noSession(name: String, message: String) {
        let temp = TempRuntime()
        #expect(throws: RecError.runtime(message)) { try ControlClient.send(.status(), session: name, runtime: temp.runtime) }
    }

    @Test("a socket path over the sun_path limit is a clear error, not a truncated path")
    func longPath() throws {
        let temp = TempRuntime()
        let deep = temp.root + "/" + String(repeating: "d", count: 60)
        let folder = try RuntimeDirectory(path: deep).claim(String(repeating: "n", count: 60), source: "x")
        let server = ControlServer(folder: folder, handler: TestHandler())
        do {
            try server.start()
            Issue.record("bound a \(folder.socketPath.utf8.count)-byte path")
            server.stop()
        } catch {
            #expect(error.message.contains("limit"))
        }
    }

    @Test("when every slot is busy, a new client is turned away with a reply that says why")
    func maxClients() throws {
        var options = ControlServer.Options()
        options.clients = ClientSlots.Limits(maxClients: 1, maxSlowRequests: 1)
        let running = try RunningServer(options: options)
        let first = try running.connect()
        try first.sendLine(ControlCodec.encode(ControlRequest(id: .number(1), command: .save(SaveRequest(output: "/tmp/slow.mkv")))))
        running.handler.arrived.wait()
        for _ in 0..<3 {
            let reply = try running.connect().send(.status())
            #expect(reply == .runtime("session 'default' is busy answering 1 requests; try again in a moment"))
        }
        running.handler.gate.signal()
        #expect(try first.receive().reply == .ok(.save(SaveReport(path: "/tmp/slow.mkv", frames: 42, keyframe: 0.5))))
    }

    @Test("a client idle in the last slot makes room for a new one and is told why")
    func idleEvicted() throws {
        var options = ControlServer.Options()
        options.clients = ClientSlots.Limits(maxClients: 1, maxSlowRequests: 1)
        let running = try RunningServer(options: options)
        let first = try running.connect()
        _ = try first.send(.hello)
        #expect(try running.connect().send(.hello) == .ok(.hello(HelloBody(session: "default", pid: getpid()))))
        guard case .error(let error) = try first.receive().reply else {
            Issue.record("the idle client was not told")
            return
        }
        #expect(error.message.contains("needed its slot"))
    }

    @Test("a connection that sends no complete request in time is closed with a reply")
    func idleTimeout() throws {
        var options = ControlServer.Options()
        options.idleTimeout = .milliseconds(50)
        let running = try RunningServer(options: options)
        let connection = try running.connect()
        try connection.sendLine(Array(#"{"v":1,"id":1,"#.utf8))
        guard case .error(let error) = try connection.receive().reply else {
            Issue.record("an idle connection stayed open")
            return
        }
        #expect(error.message.contains("no complete request within"))
    }

    @Test("a waiting request gives up when its client hangs up, and its slot is freed")
    func hangUpReleases() throws {
        let running = try RunningServer()
        for _ in 0..<3 {
            let connection = try running.connect()
            try connection.sendLine(ControlCodec.encode(ControlRequest(id: .number(1), command: .save(SaveRequest(output: "/tmp/wait.mkv")))))
            running.handler.arrived.wait()
            connection.close()
            #expect(running.handler.gaveUp.wait(timeout: .now() + 10) == .success)
        }
        #expect(running.server.waitForClients(atMost: 0, until: .after(5)))
        #expect(running.server.clientCount == 0)
    }
}
