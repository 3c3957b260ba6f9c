import Foundation
import Live
import Media
import RecCore

extension SessionHost: LiveBackend {
    /// Starts the live page (with `--http`) and the publishers (with `--publish`), writes the
    /// token 0600 in the session folder, and returns the page's URL with the token.
    package func startServices(folder: SessionFolder) throws(RecError) -> String? {
        for target in configuration.publish {
            let publisher = Publisher(target: target, parameters: { [recorder] in recorder.codecParameters },
                                      sound: { [weak self] in self?.liveSound ?? .ended }, log: log)
            services.publishers.withLock { $0.append(publisher) }
            services.listen { publisher.offer($0) }
        }
        guard let endpoint = configuration.live else { return nil }
        let server = try LiveServer(address: endpoint.address, port: endpoint.port, backend: self)
        services.live.withLock { $0 = server }
        services.listen { [broadcast = server.broadcast] in broadcast.offer($0) }
        try folder.writeLive(address: server.pageAddress, token: server.access.token)
        log?.write("live page at \(server.pageAddress) (token in \(folder.httpTokenPath))")
        return server.url
    }

    package func stopServices() { services.stop() }

    package func liveStatusJSON() -> [UInt8] {
        ControlCodec.encode(ControlResponse(id: nil, reply: .ok(.status(status()))))
    }

    package func liveSnapshot() throws(RecError) -> [UInt8] {
        if recorder.latestFrame == nil, let jpeg = recorder.latestCompressedFrame, recorder.codecParameters?.codec == .mjpeg { return jpeg.data }
        guard let frame = try recorder.latestPicture() else { throw .runtime("no frame has been captured yet; try again in a moment") }
        do { return try JPEGWriter.encode(frame, qscale: 3) } catch { throw error.recError("cannot make the snapshot") }
    }

    package var liveCodecParameters: CodecParameters? { recorder.codecParameters }

    package var liveSound: LiveSound {
        guard let sound = recorder.soundStats().first else { return .none }
        if sound.failure != nil || recorder.soundEnded { return .ended }
        return recorder.soundCodecParameters.map { .running($0) } ?? .opening
    }

    package var liveStartedAt: Double? { recorder.currentStats.startedAt?.timeIntervalSince1970 }

    /// The source's own nominal rate (a stand-in camera at 25 fps is encoded at 25), else the
    /// configured one: the review page turns frame numbers into times with it.
    package var liveFrameRate: Double? {
        if let rate = recorder.sourceRate, rate.num > 0, rate.doubleValue > 0 { return rate.doubleValue }
        return configuration.recorder.encoder.frameRate.doubleValue > 0 ? configuration.recorder.encoder.frameRate.doubleValue : nil
    }

    package func liveKeyframes() -> [EncodedPacket] {
        guard let start = ring.stats.start, let end = ring.stats.end,
              let packets = try? ring.snapshot(from: start, to: end) else { return [] }
        return packets.filter(\.isKeyframe)
    }

    package func liveSave(_ request: SaveRequest, by: String?) throws(RecError) -> SaveReport {
        try save(request, by: by)
    }

    package func liveEvents(_ request: EventsRequest) throws(RecError) -> EventsReport {
        try events(request)
    }

    package var liveScratchFolder: String { NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory() }

    package var liveSaveFolder: String {
        if let file = configuration.recorder.output?.path { return (file as NSString).deletingLastPathComponent }
        return FileManager.default.currentDirectoryPath
    }
}
