import Glibc
import Media
import Testing

/// `MemoryPolicy.releaseCode` on this very process: the code pages of Foundation that the test
/// runner mapped are unmapped, and only what runs after maps back (Foundation, not libswiftCore,
/// whose pages this count's own string work and the runner's other threads map again at once).
@Suite struct CodeReleaseTests {
    /// Resident kB of Foundation's `r-xp` mappings (libFoundation*, lib_FoundationICU), from
    /// `/proc/self/smaps`.
    static func foundationCodeKB() throws -> Int {
        let file = try #require(fopen("/proc/self/smaps", "r"))
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4_096)
        var inFoundationCode = false
        var total = 0
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let first = text.first, first.isHexDigit, text.contains("-"), !text.hasPrefix("Rss") {
                inFoundationCode = text.contains(" r-xp ") && (text.contains("/libFoundation") || text.contains("/lib_FoundationICU"))
            } else if inFoundationCode, text.hasPrefix("Rss:") {
                total += Int(text.split(separator: " ")[1]) ?? 0
            }
        }
        return total
    }

    @Test func foundationsCodePagesAreUnmapped() throws {
        let before = try Self.foundationCodeKB()
        let advised = MemoryPolicy.releaseCode()
        let after = try Self.foundationCodeKB()
        #expect(advised > 0, "the runtime's code mappings are found")
        #expect(before >= 1_024, "the test runner has mapped at least 1 MB of Foundation's code (\(before) kB)")
        #expect(after * 4 < before, "\(before) kB before, \(after) kB after")
    }
}
