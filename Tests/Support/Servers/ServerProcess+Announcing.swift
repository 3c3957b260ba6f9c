import Foundation
import Glibc

extension ServerProcess {
    /// Starts a server that says when it is ready on its standard output (`READY …`, or a
    /// progress line), and returns once it has: the first line `isReady` accepts. The lines come
    /// over a socket pair made close-on-exec at once (Glibc's module has no pipe2), so no other
    /// child spawned meanwhile holds the writing end open. Throws with the server's log when it
    /// exits first or says nothing ready within `timeout` (a hang guard).
    public static func announcing(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(60),
                                  isReady: (String) -> Bool) throws -> (ServerProcess, String) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw ServerFailure("socketpair: \(String(cString: strerror(errno)))")
        }
        defer { close(ends[0]) }
        let process: ServerProcess
        do {
            defer { close(ends[1]) }
            process = try ServerProcess(executable, arguments, output: ends[1])
        }
        let deadline = ContinuousClock.now + timeout
        while let line = readLine(ends[0], deadline: deadline) {
            if isReady(line) { return (process, line) }
        }
        process.kill()
        throw ServerFailure("\(executable) did not say it was ready: \(process.logTail())")
    }

    /// The next line written to `fd`, or nil at end of file or after `deadline`.
    private static func readLine(_ fd: Int32, deadline: ContinuousClock.Instant) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let left = deadline - .now
            guard left > .zero else { return nil }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(clamping: left.components.seconds * 1000 + 1)
            let ready = poll(&entry, 1, ms)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0, read(fd, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
