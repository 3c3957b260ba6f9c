import Foundation
import Testing

/// Issue 20, item 8: constants that drifted apart live in one place. The MP4 index reserve is
/// `MoovReserve.bytes` for the recording's rewrite and for every clip (a clip once re-derived it
/// without its extradata term); no other file in Sources spells its numbers or sets `moov_size`
/// from anything else.
@Suite struct OneOfEachTests {
    /// A line that sets `moov_size` from anything but the reserve, or spells the reserve's numbers.
    static let reserveRules = [
        (pattern: #"^(?!///)(?!.*(MoovReserve|reserve)).*moov_size"#, why: "moov_size not from MoovReserve"),
        (pattern: #"16_?384\s*\+\s*48"#, why: "MoovReserve's numbers spelt again"),
    ]

    @Test func theMoovReserveIsComputedInOnePlace() throws {
        let found = try TypedDecisionTests.scan(Self.reserveRules, skipping: ["RecCore/Writer/MoovReserve.swift"])
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The rules find what they were written for (else a typo would pass everything).
    @Test(arguments: ["options[\"moov_size\"] = String(bytes)", "let bytes = 16_384 + 48 * samples"])
    func theReserveRulesFindTheOldShapes(_ line: String) {
        #expect(Self.reserveRules.contains { line.range(of: $0.pattern, options: .regularExpression) != nil })
    }

    @Test func theReserveRulesPassTheReserve() {
        let line = "muxerOptions[\"moov_size\"] = String(MoovReserve.bytes(samples: samples, extradata: extradata))"
        #expect(!Self.reserveRules.contains { line.range(of: $0.pattern, options: .regularExpression) != nil })
    }
}
