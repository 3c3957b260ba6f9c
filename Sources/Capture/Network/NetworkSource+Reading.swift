import Dispatch
import Media
import RecCore

/// Reading: packets placed on the session timeline, as they came (copy) or decoded.
extension NetworkSource: CompressedFrames {
    package var compressedParameters: CodecParameters? { settings.copies ? videoParameters : nil }
    package var holdsReleasedPackets: Bool { !ready.isEmpty }

    /// The next video packet as the camera sent it, on the session timeline; the sound read on
    /// the way waits in `takeSound()`. nil once stopped or after the stream's end was handled.
    package func nextPacket() throws(RecError) -> EncodedPacket? {
        while ready.isEmpty {
            guard try pump() else { return nil }
        }
        // One at a time but after a reconnect (what was held): no shift for the usual one.
        return ready.count == 1 ? ready.removeLast() : ready.removeFirst()
    }

    package func nextFrame() throws(RecError) -> VideoFrame? {
        guard let decoder else { return nil }
        do {
            while true {
                switch try decoder.receive() {
                case .output(let frame):
                    frame.captureTime = Timestamp(value: frame.pointer.pointee.pts, timeBase: decoder.timeBase).rescaled(to: .microseconds)
                    frame.sequence = sequence
                    sequence += 1
                    return frame
                case .endOfStream:
                    return nil
                case .needsInput:
                    guard let packet = try nextPacket() else { return nil }
                    try decoder.send(packet)
                }
            }
        } catch let error as RecError {
            throw error
        } catch let error as FFmpegError {
            throw error.recError("decoding \(url.redacted) failed at frame \(sequence)")
        } catch {
            throw .runtime("decoding \(url.redacted) failed at frame \(sequence)", cause: "\(error)")
        }
    }

    /// Reads one packet and places it; false when the source was stopped.
    func pump() throws(RecError) -> Bool {
        guard let input else { return false }
        if napDue {
            napDue = false
            if interrupt.wait(seconds: pacing.nap) { return false }
            switchesSeen = Self.voluntarySwitches()
        }
        let started = Self.monotonicNow()
        guard let (packet, isVideo) = try input.read() else { return false }
        var read = packet
        let now = Self.monotonicNow()
        if wallZero == nil {
            // Before rec joins or retimes anything: a parsed picture's report goes with the next
            // picture libavformat hands out (`SenderReportClock`); H.264 and H.265 are parsed.
            reports.read(stream: isVideo ? .video : read.stream,
                         presentation: read.pts == Int64.min ? nil : read.presentationTime,
                         report: input.reportedWallClock, parsed: isVideo && videoCodec != nil)
        }
        if var start = arrivalStart {
            // Pictures of an arrival-timed camera read while opening: when they came is unknown.
            guard start.keeps(readStarted: started, ended: now) else {
                arrivalStart = start
                return true
            }
            arrivalStart = nil
        }
        // Only a long read asks the kernel whether the thread slept since it last looked.
        var slept = false
        if !sendsNoTimes, pacing.mayHaveSlept(readNanoseconds: now - started) {
            let switches = Self.voluntarySwitches()
            (slept, switchesSeen) = (switches > switchesSeen, switches)
        }
        if isVideo, let codec = videoCodec {
            switch read.withUnsafeBytes({ PictureParts.part($0, codec: codec) }) {
            case .sliceless:
                sliceless += read.data
                return true
            case .continuation:
                join(read, codec: codec)
                return true
            case .picture, nil:
                if !sliceless.isEmpty {
                    read.data = sliceless + read.data
                    sliceless = []
                }
            }
        }
        if isVideo, let cutoff = leadingCutoff, read.pts != Int64.min {
            // A picture after the run's first keyframe in decode order but presented before it
            // (an open GOP's leading pictures, HEVC's RASL): it refers to pictures before the
            // keyframe, which this run never had, and no decoder shows it. Leading pictures all
            // come before the first picture presented after the keyframe.
            if read.pts < cutoff { return true }
            leadingCutoff = nil
        }
        if epoch == nil {
            // Session time 0 is the first keyframe: what comes before it cannot be decoded.
            guard isVideo, read.isKeyframe else { return true }
            epoch = now
            leadingCutoff = read.dts == Int64.min ? nil : read.pts
        }
        if waitsForKeyframe {
            guard isVideo, read.isKeyframe else { return true }
            waitsForKeyframe = false
            leadingCutoff = read.dts == Int64.min ? nil : read.pts
        }
        if untimedKeyframe != nil {
            return waitWithUntimedKeyframe(read, isVideo: isVideo, now: now)
        } else if isVideo, read.isKeyframe, read.dts == Int64.min, !sendsNoTimes {
            untimedKeyframe = (read, now)
            return true
        }
        let timed = read.dts != Int64.min
        place(read, isVideo: isVideo, now: now)
        napDue = pacing.napsAfter(slept: slept, lateness: timed && !sendsNoTimes ? timeline.lateness : nil,
                                  settled: timeline.isSettled)
        if napDue { naps += 1 }
        return true
    }

