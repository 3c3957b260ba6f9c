import Foundation
import Glibc
import Media
import RecCore
import Testing
import TestPool

/// The review page's grid (`GET /api/grid`, docs/REVIEW.md): every tile's live stream over one
/// connection, as `GridRecord`s. Read over plain HTTP and in headless Chromium.
@Suite(.blocking, .serialized) struct ReviewGridTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox
    typealias Browser = LivePageBrowserTests.Browser

    /// Each camera's records, put back together: its start records' types and its bytes.
    struct Demuxed {
        var names: [String] = []
        var starts: [Int: [String]] = [:]
        var data: [Int: [UInt8]] = [:]
        var ends: [Int: Int] = [:]
        var kinds: [UInt8] = []

        mutating func add(_ records: [GridRecord.Parsed]) {
            for record in records {
                kinds.append(record.kind)
                switch GridRecord.Kind(rawValue: record.kind) {
                case .cameras:
                    names = (try? JSONSerialization.jsonObject(with: Data(record.payload))) as? [String] ?? []
                case .start: starts[record.camera, default: []].append(String(decoding: record.payload, as: UTF8.self))
                case .data: data[record.camera, default: []] += record.payload
                case .end: ends[record.camera, default: 0] += 1
                case nil: Issue.record("a record of kind \(record.kind)")
                }
            }
        }
    }

    static func demux(_ body: [UInt8]) -> Demuxed {
        var out = Demuxed()
        out.add(GridRecord.parse(body).records)
        return out
    }

    /// `rec review` beside a stand-in camera session per name, each past `frames` frames.
    static func box(_ names: [String], _ source: String, frames: Int) throws -> (Sandbox, ReviewBox) {
        let sandbox = try Sandbox()
        let box = try ReviewBox(sandbox: sandbox)
        for name in names { try box.startCamera(name, source) }
        for name in names { try sandbox.waitForFrames(frames, session: name) }
        return (sandbox, box)
    }

    @Test func oneResponseCarriesEveryCameraAsAPlayableFragmentedMP4() throws {
        let names = ["a", "b", "c"]
        let (sandbox, box) = try Self.box(names, "test:320x240@30", frames: 30)

        // A watch token may read it; no token may not; a camera not running is 404.
        #expect(try box.request("GET", "/api/grid?cams=a,b,c", token: nil).status == 401)
        #expect(try box.request("GET", "/api/grid?cams=a,nobody", token: box.watchToken).status == 404)
        #expect(try box.request("GET", "/api/grid", token: box.watchToken).status == 400)
        let grid = try box.request("GET", "/api/grid?cams=a,b,c", token: box.watchToken, limit: 400_000)
        #expect(grid.status == 200 && grid.headers["content-type"] == "application/octet-stream", "\(grid.status) \(grid.headers)")
        let records = Self.demux(grid.body)
        #expect(records.kinds.first == GridRecord.Kind.cameras.rawValue && records.names == names, "\(records.names)")
        for (index, name) in names.enumerated() {
            // One start, its type the session's own, then the session's bytes: a fragmented MP4 whose
            // stand-in frame numbers rise one by one.
            let mime = try box.request("GET", "/cam/\(name)/api/live", token: box.watchToken).json["mime"] as? String
            #expect(records.starts[index] == [mime ?? "?"], "\(name): \(records.starts[index] ?? [])")
            let file = sandbox.path("grid-\(name).mp4")
            try Data(records.data[index] ?? []).write(to: URL(fileURLWithPath: file))
            let stamps = try FrameReader.read(path: file).frames.compactMap(\.stamp)
            #expect(stamps.count >= 20 && BackgroundSessionTests.consecutive(stamps), "\(name): \(stamps.count) frames \(stamps.prefix(5))…")
            print("grid \(name): \((records.data[index] ?? []).count) bytes, frames \(stamps.first ?? -1)…\(stamps.last ?? -1)")
        }
        #expect(records.ends.isEmpty, "\(records.ends)")
        for name in names { #expect(try sandbox.rec(["stop", "--session", name]).status == 0) }
    }

    /// Two viewers of the same cameras share one stream from each session (the session counts one
    /// viewer), and the second, joining mid-stream, gets the init segment and then fragments from a
    /// keyframe on: both decode as consecutive stand-in frames.
    @Test func viewersShareOneStreamPerCameraAndAJoinerStartsAtAKeyframe() throws {
        let names = ["a", "b"]
        let (sandbox, box) = try Self.box(names, "test:320x240@30", frames: 30)
        let viewers = { (name: String) throws -> Int in
            Int((try sandbox.status(name)["extra"] as? [String: String])?["live_viewers"] ?? "") ?? -1
        }
        let first = GridReader(port: box.port, cams: names, token: box.watchToken)
        defer { first.close() }
        #expect(first.read { $0.records.starts.count == names.count }, "the first viewer's cameras never started")
        let second = GridReader(port: box.port, cams: names, token: box.watchToken)
        defer { second.close() }
        #expect(second.read { $0.records.starts.count == names.count }, "the second viewer's cameras never started")
        let held = try names.map(viewers)
        #expect(held == [1, 1], "each session should send its stream once for both viewers: \(held)")
        for (label, viewer) in [("first", first), ("second", second)] {
            let enough = viewer.read { v in names.indices.allSatisfy { v.dataRecords[$0, default: 0] >= 25 } }
            #expect(enough, "\(label) viewer: \(viewer.dataRecords) data records")
            for (index, name) in names.enumerated() {
                let file = sandbox.path("grid-\(label)-\(name).mp4")
                try Data(viewer.records.data[index] ?? []).write(to: URL(fileURLWithPath: file))
                let stamps = try FrameReader.read(path: file).frames.compactMap(\.stamp)
                #expect(stamps.count >= 20 && BackgroundSessionTests.consecutive(stamps), "\(label) \(name): \(stamps.count) frames \(stamps.prefix(5))…")
            }
        }
        #expect(first.records.ends.isEmpty && second.records.ends.isEmpty, "\(first.records.ends) \(second.records.ends)")
        for name in names { #expect(try sandbox.rec(["stop", "--session", name]).status == 0) }
    }

    /// A viewer that stops reading is dropped: every session it watched lets its stream go, and
    /// their frames keep coming meanwhile. Real time (the drop comes 10 s after the viewer's bytes
    /// stop leaving the server, once the kernel's socket buffers are full: 25 s with three 640x480 cameras):
    /// with `scripts/test.sh --soak` only; the drop rule itself is GridRecordTests'.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["REC_SOAK"] != nil))
    func aViewerThatStopsReadingIsDroppedAndHoldsNoSession() throws {
        let names = ["a", "b", "c"]
        let (sandbox, box) = try Self.box(names, "test:640x480@30", frames: 30)
        let viewers = { (name: String) throws -> Int in
            Int((try sandbox.status(name)["extra"] as? [String: String])?["live_viewers"] ?? "") ?? -1
        }
        let viewer = GridReader(port: box.port, cams: names, token: box.watchToken)
        defer { viewer.close() }
        // Read until every camera's start record has come (the grid reached every session), then stop reading.
        viewer.read { $0.records.starts.count == names.count }
        let started = Set(viewer.records.starts.keys)
        #expect(started.count == names.count, "the grid never reached every session: starts \(started)")
        let before = try names.map { try sandbox.status($0)["frames"] as? Int ?? 0 }
        // The drop comes 10 s after the viewer's bytes stop leaving the server, and the kernel takes
        // up to about 2 MB into the socket's buffers first (45 s for one 640x480 camera): watch 5 s of
        // frames at a time, for at most 2 minutes.
        var held = try names.map(viewers), watched = 0
        while held.contains(where: { $0 != 0 }) && watched < 120 {
            watched += 5
            for (index, name) in names.enumerated() { try sandbox.waitForFrames(before[index] + watched * 30, session: name) }
            held = try names.map(viewers)
        }
        #expect(held.allSatisfy { $0 == 0 }, "the stalled grid viewer still holds its sessions after \(watched) s: \(held)")
        print("stalled grid viewer: every session let go within \(watched) s")
        let after = try names.map { try sandbox.status($0)["frames"] as? Int ?? 0 }
        for (index, name) in names.enumerated() {
            #expect(after[index] > before[index] + 30, "\(name): \(before[index]) → \(after[index]) frames")
        }
        // The dropped viewer's answer ends once it reads again (the page then connects again).
        viewer.read { $0.records.data.values.reduce(0) { $0 + $1.count } > 64 << 20 }
        #expect(viewer.ended, "the dropped viewer's answer did not end")
        for name in names { #expect(try sandbox.rec(["stop", "--session", name]).status == 0) }
    }

    /// Eight cameras in headless Chromium: every tile plays live over the one grid connection.
    @Test func everyTileOfEightPlaysLiveInChromium() throws {
        let names = (1...8).map { "cam\($0)" }
        let (sandbox, box) = try Self.box(names, "test:160x120@15", frames: 15)
        let results = try LivePageBrowserTests.selftest(.chromium, box.watchURL, profile: sandbox.path("chromium"),
                                                        hash: "#gridtest&cameras=8&frames=5")
        let grid = try #require(results["grid"] as? [String: Any], "\(results)")
        let frames = grid["frames"] as? [String: [Int]] ?? [:]
        for name in names {
            let seen = frames[name] ?? []
            #expect(seen.count >= 5 && seen == seen.sorted() && Set(seen).count == seen.count, "\(name) showed \(seen)")
        }
        #expect(grid["cameras"] as? String == names.sorted().joined(separator: ","), "\(grid)")
        print("grid in Chromium: opened \(grid["opened"] ?? "?") time(s), frames per tile \(names.map { frames[$0]?.count ?? 0 })")
        for name in names { #expect(try sandbox.rec(["stop", "--session", name]).status == 0) }
    }
}
