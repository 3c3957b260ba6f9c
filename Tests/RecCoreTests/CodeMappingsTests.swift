import RecCore
import Testing

/// Which mappings a session unmaps once it runs: its own program's code and the Swift runtime's,
/// never a writable mapping, never another library's (real `/proc/PID/maps` lines of a session).
@Suite struct CodeMappingsTests {
    static let exe = "/work/rec/.build/release/rec-engine"
    static let maps = """
        5597b7175000-5597b7557000 r-xp 00000000 fe:01 1311 \(exe)
        5597b7558000-5597b7572000 r--p 003e2000 fe:01 1311 \(exe)
        5597b7572000-5597b75a9000 rw-p 003fc000 fe:01 1311 \(exe)
        5597b8000000-5597b8100000 rw-p 00000000 00:00 0                          [heap]
        7f9089a00000-7f9089f82000 r-xp 00000000 fe:01 2001 /opt/swift/usr/lib/swift/linux/libFoundationEssentials.so
        7f9089f9e000-7f908a063000 rw-p 0059d000 fe:01 2001 /opt/swift/usr/lib/swift/linux/libFoundationEssentials.so
        7f908a200000-7f908a6ef000 r-xp 00000000 fe:01 2002 /opt/swift/usr/lib/swift/linux/libFoundation.so
        7f908a6ef000-7f908a6f0000 ---p 004ef000 fe:01 2002 /opt/swift/usr/lib/swift/linux/libFoundation.so
        7f908aa00000-7f908afd3000 r-xp 00000000 fe:01 2003 /opt/swift/usr/lib/swift/linux/libswiftCore.so
        7f908b100000-7f908b400000 r-xp 00000000 fe:01 3001 /usr/lib/x86_64-linux-gnu/libavcodec.so.59.37.100
        7f908b500000-7f908b501000 r-xp 00000000 fe:01 3002 /opt/swift/usr/lib/swift/linux/sub/libother.so
        7f908b600000-7f908b700000 rwxp 00000000 00:00 0
        7ffd1c5f6000-7ffd1c5f8000 r-xp 00000000 00:00 0                          [vdso]
        """

    @Test func theProgramAndTheSwiftRuntimesCodeAreChosen() {
        let chosen = CodeMappings(maps: Self.maps, executable: Self.exe)
        #expect(chosen.ranges == [
            0x5597b7175000..<0x5597b7557000,
            0x7f9089a00000..<0x7f9089f82000,
            0x7f908a200000..<0x7f908a6ef000,
            0x7f908aa00000..<0x7f908afd3000,
        ])
        #expect(chosen.bytes == 0x3e2000 + 0x582000 + 0x4ef000 + 0x5d3000)
    }

    @Test func withoutTheRuntimesLibraryOnlyTheProgramIsChosen() {
        let maps = Self.maps.split(separator: "\n").filter { !$0.contains("libswiftCore") }.joined(separator: "\n")
        #expect(CodeMappings(maps: maps, executable: Self.exe).ranges == [0x5597b7175000..<0x5597b7557000])
    }

    @Test func garbageChoosesNothing() {
        for text in ["", "\n\n", "zz-yy r-xp 0 0 0 \(Self.exe)", "10-5 r-xp 0 fe:01 1 \(Self.exe)", "r-xp", "1-2 r-xp"] {
            #expect(CodeMappings(maps: text, executable: Self.exe).ranges.isEmpty, "\(text)")
        }
    }

    @Test func aPathWithSpacesIsKeptWhole() {
        let exe = "/home/a user/rec engine"
        let maps = "1000-2000 r-xp 00000000 fe:01 7 \(exe)\n3000-4000 r-xp 00000000 fe:01 8 /home/a user/rec"
        #expect(CodeMappings(maps: maps, executable: exe).ranges == [0x1000..<0x2000])
    }
}
