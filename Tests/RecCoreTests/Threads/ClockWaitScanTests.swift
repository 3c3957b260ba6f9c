import Foundation
import Testing

/// Issue 20, item 4: threads wait on conditions (a `Latch`, a pipe, a pidfd, a socket), never on a
/// clock in a loop. Scans Sources for the calls that sleep and for semaphores used as hand-made
/// latches. Paced capture waits for a frame's time on the recorder's stop latch (one wake).
@Suite struct ClockWaitScanTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Files allowed to sleep, and why.
    static let pacing: Set<String> = [
        // JavaScript in the live page (`await sleep(250)` in the browser), not Swift.
        "Live/LivePage.swift",
    ]

    /// Files still allowed a `DispatchSemaphore(value: 0)`: the sound recorder (changed elsewhere)
    /// and the live fan-out's wake-ups, which count packets rather than latch an event.
    static let semaphores: Set<String> = [
        // The latch itself: one semaphore per sleeping waiter, made for that wait.
        "RecCore/Threads/Latch.swift",
        "Session/Recorder/SoundRecorder.swift",
        "Live/LiveViewer.swift",
        "Live/LiveBroadcast.swift",
        // The review grid's wake-ups, one per record queued for its viewer (as LiveViewer's).
        "Review/GridStream.swift",
    ]

    static let tests = sources.deletingLastPathComponent().appendingPathComponent("Tests")

    /// Test files allowed to sleep, and why: none waits for something it could observe.
    static let testSleeps: Set<String> = [
        // The kill's instant (a seeded moment after capture began) is the test's subject.
        "RecCLITests/KillTests.swift",
        // A camera silent for 10 s (issue 21's SIGSTOP outage): the silence's length is the subject.
        "RecCLITests/Network/NetworkOutageTests.swift",
        // A network camera away for 5 s (issue 42's outage on the review timeline): its length is the subject.
        "RecCLITests/Review/ReviewPageBrowserTests.swift",
        // The same for a 3 s outage as a gap in /api/recordings.
        "RecCLITests/LiveReviewAPITests.swift",
        // This scan names the calls it looks for.
        "RecCoreTests/Threads/ClockWaitScanTests.swift",
    ]

    static func files(in folder: URL = sources) throws -> [(path: String, text: String)] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var out: [(String, String)] = []
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            out.append((path, try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)))
        }
        return out
    }

    static func matches(_ text: String, _ pattern: String) -> [String] {
        text.split(separator: "\n").filter { $0.range(of: pattern, options: .regularExpression) != nil }.map(String.init)
    }

    @Test func theScanSeesTheSources() throws {
        #expect(try Self.files().count > 100)
    }

    @Test func onlyPacedCaptureSleeps() throws {
        for (path, text) in try Self.files() where !Self.pacing.contains(path) {
            let found = Self.matches(text, #"usleep|Thread\.sleep|sleep\("#)
            #expect(found.isEmpty, "\(path) waits on a clock: \(found)")
        }
    }

    /// Issue 20: no test waits with a sleep for something it could observe (a latch, a status
    /// wait, inotify, a pidfd, a FIFO); they wait on the observation instead.
    @Test func noTestSleeps() throws {
        let files = try Self.files(in: Self.tests)
        #expect(files.count > 100)
        for (path, text) in files where !Self.testSleeps.contains(path) {
            let found = Self.matches(text, #"usleep|Thread\.sleep|sleep\(|Task\.sleep"#)
            #expect(found.isEmpty, "\(path) waits on a clock: \(found)")
        }
    }

    @Test func noSemaphoreServesAsALatch() throws {
        for (path, text) in try Self.files() where !Self.semaphores.contains(path) {
            let found = Self.matches(text, #"DispatchSemaphore\(value: 0\)"#)
            #expect(found.isEmpty, "\(path) makes its own latch; use RecCore's Latch: \(found)")
        }
    }
}
