import Foundation
import RecCore
import SessionControl

/// One line of `rec status --all`: a session as it answered its status, or why it did not.
/// `--json` prints an array of these with numbers as numbers.
package struct SessionRow: Sendable, Equatable, Codable {
    /// The box the session runs on, when the command asked several (`--host`).
    package var box: String?
    package var session: String
    /// The session's state (`recording`, `starting`, `stopping`, `failed`), or `not-answering`
    /// (its status did not come), or `stale` (left by a session that crashed).
    package var state: String
    /// The frame source as the session reports it, never with a URL's credentials.
    package var source: String?
    package var frames: Int?
    /// The session times of the ring's first and last packet, in seconds.
    package var ringStart: Double?
    package var ringEnd: Double?
    /// Frames dropped, late and by the source.
    package var dropped: Int?
    /// The last error the session survived, or why it did not answer.
    package var lastError: String?

    package static let notAnswering = "not-answering"
    package static let stale = "stale"

    package init(session: String, state: String, source: String? = nil, frames: Int? = nil, ringStart: Double? = nil,
                ringEnd: Double? = nil, dropped: Int? = nil, lastError: String? = nil) {
        self.session = session
        self.state = state
        self.source = source.map(URLText.withoutSecrets)
        self.frames = frames
        self.ringStart = ringStart
        self.ringEnd = ringEnd
        self.dropped = dropped
        self.lastError = lastError
    }

    /// The row for a session folder, from the answer to its status (nil when it was not asked:
    /// a stale folder).
    package init(_ listing: SessionListing, answer: Result<ControlReply, RecError>?) {
        let name = listing.folder.name
        switch (listing.presence, answer) {
        case (.stale(let reason), _):
            self.init(session: name, state: Self.stale, source: listing.info?.source, lastError: "crashed (\(reason)); cleaned up at the next 'rec start'")
        case (_, .success(.ok(.status(let s)))?):
            let dropped = (s.droppedLate ?? 0) + (s.droppedByDriver ?? 0)
            self.init(session: name, state: s.state.rawValue, source: s.source ?? listing.info?.source, frames: s.frames,
                      ringStart: s.extra?["ring_start"].flatMap(Double.init), ringEnd: s.extra?["ring_end"].flatMap(Double.init),
                      dropped: s.droppedLate == nil && s.droppedByDriver == nil ? nil : dropped, lastError: s.lastError)
        case (_, .success(let reply)?):
            let message: String
            do throws(RecError) {
                _ = try reply.get()
                message = "it answered status with something else"
            } catch {
                message = error.message
            }
            self.init(session: name, state: Self.notAnswering, source: listing.info?.source, lastError: message)
        case (_, .failure(let error)?):
            self.init(session: name, state: Self.notAnswering, source: listing.info?.source, lastError: error.message)
        case (_, nil):
            self.init(session: name, state: Self.notAnswering, source: listing.info?.source, lastError: "it was not asked")
        }
    }
}

/// `rec status --all` as text: a header and one aligned line per session.
package enum SessionTable {
    package static func text(_ rows: [SessionRow]) -> String {
        if rows.isEmpty { return "no sessions are running; start one with 'rec start'" }
        // A BOX column first when the rows come from several boxes.
        let boxes = rows.contains { $0.box != nil }
        let header = (boxes ? ["BOX"] : []) + ["SESSION", "STATE", "SOURCE", "FRAMES", "BUFFER", "DROPPED", "LAST ERROR"]
        let cells = rows.map { r in
            (boxes ? [r.box ?? "-"] : []) + [r.session, r.state, r.source ?? "-", r.frames.map(String.init) ?? "-",
             r.ringStart.flatMap { a in r.ringEnd.map { b in "\(TimeText.clock(a))–\(TimeText.clock(b))" } } ?? "-",
             r.dropped.map(String.init) ?? "-", r.lastError ?? ""]
        }
        let all = [header] + cells
        // Numbers right-aligned; the last column as it is.
        let numeric: Set<Int> = boxes ? [4, 6] : [3, 5]
        let widths = (0..<header.count).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { line in
            line.enumerated().map { column, cell in
                if column == line.count - 1 { return cell }
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return numeric.contains(column) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
