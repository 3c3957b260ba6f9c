import Foundation
import Media
import RecCore
import SystemIntegration

/// Runs one background session in this process, from claiming its runtime folder to removing it:
/// `rec start --foreground`, and the detached process plain `rec start` launches.
package enum SessionProcess {
    /// Starts the session, calls `onReady` once the first frame is in and the control socket
    /// listens (the "camera started" signal), then serves until `rec stop`, Ctrl-C/SIGTERM, or
    /// the recording ending by itself; returns the stop summary. If the source or encoder fails to
    /// start, nothing is left running or behind and the error is thrown.
    package static func run(configuration: SessionConfiguration, source: sending FrameSource,
                           sounds: sending [AudioSource] = [], runtime: RuntimeDirectory = .current(),
                           onReady: (SessionFolder, StatusBody) -> Void) throws(RecError) -> StopSummary {
        var configuration = configuration
        let description = source.description
        let folder = try runtime.claim(configuration.name, source: description)
        let log = SessionLog(path: folder.logPath)
        log.write("starting session '\(configuration.name)' on \(description)")
        if let upload = configuration.upload, configuration.uploader == nil {
            do {
                configuration.uploader = try Uploader(
                    destination: upload, journal: configuration.uploadJournal ?? Uploader.journalPath(
                        recording: configuration.recorder.output?.path, session: configuration.name,
                        environment: ProcessInfo.processInfo.environment),
                    bandwidthLimit: configuration.uploadLimit, notifiesDesktop: configuration.notifiesDesktop) { log.write($0) }
            } catch {
                folder.remove()
                throw error
            }
        }
        let host = SessionHost(configuration: configuration, source: source, sounds: sounds, log: log)
        do {
            try host.recorder.waitUntilStarted()
        } catch {
            log.write("could not start: \(error)")
            folder.remove()
            throw error
        }
        let server = ControlServer(folder: folder, handler: host)
        do {
            try server.start()
        } catch {
            _ = host.stop()
            folder.remove()
            throw error
        }
        let liveURL: String?
        do {
            liveURL = try host.startServices(folder: folder)
        } catch {
            host.stopServices()
            server.stop()
            _ = host.stop()
            folder.remove()
            throw error
        }
        let signals = StopSignals { _ = host.stop() }
        let saves = SignalAction(SIGUSR1, queue: "rec.usr1") { host.saveOnSignal() }
        defer { withExtendedLifetime((signals, saves)) {} }
        var status = host.status()
        if let liveURL { status.extra?["live_url"] = liveURL }
        log.write("recording: \(status.mode ?? "") to \(status.output ?? "the ring only")")
        onReady(folder, status)
        ServiceNotifier.ready(status: "recording \(status.mode ?? "") to \(status.output ?? "the ring only")")
        host.waitUntilStopRequested()
        ServiceNotifier.stopping()
        let summary = host.stop()
        // Returns once every connection's thread has ended, each after writing the reply it was
        // handling: the reply to `rec stop` is out before the socket goes.
        server.stop()
        host.stopServices()
        // The session keeps its name while the last files are copied.
        host.finishUploads()
        folder.remove()
        return summary
    }
}
