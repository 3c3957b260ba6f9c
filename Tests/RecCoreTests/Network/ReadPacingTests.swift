import RecCore
import Testing

/// When a camera's reader sleeps: which cameras, which reads, and what it does to a simulated
/// reader's wakes and lateness, with the real `CameraTimeline` saying how late each packet is.
@Suite struct ReadPacingTests {
    @Test func onlyCopiedStreamsOverTCPSleep() throws {
        func pacing(_ url: String, copies: Bool = true) throws -> Double {
            ReadPacing.forCamera(try NetworkURL.parse(url), copies: copies).nap
        }
        #expect(try pacing("rtsp://cam/live") == 0.1)
        #expect(try pacing("rtsp://cam/live?transport=tcp") == 0.1)
        #expect(try pacing("rtsps://cam/live") == 0.1)
        #expect(try pacing("rtmp://cam/live") == 0.1)
        #expect(try pacing("http://cam/stream.ts") == 0.1)
        #expect(try pacing("rtsp://cam/live?transport=udp") == 0)
        #expect(try pacing("srt://cam:9000") == 0)
        #expect(try pacing("rtsp://cam/live", copies: false) == 0)
    }

    @Test func aReadSleepsOnlyWhenItWaitedAndItsPacketWasFresh() {
        let pacing = ReadPacing(nap: 0.1)
        #expect(pacing.napsAfter(slept: true, lateness: 0))
        #expect(pacing.napsAfter(slept: true, lateness: 50_000))
        #expect(!pacing.napsAfter(slept: false, lateness: 0), "a read from the backlog, or a preempted one")
        #expect(!pacing.napsAfter(slept: true, lateness: 50_001), "a packet the camera or network held up")
        #expect(!pacing.napsAfter(slept: true, lateness: nil), "a packet timed by its arrival")
        #expect(!pacing.napsAfter(slept: true, lateness: 0, settled: false), "a run still being placed")
        #expect(!ReadPacing.never.napsAfter(slept: true, lateness: 0))
        #expect(ReadPacing(nap: -1) == .never)
        #expect(pacing.mayHaveSlept(readNanoseconds: 1_000_000) && !pacing.mayHaveSlept(readNanoseconds: 999_999))
        #expect(!ReadPacing.never.mayHaveSlept(readNanoseconds: 5_000_000))
    }

    /// A 30 fps camera with 48 kHz AAC (a packet each 21.3 ms), 20–30 ms of network delay, read
    /// at 0.2 ms of CPU a packet: once the run has settled (10 s), the paced reader wakes about a
    /// quarter as often, and no packet is read more than a nap, the freshness margin and a frame
    /// after it arrived; before, it reads every packet as it comes.
    @Test func aPacedReaderWakesAQuarterAsOften() {
        let paced = Reader(pacing: ReadPacing(nap: 0.1), cost: 200).run(seconds: 70)
        let unpaced = Reader(pacing: .never, cost: 200).run(seconds: 70)
        #expect(unpaced.wakes >= 76 * 60)
        #expect(paced.settledWakes <= unpaced.settledWakes / 3)
        #expect(paced.naps >= 8 * 60 && paced.napsBeforeSettling == 0)
        #expect(paced.worstWait <= 100_000 + 50_000 + 33_334 && paced.worstWaitBeforeSettling <= 1_000)
        #expect(unpaced.worstWait <= 1_000)
    }

    /// A reader short of CPU (40 ms a packet, more than the camera sends) falls behind: it finds
    /// data waiting at every read, never sleeps, and ends as far behind as one that never paces.
    @Test func aReaderBehindTheCameraNeverSleeps() {
        let paced = Reader(pacing: ReadPacing(nap: 0.1), cost: 40_000).run(seconds: 30)
        let unpaced = Reader(pacing: .never, cost: 40_000).run(seconds: 30)
        #expect(paced.naps == 0)
        #expect(paced.read == unpaced.read)
    }

    /// A reader of a simulated camera, in microseconds of local time.
    struct Reader {
        let pacing: ReadPacing
        /// CPU a packet takes to read and handle (µs).
        let cost: Int64

        struct Outcome {
            /// Times the thread woke (a nap's end or a wait for the network), packets read,
            /// naps, and the longest a packet waited in the socket after it arrived (µs).
            var wakes = 0, read = 0, naps = 0
            var worstWait: Int64 = 0
            /// The same once the timeline's run has settled, and before.
            var settledWakes = 0, napsBeforeSettling = 0
            var worstWaitBeforeSettling: Int64 = 0
        }

        func run(seconds: Int64) -> Outcome {
            var generator = SeededGenerator(seed: 21)
            // The camera's packets: (camera time, arrival, stream), in arrival order.
            var packets: [(camera: Int64, arrival: Int64, stream: StreamID)] = []
            for frame in 0..<(seconds * 30) { packets.append((frame * 1_000_000 / 30, 0, .video)) }
            for chunk in 0..<(seconds * 48_000 / 1024) { packets.append((chunk * 1024 * 1_000_000 / 48_000, 0, .sound(0))) }
            for i in packets.indices { packets[i].arrival = packets[i].camera + 20_000 + Int64.random(in: 0..<10_000, using: &generator) }
            packets.sort { $0.arrival < $1.arrival }
            var timeline = CameraTimeline()
            var outcome = Outcome()
            var now = packets[0].arrival
            var napDue = false
            for packet in packets {
                let settled = timeline.isSettled
                if napDue {
                    now += Int64(pacing.nap * 1_000_000)
                    outcome.naps += 1
                    outcome.wakes += 1
                    if settled { outcome.settledWakes += 1 } else { outcome.napsBeforeSettling += 1 }
                }
                let waited = max(0, packet.arrival - now)
                if waited > 0 {
                    now = packet.arrival
                    outcome.wakes += 1
                    if settled { outcome.settledWakes += 1 }
                }
                // As the reader judges it: only a read of 1 ms or more counts as having slept.
                let slept = waited > 0 && pacing.mayHaveSlept(readNanoseconds: UInt64(waited + cost) * 1000)
                outcome.worstWait = max(outcome.worstWait, now - packet.arrival)
                if !settled { outcome.worstWaitBeforeSettling = max(outcome.worstWaitBeforeSettling, now - packet.arrival) }
                now += cost
                _ = timeline.place(stream: packet.stream, decodeTime: .microseconds(packet.camera),
                                   arrival: .microseconds(now - packets[0].arrival))
                napDue = pacing.napsAfter(slept: slept, lateness: timeline.lateness, settled: timeline.isSettled)
                outcome.read += 1
                if now > packets[0].arrival + seconds * 1_000_000 { break }
            }
            return outcome
        }
    }
}
