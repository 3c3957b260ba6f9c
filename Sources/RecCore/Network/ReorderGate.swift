/// Holds a B-frame stream's pictures, in decode order, until every picture presented before each
/// one has come, so that a recording or ring that stops anywhere ends on a whole run of pictures.
///
/// A camera with B-frames sends a picture before the B-frames presented ahead of it (I0 P4 B2 b1
/// b3 …). A recording stopped after P4 and B2 held pictures 0, 2 and 4 but not 1 and 3: its tail
/// was ragged (H.265 with three B-frames: 10.033 and 10.1 s present, 10.0 and 10.067 missing).
/// The gate lets a picture out once the pictures presented before it are in (its presentation
/// time is at or below the frontier, up to which every frame step has a picture), or once more
/// than `depth + 1` pictures came after it, which a stream of that reordering depth never needs
/// (a picture the camera lost). What is still waiting when the stream stops is never handed on:
/// at most `depth + 1` pictures, each presented after every picture handed on. Pure: the
/// camera's reader owns one per run.
package struct ReorderGate<Item: Sendable>: Sendable {
    /// The stream's reordering depth (pictures that may decode before one they follow).
    package let depth: Int
    /// One frame, in the pictures' time base.
    package let step: Int64
    private var waiting: [(item: Item, pts: Int64)] = []
    /// Presentation times seen above the frontier, ascending.
    private var ahead: [Int64] = []
    /// Every frame step up to here has had its picture.
    private var frontier: Int64?

    package init(depth: Int, step: Int64) {
        self.depth = depth
        self.step = max(1, step)
    }

    /// Pictures waiting for ones presented before them.
    package var waitingCount: Int { waiting.count }

    /// Takes the next picture in decode order; returns those now let out, in decode order.
    package mutating func add(_ item: Item, pts: Int64) -> [Item] {
        waiting.append((item, pts))
        if let edge = frontier {
            if pts > edge { ahead.insert(pts, at: ahead.firstIndex { $0 > pts } ?? ahead.endIndex) }
        } else {
            frontier = pts
        }
        advance()
        var out: [Item] = []
        while let first = waiting.first {
            if first.pts > frontier ?? .min {
                guard waiting.count > depth + 2 else { break }
                // Lost: the frontier moves past the picture that never came.
                frontier = first.pts
                ahead.removeAll { $0 <= first.pts }
                advance()
            }
            out.append(waiting.removeFirst().item)
        }
        return out
    }

    /// Moves the frontier over the pictures ahead that follow it frame by frame (within half a
    /// step of one frame on: camera times stray by a tick or two).
    private mutating func advance() {
        while let next = ahead.first, let edge = frontier, next - edge < step + step / 2 {
            frontier = next
            ahead.removeFirst()
        }
    }

    /// Ends the run (a reconnect): the pictures still waiting for ones presented before them are
    /// dropped, as at a stop, so the run ends whole; returns how many.
    @discardableResult
    package mutating func endRun() -> Int {
        defer { (waiting, ahead, frontier) = ([], [], nil) }
        return waiting.count
    }
}
