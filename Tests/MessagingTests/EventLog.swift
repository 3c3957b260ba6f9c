import Foundation
import Glibc
import Messaging
import RecCore
import Synchronization
import TestServers

/// Every event a connection reported, in order, for a test to wait on: a wait is woken by each
/// new event (a `Latch` pulse), never by a clock; 10 s is a hang guard.
final class EventLog: Sendable {
    private let events = Mutex<[MQTTEvent]>([])
    private let changed = Latch()

    func record(_ event: MQTTEvent) {
        events.withLock { $0.append(event) }
        changed.pulse()
    }

    var all: [MQTTEvent] { events.withLock { $0 } }
    var count: Int { events.withLock { $0.count } }

    /// The first event at or after position `start` that `match` accepts, and its position; nil
    /// if none came within `timeout` seconds.
    func wait(from start: Int = 0, timeout: Double = 10,
              _ match: (MQTTEvent) -> Bool) -> (event: MQTTEvent, position: Int)? {
        var found: (MQTTEvent, Int)?
        _ = changed.wait(until: .after(timeout)) {
            let seen = all
            guard start < seen.count else { return false }
            found = seen[start...].enumerated().first { match($0.element) }.map { ($0.element, start + $0.offset) }
            return found != nil
        }
        return found
    }

    /// The first message on `topic` at or after `start`.
    func message(on topic: String, from start: Int = 0) -> MQTTMessage? {
        guard case .message(let message)? = wait(from: start, { if case .message(let m) = $0 { m.topic == topic } else { false } })?.event
        else { return nil }
        return message
    }

    /// The position of the first `.connected` at or after `start`.
    func connected(from start: Int = 0) -> Int? { wait(from: start) { $0 == .connected }?.position }
}

extension MQTTConnection {
    /// A connection for a test, reporting to `log`, with libmosquitto's shortest backoff (1 s).
    static func make(_ url: String, will: MQTTWill? = nil, log: EventLog) throws -> MQTTConnection {
        try MQTTConnection(address: BrokerAddress.parse(url), clientID: "rec-test-\(UUID().uuidString.prefix(8))", will: will,
                           options: Options(keepAlive: 5, reconnectDelay: (1, 2)), events: log.record)
    }
}

/// Cuts this process's TCP connections to 127.0.0.1:`port` (`shutdown(2)` on the socket, found
/// through /proc), as a network that fails would: the broker reads the end of the stream with no
/// DISCONNECT before it, and libmosquitto sees its socket fail. Returns how many it cut.
func cutConnections(toPort port: Int) -> Int {
    // Read to its end: the kernel reports the table's size as 0, and it is longer than a page
    // while other tests' brokers and clients run.
    guard let bytes = try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/net/tcp")).readToEnd() else { return 0 }
    let table = String(decoding: bytes, as: UTF8.self)
    let remote = String(format: "0100007F:%04X", port)
    let inodes = Set(table.split(separator: "\n").dropFirst().compactMap { line -> String? in
        let fields = line.split(separator: " ")
        return fields.count > 9 && fields[2] == remote && fields[3] == "01" ? String(fields[9]) : nil
    })
    var cut = 0
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
        guard let fd = Int32(entry),
              let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
              target.hasPrefix("socket:["), inodes.contains(String(target.dropFirst(8).dropLast())) else { continue }
        if shutdown(fd, Int32(SHUT_RDWR)) == 0 { cut += 1 }
    }
    return cut
}
