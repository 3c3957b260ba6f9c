import Foundation
import Testing

/// Every suite of the test targets whose tests block (processes, servers, real time) runs them on
/// the tests' own threads (`.blocking`, Tests/Support/Pool): a suite without it holds one of the
/// concurrency pool's threads (two on a 2-core machine) for as long as its tests wait.
@Suite struct BlockingSuitesTests {
    static let targets = ["MediaTests", "CaptureTests", "LiveTests", "SessionTests", "RecCLITests"]

    @Test func everySuiteThatMayBlockIsMarked() throws {
        let tests = StreamShapeTests.sources.deletingLastPathComponent().appendingPathComponent("Tests")
        var unmarked: [String] = [], suites = 0
        for target in Self.targets {
            let folder = tests.appendingPathComponent(target)
            let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n").enumerated() where line.contains("@Suite") {
                    suites += 1
                    if !line.contains(".blocking") { unmarked.append("\(target)/\(file):\(number + 1): \(line)") }
                }
            }
        }
        #expect(suites > 100)
        #expect(unmarked.isEmpty, "\(unmarked.joined(separator: "\n"))")
    }
}
