import Foundation
import Glibc
import RecCore

/// A grid viewer over a raw socket (`GET /api/grid`, docs/REVIEW.md) that reads only when told, so
/// a test can hold several open at once or stop reading one.
final class GridReader {
    let fd: Int32
    private var bytes: [UInt8] = []
    private var headerDone = false
    /// Every whole record read so far, put back together by camera.
    private(set) var records = ReviewGridTests.Demuxed()
    /// Data records by camera (after a start, each is one fragment: one picture).
    private(set) var dataRecords: [Int: Int] = [:]
    /// Whether the server ended the answer.
    private(set) var ended = false

    init(port: Int, cams: [String], token: String) {
        fd = HTTPTestClient.stalled(port: port, "/api/grid?cams=" + cams.joined(separator: ","), headers: ["X-Rec-Token": token])
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads until `done` holds for what came, the answer ends or nothing comes for 10 s; says
    /// whether `done` held.
    @discardableResult
    func read(until done: (GridReader) -> Bool) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !done(self) {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { ended = true }
            if n <= 0 { return false }
            bytes += chunk[0..<n]
            if !headerDone {
                guard let head = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { continue }
                bytes.removeFirst(head.upperBound)
                headerDone = true
            }
            let (parsed, used) = GridRecord.parse(bytes)
            bytes.removeFirst(used)
            for record in parsed where record.kind == GridRecord.Kind.data.rawValue { dataRecords[record.camera, default: 0] += 1 }
            records.add(parsed)
        }
        return true
    }

    func close() { Glibc.close(fd) }
}
