import RecCore
import Testing

/// Byte counts as people write them (`--buffer-size`), and as rec prints them.
@Suite struct ByteSizeTests {
    static let KiB = 1024
    static let MiB = 1024 * 1024
    static let GiB = 1024 * 1024 * 1024

    static let written: [(String, Int)] = [
        ("1GB", GiB), ("256M", 256 * MiB), ("1.5GiB", 3 * GiB / 2), ("4096", 4096), ("500MB", 500 * MiB),
        ("12KiB", 12 * KiB), ("1k", KiB), ("2gib", 2 * GiB), (" 2 G ", 2 * GiB), ("1T", 1024 * GiB),
        ("7B", 7), ("0.5K", 512), ("1.25m", 1_310_720), ("1 KB", KiB),
    ]

    static let printed: [(Int, String)] = [
        (0, "0 B"), (800, "800 B"), (1023, "1023 B"), (1536, "1.5 KiB"), (256 * MiB, "256 MiB"),
        (100 * MiB, "100 MiB"), (99 * MiB + MiB / 2, "99.5 MiB"), (3 * GiB / 2, "1.5 GiB"), (1024 * GiB, "1024 GiB"),
        (123 * GiB + GiB / 3, "123 GiB"), (5 * MiB + MiB / 10, "5.1 MiB"),
    ]

    @Test(arguments: written)
    func parses(text: String, bytes: Int) throws {
        #expect(try ByteSize.parse(text) == bytes)
    }

    @Test(arguments: ["", "abc", "-1G", "0", "0.5", "GB", "M", "1.5.5G", "1X", "1,5G", "1GBB", "10000000T", "inf", "nan", "G1"])
    func rejects(text: String) {
        #expect(throws: RecError.usage("'\(text)' is not a size; write it like 512M, 1G or 1.5GB")) {
            try ByteSize.parse(text)
        }
    }

    @Test func rejectionExitsWithUsageStatus() {
        do {
            _ = try ByteSize.parse("lots")
            Issue.record("'lots' parsed")
        } catch {
            #expect(error.code.exitStatus == 64)
            #expect(error.message.contains("512M"), "the message shows how to write a size")
        }
    }

    @Test(arguments: printed)
    func text(bytes: Int, text: String) {
        #expect(ByteSize.text(bytes) == text)
    }

    /// What rec prints reads back as the same size when it is exact.
    @Test(arguments: [1536, 256 * MiB, 3 * GiB / 2, 800, 12 * KiB] as [Int])
    func textParsesBack(bytes: Int) throws {
        #expect(try ByteSize.parse(ByteSize.text(bytes)) == bytes)
    }

    /// The doc comment's example `12 KiB`: whole numbers without a decimal.
    @Test func wholeNumbersPrintWithoutDecimal() {
        #expect(ByteSize.text(12 * Self.KiB) == "12 KiB")
        #expect(ByteSize.text(Self.GiB) == "1 GiB")
    }

    /// Just under a unit rounds up to it, and should then be written in that unit.
    @Test func roundingUpToTheNextUnit() {
        #expect(ByteSize.text(Self.MiB - 1).hasSuffix(" MiB"))
    }
}
