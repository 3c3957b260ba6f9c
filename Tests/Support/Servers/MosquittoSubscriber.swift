import Foundation
import Glibc

/// A `mosquitto_sub` the test started: the other side of rec's MQTT connection, written by
/// others. It prints each message as `MSG <retained 0|1> <payload in hex> <topic>` (`-F`), and
/// with `-d` its "Subscribed" line once the broker acknowledged the subscription, on a socket
/// this object reads (line-buffered through `stdbuf`, so each line comes as it is printed).
public final class MosquittoSubscriber {
    /// A message as mosquitto_sub received it.
    public struct Received: Equatable, Sendable {
        public var topic: String
        public var payload: [UInt8]
        public var retained: Bool
        public var text: String { String(decoding: payload, as: UTF8.self) }

        public init(topic: String, payload: [UInt8], retained: Bool) {
            self.topic = topic
            self.payload = payload
            self.retained = retained
        }
    }

    public let process: ServerProcess
    private let reading: Int32
    private var buffered: [UInt8] = []

    /// Starts the client with `arguments` (host, port, credentials, `-t` filters) and returns once
    /// it has said it is subscribed; throws with its log if it exits first or takes over 30 s.
    init(_ arguments: [String]) throws {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw ServerFailure("socketpair: \(String(cString: strerror(errno)))")
        }
        defer { close(ends[1]) }
        do {
            process = try ServerProcess("/usr/bin/stdbuf", ["-oL", "/usr/bin/mosquitto_sub", "-d", "-F", "MSG %r %x %t"] + arguments,
                                        output: ends[1])
        } catch {
            close(ends[0])
            throw error
        }
        reading = ends[0]
        let deadline = ContinuousClock.now + .seconds(30)
        while let line = nextLine(deadline: deadline) {
            if line.hasPrefix("Subscribed") { return }
        }
        throw ServerFailure("mosquitto_sub did not subscribe: \(process.logTail())")
    }

    deinit {
        process.kill()
        close(reading)
    }

    /// The next message, or nil when none comes within `timeout` or the client has exited.
    public func next(timeout: Duration = .seconds(10)) -> Received? {
        let deadline = ContinuousClock.now + timeout
        while let line = nextLine(deadline: deadline) {
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, fields[0] == "MSG" else { continue }
            return Received(topic: String(fields[3]), payload: Self.bytes(hex: fields[2]), retained: fields[1] == "1")
        }
        return nil
    }

    /// The next line the client printed, waiting on the socket until `deadline`.
    private func nextLine(deadline: ContinuousClock.Instant) -> String? {
        while true {
            if let end = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<end], as: UTF8.self)
                buffered.removeSubrange(...end)
                return line
            }
            let left = deadline - .now
            guard left > .zero else { return nil }
            var entry = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(clamping: left.components.seconds * 1000 + 1))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(reading, &chunk, chunk.count)
            guard count > 0 else { return nil }
            buffered += chunk[..<count]
        }
    }

    private static func bytes(hex: Substring) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return out
    }
}
