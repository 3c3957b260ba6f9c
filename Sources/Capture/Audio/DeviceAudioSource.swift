import Glibc
import Media
import RecCore

/// A microphone through libavdevice: the sound server's input (`pulse`: PulseAudio, or
/// PipeWire's pulse server) or an ALSA capture device (`alsa`, e.g. "hw:1,0").
///
/// It asks for 48000 Hz stereo: the sound server always converts to that; an ALSA device gives
/// the rate nearest it, and one channel if it has no two. Chunks are the device's packets as
/// they come (the sound server's are 10 ms), decoded from PCM into `AudioFrame`s of signed
/// 16-bit samples.
///
/// Times: libavdevice 5.1 stamps each packet with `av_gettime()` — CLOCK_REALTIME — at the
/// moment it reads it, minus the device's latency (pulse: `pa_stream_get_latency`; alsa:
/// `snd_pcm_delay` plus the period just read), smoothed by its DLL time filter: the wall-clock
/// instant of the packet's first sample. That is moved onto CLOCK_MONOTONIC with the two
/// clocks' offset measured as the packet is read, then onto the session timeline by `epoch`.
/// Nothing is corrected here: jitter, steps after an xrun and drift are the clock model's.
package final class DeviceAudioSource: AudioSource {
    package enum Backend: String, Sendable {
        case pulse, alsa
    }

    package let backend: Backend
    /// The device's name as the backend knows it; nil: the default input.
    package let device: String?
    /// The sound server to ask (pulse's `server` option, as `PULSE_SERVER` takes it:
    /// "unix:/run/user/1000/pulse/native"); nil: libpulse's own choice.
    package let server: String?

    /// What `--audio desktop` records: the default output's monitor, named so the sound server
    /// picks it when the stream opens.
    package static let desktopMonitor = "@DEFAULT_MONITOR@"

    /// The chunk length asked of the sound server, in milliseconds.
    package static let chunkMilliseconds = 10
    static let preferredRate = 48000

    private var input: AudioDeviceInput?
    private var mapping = RealtimeMapping(epoch: 0)
    /// CLOCK_REALTIME − CLOCK_MONOTONIC when the packet being decoded was read.
    private var offset: Int64 = 0
    private var openedFormat = AudioFormat.s16(rate: preferredRate, channels: 2)
    private var chunks = 0

    package init(backend: Backend, device: String?, server: String? = nil) {
        self.backend = backend
        self.device = device
        self.server = server
    }

    /// What `--audio` calls it: "pulse:default", "alsa:hw:1,0".
    package var name: String { "\(backend.rawValue):\(device ?? "default")" }
    package var description: String { "\(name) (\(openedFormat.sampleRate) Hz, \(openedFormat.channels) ch)" }
    package var format: AudioFormat { openedFormat }
    package var isLive: Bool { true }

    /// PulseAudio: a second of sound, then until steady, at most five. libavdevice's pulse input
    /// stamps a new stream's first packets with a latency figure from before the server reported
    /// one, so they read 0.45 to 0.72 s early and advance 1.5 times too fast for about a second
    /// (measured against a null sink's monitor). ALSA's times are steady from the start: only
    /// the half second of chunks `AudioSettling` judges steadiness over, at most five.
    package var settling: ClosedRange<Double> {
        switch backend {
        case .pulse: 1...5
        case .alsa: 0...5
        }
    }

    /// Always 0: libavdevice 5.1 tells its caller of no loss. Its pulse input skips a hole in
    /// the stream without a word (pulse_audio_dec.c, `pulse_read_packet`) and sets no overflow
    /// callback; its alsa input recovers from an xrun itself, only logging a warning
    /// (alsa.c, `ff_alsa_xrun_recover`). A loss shows downstream as a gap between a chunk's
    /// time and the end of the one before, which the clock model fills with silence.
    package var overruns: Int { 0 }

    package func start(epoch: UInt64) throws(RecError) {
        stop()
        mapping = RealtimeMapping(epoch: epoch)
        let input = try open()
        self.input = input
        openedFormat = input.decoder.format
    }

    package func nextChunk() throws(RecError) -> AudioFrame? {
        guard let input else { return nil }
        do {
            while true {
                switch try input.decoder.receive() {
                case .output(let frame):
                    frame.time = sessionTime(of: frame)
                    chunks += 1
                    return frame
                case .endOfStream:
                    return nil
                case .needsInput:
                    let packet = try input.read()
                    offset = RealtimeMapping.realtimeOffset()
                    try input.decoder.send(packet)
                }
            }
        } catch {
            throw lost(cause: error)
        }
    }

    package func stop() {
        input = nil
    }

    /// The packet's capture instant on the session timeline; a packet libavdevice left without a
    /// time (pulse with `wallclock` off) counts as captured a chunk's length before it was read.
    private func sessionTime(of frame: AudioFrame) -> Timestamp {
        let pts = frame.pointer.pointee.pts
        guard pts != Int64.min, let input else {
            let now = mapping.now()
            return .microseconds(now.value - frame.duration.rescaled(to: .microseconds).value)
        }
        let realtime = Timestamp(value: pts, timeBase: input.timeBase).rescaled(to: .microseconds).value
        return mapping.sessionTime(realtimeMicroseconds: realtime, offset: offset)
    }

    // MARK: Opening

    private func open() throws(RecError) -> AudioDeviceInput {
        switch backend {
        case .pulse:
            // fragment_size is in bytes: 10 ms of 16-bit stereo at 48000 Hz.
            var options = [("sample_rate", "\(Self.preferredRate)"), ("channels", "2"),
                           ("fragment_size", "\(Self.preferredRate * Self.chunkMilliseconds / 1000 * 4)"),
                           ("name", "rec"), ("stream_name", "recording")]
            if let server { options.append(("server", server)) }
            do {
                return try AudioDeviceInput(formatName: "pulse", device: device, options: options)
            } catch {
                throw pulseFailure(cause: error)
            }
        case .alsa:
            // libavdevice says EIO for every ALSA failure, a device with one channel included:
            // one try with one channel, and the first failure is the one reported.
            do {
                return try openALSA(channels: 2)
            } catch {
                do { return try openALSA(channels: 1) } catch _ { throw alsaFailure(cause: error) }
            }
        }
    }

    private func openALSA(channels: Int) throws(FFmpegError) -> AudioDeviceInput {
        try AudioDeviceInput(formatName: "alsa", device: device,
                             options: [("sample_rate", "\(Self.preferredRate)"), ("channels", "\(channels)")])
    }

    /// Why the sound server would not record: libavdevice turns libpulse's error numbers into
    /// unrelated errno codes, so the server is asked for its inputs to tell "not running" from
    /// "no such input".
    private func pulseFailure(cause: FFmpegError) -> RecError {
        let inputs: [Microphone]
        do {
            inputs = try AudioDevices.pulseMicrophones(server: server)
        } catch {
            return AudioDevices.noSoundServer(for: name, cause: cause.description)
        }
        if let device, !inputs.contains(where: { $0.name == device }) {
            let here = inputs.isEmpty ? "it has none" : "it has " + inputs.map(\.name).joined(separator: ", ")
            return .usage("the sound server has no input named '\(device)' (\(here)); see `rec devices` for the microphones here",
                          cause: cause.description, location: name)
        }
        return .runtime("the sound server would not record from \(name); check it with `pactl info` and `pactl list short sources`",
                        cause: cause.description, location: name)
    }

    /// Why ALSA would not record, from the device's own node (`ALSACaptureNode`): libavdevice
    /// turns every ALSA error into EIO.
    private func alsaFailure(cause: FFmpegError) -> RecError {
        let node = device.flatMap(ALSACaptureNode.openError)
        if node == ENOENT || node == ENODEV || node == ENXIO {
            return .usage("there is no ALSA capture device '\(device ?? "default")'; see `rec devices` for the microphones here "
                          + "(e.g. --audio alsa:hw:1,0)", cause: cause.description, location: name)
        }
        if node == EBUSY {
            return .runtime("\(name) is in use by another program; close it, or record through the sound server with --audio default",
                            cause: cause.description, location: name)
        }
        // Many USB microphones take neither 16-bit samples nor 48 kHz on a raw hw: device;
        // plughw: converts in ALSA, and the sound server does too.
        let plug = device.map { $0.hasPrefix("hw:") ? " try --audio alsa:plug\($0)," : "" } ?? ""
        return .runtime("cannot record from \(name);\(plug) check the device with `arecord -l` and `rec devices`, "
                        + "or record through the sound server with --audio default",
                        cause: cause.description, location: name)
    }

    private func lost(cause: FFmpegError) -> RecError {
        switch backend {
        case .pulse:
            .runtime("lost \(name) after \(chunks) chunks: the sound server stopped sending sound; check it is still running with `pactl info`",
                     cause: cause.description, location: name)
        case .alsa:
            .runtime("lost \(name) after \(chunks) chunks (unplugged?); plug it back in, or pick another microphone from `rec devices`",
                     cause: cause.description, location: name)
        }
    }
}
