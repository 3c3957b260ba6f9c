/// When a camera's reader sleeps instead of reading on. Pure: the reader says how long its last
/// read took and how late the packet came, and sleeps `nap` (on its stop flag) when this says so.
///
/// A camera sends a frame every 33 ms in a dozen TCP segments, with its sound between. Read as
/// they come, each frame wakes the reader, and each wake runs libavformat's and rec's per-packet
/// code on caches the rest of the box has since filled: that was what kept a camera's session
/// over the ffmpeg CLI's CPU (bench/README.md, "Reading in bursts"). Once the reader has caught
/// up, it sleeps `nap` (0.1 s) and the kernel's socket buffer holds what arrives meanwhile: the
/// next wake reads three frames at once, on warm caches, and the thread wakes about 20 times a
/// second instead of 80. The price is latency: a packet reaches the file, ring and live page
/// up to `nap` plus a frame later than it would have.
///
/// Caught up means both: the read slept waiting for the network (it took `waited` or longer, and
/// the thread's voluntary context switches rose since the reader last counted them, after its
/// last sleep or long read: nothing was left in the socket),
/// and its packet came no later than `fresh` beyond the least delay seen
/// (`CameraTimeline.lateness`). A reader behind the camera (a box short of CPU) finds data
/// waiting at every read and never sleeps: a read that was only slow, its thread preempted,
/// slept involuntarily. It sleeps again once it has caught up.
///
/// Only where sleeping loses nothing and changes no time: a stream over TCP (RTSP interleaved,
/// RTMP, HTTP), whose sender waits for the reader; not RTP over UDP or SRT, whose packets a
/// full socket buffer drops; and only for packets with the camera's own times (an MJPEG stream
/// over HTTP is timed by arrival, which a sleep would bunch up). Only when the packets are
/// copied: a decoded camera hands its frames to a late-frame queue that a burst could overflow.
package struct ReadPacing: Sendable, Equatable {
    /// How long the reader sleeps once caught up (seconds); zero for a reader that never does.
    package let nap: Double
    /// A read shorter than this (nanoseconds) is taken to have found data waiting, without asking
    /// the kernel whether the thread slept.
    package let waited: UInt64
    /// A packet at most this late (microseconds) beyond the least delay seen is the newest.
    package let fresh: Int64

    package init(nap: Double, waited: UInt64 = 1_000_000, fresh: Int64 = 50_000) {
        self.nap = max(0, nap)
        self.waited = waited
        self.fresh = fresh
    }

    /// A reader that reads on without ever sleeping.
    package static let never = ReadPacing(nap: 0)

    /// For a camera at `url`, copied or decoded.
    package static func forCamera(_ url: NetworkURL, copies: Bool) -> ReadPacing {
        guard copies else { return .never }
        switch url.scheme {
        case .rtsp, .rtsps: return url.transport == .udp ? .never : ReadPacing(nap: 0.1)
        case .rtmp, .rtmps, .http, .https: return ReadPacing(nap: 0.1)
        case .srt: return .never
        }
    }

    /// Whether a read that took `readNanoseconds` may have slept waiting for the network: only
    /// then does the reader count its thread's voluntary switches (a system call), so a read
    /// that found data waiting costs none.
    package func mayHaveSlept(readNanoseconds: UInt64) -> Bool { nap > 0 && readNanoseconds >= waited }

    /// Whether to sleep before the next read, after a read that `slept` waiting for the network
    /// and brought a packet `lateness` microseconds later than the least delay seen (nil when
    /// the packet had no time of the camera's own), on a timeline whose run is `settled`. A run
    /// is placed by its first packets' arrivals: until it has settled, every packet is read as
    /// it comes, so that none of them is placed a sleep late.
    package func napsAfter(slept: Bool, lateness: Int64?, settled: Bool = true) -> Bool {
        guard nap > 0, slept, settled, let lateness else { return false }
        return lateness <= fresh
    }
}