    /// A picture's later slices that libavformat handed out as a packet of their own (`PictureParts`)
    /// join the picture they continue, still held for its duration, or the untimed keyframe; with
    /// no picture to continue (before the first keyframe, after a reconnect) they go.
    func join(_ part: EncodedPacket, codec: Codec) {
        let extra = part.withUnsafeBytes { PictureParts.continuation($0, codec: codec) }
        if let last = afterUntimed.lastIndex(where: \.isVideo), untimedKeyframe != nil {
            afterUntimed[last].packet.data += extra
        } else if var keyframe = untimedKeyframe {
            keyframe.packet.data += extra
            untimedKeyframe = keyframe
        } else if var picture = held[0].take() {
            picture.data += extra
            held[0] = consume picture
        }
    }

    /// One frame at the stream's nominal rate (30 fps when it declares none), in `timeBase`.
    func frameStep(in timeBase: Rational) -> Int64 {
        let fps = input?.video.frameRate.map(\.doubleValue) ?? 30
        return max(1, Timestamp(seconds: 1 / max(1, fps)).rescaled(to: timeBase).value)
    }

    /// Places a packet on the session timeline and holds it until the next of its stream gives
    /// its duration.
    func place(_ read: consuming EncodedPacket, isVideo: Bool, now: UInt64) {
        var packet = read
        // A B-frame stream's reordering (0 for sound and for pictures without B-frames).
        let depth = isVideo ? videoDepth : 0
        if depth > 0, packet.pts != Int64.min {
            packet.dts = decodeTime(presenting: packet.pts, depth: depth, timeBase: packet.timeBase)
        }
        let arrival = Timestamp.microseconds(Int64((now - (epoch ?? now)) / 1000))
        let id: StreamID = isVideo ? .video : packet.stream
        if sendsNoTimes {
            // A container without times (MJPEG over HTTP): the camera's clock is the arrival.
            packet.timeBase = Self.arrivalTimeBase
            packet.dts = arrival.rescaled(to: packet.timeBase).value
            packet.pts = packet.dts
        } else if packet.dts == Int64.min {
            // A packet without times: the camera's clock is the arrival.
            packet.dts = arrival.rescaled(to: packet.timeBase).value
            packet.pts = packet.dts
        }
        // A B-frame stream's pictures decode `depth` frames before they are presented: placed by
        // their decode times moved that much later, the first keyframe is presented at session
        // time 0, as a stream without B-frames' is (and the file's times are the session's).
        let lead = depth > 0 ? Int64(depth) * frameStep(in: packet.timeBase) : 0
        let offset = timeline.place(stream: id, decodeTime: Timestamp(value: packet.dts + lead, timeBase: packet.timeBase), arrival: arrival)
        let shift = offset.rescaled(to: packet.timeBase).value
        packet.pts += shift
        packet.dts += shift
        if sendsNoTimes && isVideo {
            let apart = arrivalSpacing.shift(placing: packet.dts)
            packet.pts += apart
            packet.dts += apart
        }
        packet.stream = id
        packet.captureTime = packet.decodeTime.rescaled(to: .microseconds)
        // Sound from just before the first picture has no picture to go with.
        if !isVideo && packet.dts < 0 { return }
        if wallZero == nil, let zero = reports.wallAtZero {
            // Camera time t is at wall clock zero + t, and at session time t + offset.
            wallZero = .microseconds(zero.value - offset.rescaled(to: .microseconds).value)
        }
        // A packet lasts until the next of its stream (decode order: a B-frame stream's dts
        // steps are its frame intervals too); one is held per stream, so pictures wait one frame.
        let slot = Self.slot(id)
        // A sound stream the camera did not have when the recording began (it came back with more).
        guard slot < held.count else { return }
        if var previous = held[slot].take() {
            previous.duration = max(1, Timestamp(value: packet.dts - previous.dts, timeBase: packet.timeBase)
                .rescaled(to: previous.timeBase).value)
            release(previous)
        }
        held[slot] = consume packet
    }

