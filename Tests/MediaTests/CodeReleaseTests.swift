import Glibc
import Media
import Testing
import TestPool

/// `MemoryPolicy.releaseCode` on this very process, on a library of the Swift runtime that is
/// loaded but whose code nothing here runs (libswift_RegexParser, which `_StringProcessing`
/// loads: rec has no regular expressions), so that the runner's other threads cannot map its
/// pages back. The test maps every page of its code by reading it, releases, and reads from
/// `/proc/self/pagemap` (one entry a page, bit 63 when present) which pages are mapped.
@Suite(.blocking) struct CodeReleaseTests {
    static let library = "/libswift_RegexParser.so"

    /// The library's `r-xp` mapping.
    static func code() throws -> Range<UInt> {
        let file = try #require(fopen("/proc/self/maps", "r"))
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 4_096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.contains(" r-xp "), text.contains(library),
                  let bounds = text.split(separator: " ").first?.split(separator: "-"), bounds.count == 2,
                  let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16) else { continue }
            return start..<end
        }
        throw CodeReleaseError.notLoaded
    }

    enum CodeReleaseError: Error { case notLoaded }

    static let page = UInt(sysconf(Int32(_SC_PAGESIZE)))

    /// How many pages of `range` are mapped now; -1 if pagemap cannot be read.
    static func mappedPages(_ range: Range<UInt>) -> Int {
        let fd = open("/proc/self/pagemap", O_RDONLY)
        guard fd >= 0 else { return -1 }
        defer { close(fd) }
        let count = Int(UInt(range.count) / page)
        var entries = [UInt64](repeating: 0, count: count)
        let read = entries.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count * 8, off_t(range.lowerBound / page * 8)) }
        return read == count * 8 ? entries.reduce(0) { $0 + Int($1 >> 63) } : -1
    }

    @Test func theRuntimesCodePagesAreUnmapped() throws {
        let range = try Self.code()
        var sum: UInt8 = 0
        for address in stride(from: range.lowerBound, to: range.upperBound, by: Int(Self.page)) {
            sum &+= UnsafeRawPointer(bitPattern: address)?.load(as: UInt8.self) ?? 0
        }
        let before = Self.mappedPages(range)
        let advised = MemoryPolicy.releaseCode()
        let after = Self.mappedPages(range)
        #expect(advised >= UInt(range.count), "the runtime's code mappings are found (\(sum))")
        #expect(before == range.count / Int(Self.page), "every page read is mapped: \(before) of \(range.count / Int(Self.page))")
        #expect(after == 0, "\(after) pages still mapped")
    }
}
