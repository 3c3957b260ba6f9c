import Media
import RecCore

/// What the recorder needs of a camera beyond frames: its clock (the sound joins the pictures'
/// timeline there), MJPEG stored as it comes (`copy` presets), waiting for an unplugged camera to
/// return (`--on-unplug wait`) and its controls.
extension V4L2Camera: SourceClock, CompressedFrames, Reconnection {
    package var capabilities: SourceCapabilities {
        SourceCapabilities(isLive: true, clock: self, compressed: self, reconnection: self, controls: self)
    }

    /// The first buffer's CLOCK_MONOTONIC timestamp: the sound joins the pictures' timeline there.
    package var monotonicEpoch: UInt64? { clock.epochMicroseconds.map { UInt64(max(0, $0)) * 1000 } }

    package var compressedParameters: CodecParameters? {
        guard let mode, mode.fourcc.isJPEG else { return nil }
        return try? CodecParameters(codecName: "mjpeg", width: mode.size.width, height: mode.size.height,
                                    pixelFormat: .yuvj422p, timeBase: .microseconds)
    }

    package func nextPacket() throws(RecError) -> EncodedPacket? {
        guard let frame = try nextCompressedFrame() else { return nil }
        let interval = mode.map { Timestamp(value: Int64($0.interval.num), timeBase: Rational(1, $0.interval.den)) }
        return frame.encodedPacket(frameDuration: interval ?? .microseconds(33_333))
    }

    /// Unplugs, stalls and queue errors: a close and reopen is how real cameras recover.
    package func isDisconnect(_ error: RecError) -> Bool { error.isCameraUnplugged || error.isCameraStopped }

    /// A stall (no frame within the watchdog, or the driver's queue broke) is not an unplug: the
    /// camera is still there and is being reopened.
    package func disconnectText(_ error: RecError) -> String {
        error.isCameraStopped ? "stopped delivering frames (a stall)" : "was unplugged"
    }

    package func reconnect(waitingUpTo seconds: Double, stop: Latch) throws(RecError) {
        try reopen(waitingUpTo: seconds, stop: stop)
    }
}
