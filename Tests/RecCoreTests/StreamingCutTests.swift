import Testing
@testable import RecCore

/// A cut planned as its packets are read (`StreamingCut`), without FFmpeg: what it lets the
/// writer route before the range is read is routed as the final plan routes it, and a long range
/// is held a GOP or two at a time.
@Suite struct StreamingCutTests {
    /// Streams the packets through a `StreamingCut` and a router the way the clip writer does:
    /// packets settled go through the provisional plan's router as they settle, the rest after the
    /// final plan replaces it. Returns the events, the final plan, whether it agreed, and the
    /// most packets held unsettled at once.
    static func stream(_ timings: [PacketTiming], timeBase: Rational, from: Timestamp, to: Timestamp, mode: CutPlan.Mode,
                       strategy: CutPlan.Strategy, reorderDepth: Int = 0)
        throws -> (events: [String], plan: CutPlan, agrees: Bool, maxHeld: Int, cut: StreamingCut) {
        var cut = StreamingCut(timeBase: timeBase, from: from, to: to, mode: mode, strategy: strategy, reorderDepth: reorderDepth)
        var router: SegmentRouter<Int>?
        var events: [String] = []
        var fed = 0
        var maxHeld = 0
        func record(_ e: SegmentRouter<Int>.Event) {
            switch e {
            case .deliver(let s, let p): events.append("\(s):\(p)")
            case .finish(let s): events.append("f\(s)")
            }
        }
        for t in timings {
            if cut.append(t), let plan = cut.provisional {
                if router == nil { router = SegmentRouter(plan.segments) }
                while fed < cut.settled {
                    router?.arrive(fed, index: fed, record)
                    fed += 1
                }
            }
            maxHeld = max(maxHeld, cut.timings.count - fed)
        }
        let plan = try CutPlanner.plan(packets: timings, timeBase: timeBase, from: from, to: to, mode: mode, strategy: strategy)
        let agrees = cut.agrees(with: plan)
        if var r = router, agrees {
            r.replan(plan.segments, record)
            while fed < timings.count {
                r.arrive(fed, index: fed, record)
                fed += 1
            }
            #expect(r.isDone)
        }
        return (events, plan, agrees, maxHeld, cut)
    }

    /// The events of the final plan's router, every packet arriving after it was made.
    static func routed(_ plan: CutPlan, count: Int) -> [String] {
        var router = SegmentRouter<Int>(plan.segments)
        var events: [String] = []
        for k in 0..<count {
            router.arrive(k, index: k) { e in
                switch e {
                case .deliver(let s, let p): events.append("\(s):\(p)")
                case .finish(let s): events.append("f\(s)")
                }
            }
        }
        return events
    }

