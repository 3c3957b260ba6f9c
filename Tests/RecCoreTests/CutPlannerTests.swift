import Testing
@testable import RecCore

@Suite struct CutPlannerTests {
    static let streams: [(String, SyntheticStream)] = [
        ("IPPP", .make(gopLengths: [10, 10, 10])),
        ("IBBP pyramid", .make(gopLengths: [12, 12, 12], bFrames: 2)),
        ("IBBBP pyramid", .make(gopLengths: [16, 9, 16], bFrames: 3)),
        ("IBBP flat, variable durations", .make(gopLengths: [7, 13, 5, 9], bFrames: 2, pyramid: false,
                                                duration: { [3_000, 3_003, 1_500, 6_000][$0 % 4] })),
        ("intra-only", .make(gopLengths: Array(repeating: 1, count: 20))),
        ("open GOP IBBP pyramid", .make(gopLengths: [12, 12, 12], bFrames: 2, openGOP: true)),
        ("open GOP IBBBP", .make(gopLengths: [9, 16, 9], bFrames: 3, pyramid: false, openGOP: true)),
    ]

    static let strategies: [CutPlan.Strategy] = [.editList, .spliceReencode]

    /// Every clip of whole frames (and with ends between frames) presents exactly the frames asked for.
    @Test(arguments: 0..<streams.count, strategies)
    func everyRangeIsExact(streamIndex: Int, strategy: CutPlan.Strategy) throws {
        let stream = Self.streams[streamIndex].1
        let pts = stream.allPTS
        let durations = Dictionary(uniqueKeysWithValues: stream.packets.map { ($0.pts, $0.duration) })
        for a in pts.indices {
            for b in a..<pts.count {
                let end = pts[b] + durations[pts[b]]!
                let ends: [(Int64, Int64)] = [(pts[a], end), (pts[a] - 1, pts[b] + 1)]
                for (from, to) in ends where from >= pts[0] {
                    try check(stream, from: from, to: to, expected: Array(pts[a...b]), strategy: strategy)
                }
            }
        }
    }

    /// `--keyframe` presents everything from the keyframe at or before the first frame asked for.
    @Test(arguments: 0..<streams.count, strategies)
    func keyframeModeStartsOnTheKeyframe(streamIndex: Int, strategy: CutPlan.Strategy) throws {
        let stream = Self.streams[streamIndex].1
        let pts = stream.allPTS
        let keyframes = stream.packets.filter(\.isKeyframe).map(\.pts)
        for a in pts.indices {
            for b in a..<pts.count {
                let start = keyframes.last { $0 <= pts[a] }!
                let plan = try CutPlanner.plan(packets: stream.packets, from: stream.time(pts[a]),
                                               to: stream.time(pts[b] + 1), mode: .keyframe, strategy: strategy)
                let simulation = ClipSimulation(plan, stream)
                #expect(simulation.problems.isEmpty)
                #expect(simulation.presented == pts.filter { start <= $0 && $0 <= pts[b] })
                #expect(plan.prerollFrames == 0 || Self.streams[streamIndex].0.hasPrefix("open GOP")) // leading pictures hidden
                #expect(plan.keyframesUsed.first == start || plan.needsReencode)
            }
        }
    }

    func check(_ stream: SyntheticStream, from: Int64, to: Int64, expected: [Int64],
               strategy: CutPlan.Strategy, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let plan = try CutPlanner.plan(packets: stream.packets, from: stream.time(from), to: stream.time(to),
                                       strategy: strategy)
        let simulation = ClipSimulation(plan, stream)
        #expect(simulation.problems.isEmpty, "\(from)..<\(to): \(simulation.problems)", sourceLocation: sourceLocation)
        #expect(simulation.presented == expected, "\(from)..<\(to) \(plan.segments)", sourceLocation: sourceLocation)
        let lastFrame = stream.packets.first { $0.pts == expected.last }!
        #expect(plan.firstPresentedPTS == expected.first, sourceLocation: sourceLocation)
        #expect(plan.presentedEndPTS == lastFrame.pts + lastFrame.duration, sourceLocation: sourceLocation)
        #expect(plan.presentedFrames == expected.count, sourceLocation: sourceLocation)
        if strategy == .editList {
            let copied = plan.segments.reduce(0) { count, segment in
                if case .copy(let range) = segment { return count + range.count }
                return count
            }
            #expect(copied == plan.presentedFrames + plan.prerollFrames + plan.trailingHiddenFrames,
                    sourceLocation: sourceLocation)
            #expect(plan.reencodedFrames == 0, sourceLocation: sourceLocation)
        } else {
            #expect(plan.prerollFrames == 0 && plan.trailingHiddenFrames == 0, sourceLocation: sourceLocation)
        }
    }
}