    /// RTP carries presentation times only, and libavformat leaves a B-frame stream's decode
    /// times equal to them, which no muxer takes. The i-th picture of a run decodes at the i-th
    /// smallest presentation time, `depth` pictures back (the stream's declared reordering),
    /// as libavformat's own guess for files does; the first `depth` step back from the keyframe.
    func decodeTime(presenting pts: Int64, depth: Int, timeBase: Rational) -> Int64 {
        let step = frameStep(in: timeBase)
        let slot = unusedPresentations.firstIndex { $0 > pts } ?? unusedPresentations.endIndex
        unusedPresentations.insert(pts, at: slot)
        defer { reordered += 1 }
        guard reordered >= depth, let first = unusedPresentations.first else {
            return (unusedPresentations.first ?? pts) - Int64(depth - reordered) * step
        }
        unusedPresentations.removeFirst()
        return first
    }

    /// What is held goes out, each lasting as long as the one before it of its stream.
    func releaseHeld() {
        for slot in held.indices {
            guard var p = held[slot] else { continue }
            if p.duration <= 0 { p.duration = lastDuration[slot] }
            release(p)
            held[slot] = nil
        }
        // A B-frame run ends whole: what waits for pictures that will never come goes.
        if var gate = reorder.take() { gate.endRun() }
    }

    /// Where a stream's packet is held: the pictures first, then each sound by its place.
    static func slot(_ id: StreamID) -> Int { id.isVideo ? 0 : 1 + id.number }

    /// A packet whose duration is now known goes out: a picture to `ready`, sound to
    /// `pendingSound` (`routeSound`).
    func release(_ p: consuming EncodedPacket) {
        lastDuration[Self.slot(p.stream)] = p.duration
        if p.stream.isVideo {
            let depth = videoDepth
            guard depth > 0 else { return ready.append(p) }
            // A B-frame stream's pictures wait for the ones presented before them (`ReorderGate`).
            var gate = reorder ?? ReorderGate(depth: depth, step: frameStep(in: p.timeBase))
            let pts = p.pts
            ready += gate.add(p, pts: pts)
            reorder = gate
        } else {
            routeSound(p)
        }
    }
}

/// A camera that went away: opened again, with backoff, for as long as the recorder waits.
extension NetworkSource: Reconnection {
    package func isDisconnect(_ error: RecError) -> Bool { error.fault == .connectionLost }

    package func disconnectText(_ error: RecError) -> String {
        let name = url.redacted
        return error.message.hasPrefix(name) ? String(error.message.dropFirst(name.count + 1)) : error.message
    }

    package func reconnect(waitingUpTo seconds: Double, stop: Latch) throws(RecError) {
        // What is still held goes out with the durations it has: nothing read is lost.
        placeUntimedKeyframe()
        releaseHeld()
        input = nil
        sliceless = []
        // The new connection's first packets start a run: read as they come.
        napDue = false
        let start = Self.monotonicNow()
        var last: RecError?
        while true {
            if stop.isReleased { return }
            do {
                let opened = try NetworkInput.open(url, settings: settings, interrupt: interrupt)
                try adopt(opened, first: false)
                if !settings.copies, let parameters = videoParameters {
                    decoder = try? VideoDecoder(parameters: parameters, threads: 1)
                }
                timeline.restart()
                waitsForKeyframe = true
                (unusedPresentations, reordered) = ([], 0)
                reconnects += 1
                backoff.succeeded(now: Double(Self.monotonicNow()) / 1e9)
                return
            } catch {
                if interrupt.isSet { return }
                last = error
            }
            let delay = backoff.next(now: Double(Self.monotonicNow()) / 1e9)
            let waited = Double(Self.monotonicNow() - start) / 1e9
            if waited + delay > seconds, let last { throw last }
            if stop.wait(until: .after(delay)) { return }
        }
    }
}