    /// Over every stream shape the planner is tested on, every range of whole frames, both modes
    /// and both strategies: where the streaming cut settled packets and agrees with the final
    /// plan, the packets go where the final plan sends them, in the same order, with the same
    /// decode times; and for regular closed-GOP streams it always agrees.
    @Test(arguments: 0..<CutPlannerTests.streams.count)
    func settledPacketsGoWhereTheFinalPlanSendsThem(streamIndex: Int) throws {
        let (name, stream) = CutPlannerTests.streams[streamIndex]
        let timings = stream.packets.map(PacketTiming.init)
        let pts = stream.allPTS
        let tb = stream.timeBase
        var settledSome = 0
        for a in pts.indices where a % 2 == 0 {
            for b in (a + 1)..<pts.count where (b - a) % 3 == 1 {
                for mode in [CutPlan.Mode.exact, .keyframe] {
                    for strategy in CutPlannerTests.strategies {
                        let (from, to) = (Timestamp(value: pts[a], timeBase: tb), Timestamp(value: pts[b], timeBase: tb))
                        let r = try Self.stream(timings, timeBase: tb, from: from, to: to, mode: mode, strategy: strategy,
                                                reorderDepth: 2)
                        guard r.cut.provisional != nil else { continue }
                        settledSome += 1
                        let (agrees, label) = (r.agrees, "\(name) \(a)–\(b) \(mode) \(strategy)")
                        if !name.hasPrefix("open") { #expect(agrees, "\(label)") }
                        guard agrees else { continue }
                        let (events, expected) = (r.events, Self.routed(r.plan, count: timings.count))
                        #expect(events == expected, "\(label)")
                        let times = Array(r.plan.decodeTimes(timings, reorderDepth: 2).prefix(r.cut.decodeTimes.count))
                        let settled = r.cut.decodeTimes
                        #expect(times == settled, "\(label)")
                    }
                }
            }
        }
        if pts.count > 20 { #expect(settledSome > 0, "\(name): some ranges settle before the end") }
    }

    /// A long range of a long stream is held a GOP or two at a time, not whole: 200 GOPs of 30
    /// frames with B-frames, cut from the middle of the first GOP to the middle of the last.
    @Test func aLongRangeIsHeldAGOPOrTwoAtATime() throws {
        let stream = SyntheticStream.make(gopLengths: Array(repeating: 30, count: 200), bFrames: 3)
        let timings = stream.packets.map(PacketTiming.init)
        let pts = stream.allPTS
        for strategy in CutPlannerTests.strategies {
            let r = try Self.stream(timings, timeBase: stream.timeBase, from: Timestamp(value: pts[15], timeBase: stream.timeBase),
                                    to: Timestamp(value: pts[pts.count - 15], timeBase: stream.timeBase), mode: .exact,
                                    strategy: strategy, reorderDepth: 2)
            let (agrees, held, events) = (r.agrees, r.maxHeld, r.events)
            #expect(agrees)
            #expect(held <= 2 * 30 + 1, "held \(held) packets")
            #expect(events == Self.routed(r.plan, count: timings.count))
        }
    }

    /// Decode times that lag more than the stream declared (deeper reordering further on) cannot
    /// be settled early: the cut says so and the clip is written from the final plan.
    @Test func deeperReorderingThanDeclaredDiverges() throws {
        let shallow = SyntheticStream.make(gopLengths: [10, 10], bFrames: 1, pyramid: false)
        let deep = SyntheticStream.make(gopLengths: [12, 12], bFrames: 3, startPTS: shallow.packets.map { $0.pts + $0.duration }.max() ?? 0)
        let timings = (shallow.packets + deep.packets).map { p in
            PacketTiming(pts: p.pts, dts: p.dts, duration: p.duration, isKeyframe: p.isKeyframe)
        }
        let tb = shallow.timeBase
        let r = try Self.stream(timings, timeBase: tb, from: Timestamp(value: 3_000, timeBase: tb),
                                to: Timestamp(value: timings.map(\.pts).max() ?? 0, timeBase: tb), mode: .exact, strategy: .editList)
        let (settled, diverged, agrees) = (r.cut.provisional != nil, r.cut.diverged, r.agrees)
        #expect(settled)
        #expect(diverged || !agrees)
    }

    /// The packets an MP4 clip's index must have room for: the range and 4 s, a quarter more, 64.
    @Test func packetBound() {
        #expect(StreamingCut.packetBound(seconds: 300, rate: 30) == 11_464)
        #expect(StreamingCut.packetBound(seconds: 0, rate: 30) == 64)
        #expect(StreamingCut.packetBound(seconds: .infinity, rate: 30) == 64)
    }

    /// Matroska's millisecond stamps (steps of 33 and 34 ms), B-pyramid, keyframes at scene cuts:
    /// the packets of an ffmpeg-made x264 file as libavformat reads them settle.
    @Test func millisecondStampsSettle() throws {
        let file: [(Int64, Bool)] = [
            (21, true), (154, false), (88, false), (54, false), (121, false), (288, false), (221, false), (188, false), (254, false),
            (421, false), (354, false), (321, false), (388, false), (554, false), (488, false), (454, false), (521, false),
            (688, false), (621, false), (588, false), (654, false), (821, false), (754, false), (721, false), (788, false),
            (854, true), (988, false), (921, false), (888, false), (954, false), (1121, false), (1054, false), (1021, false),
            (1088, false), (1254, false), (1188, false), (1154, false), (1221, false), (1388, false), (1321, false),
            (1288, false), (1354, false), (1521, false), (1454, false), (1421, false), (1488, false), (1554, false),
            (1588, true), (1721, false), (1654, false), (1621, false), (1688, false), (1854, false), (1788, false),
            (1754, false), (1821, false), (1988, false), (1921, false), (1888, false), (1954, false), (2121, false),
            (2054, false), (2021, false), (2088, false), (2254, false), (2188, false), (2154, false), (2221, false),
            (2388, false), (2321, false), (2288, false), (2354, false), (2454, false), (2421, false), (2488, true),
        ]
        let sorted = file.map(\.0).sorted()
        let timings = file.map { pts, key in
            let next = sorted.first { $0 > pts } ?? pts + 33
            return PacketTiming(pts: pts, dts: pts, duration: next - pts, isKeyframe: key)
        }
        let tb = Rational(1, 1000)
        for mode in [CutPlan.Mode.exact, .keyframe] {
            let r = try Self.stream(timings, timeBase: tb, from: Timestamp(value: 500, timeBase: tb),
                                    to: Timestamp(value: 2400, timeBase: tb), mode: mode, strategy: .spliceReencode, reorderDepth: 2)
            let (diverged, settled, agrees) = (r.cut.diverged, r.cut.settled, r.agrees)
            #expect(!diverged, "\(mode)")
            #expect(settled > 0, "\(mode)")
            #expect(agrees, "\(mode)")
        }
    }
}
