import Foundation
import RecCore
import SystemIntegration

extension SessionHost {
    /// What SIGUSR1 does, as gpu-screen-recorder's replay mode does: save the last
    /// `signalSpan` to a file named from `signalClipPattern`, log it, tell the service manager,
    /// and notify the desktop if asked. Failures are logged; a signal has nobody to answer.
    func saveOnSignal() {
        let path: String
        do {
            path = try UserConfig.fileName(pattern: configuration.signalClipPattern)
        } catch {
            log?.write("SIGUSR1: cannot name the clip: \(error.message)")
            return
        }
        log?.write("SIGUSR1: saving the last \(configuration.signalSpan) to \(path)")
        do {
            let report = try save(SaveRequest(last: .text(configuration.signalSpan), output: path), by: "signal")
            ServiceNotifier.status("saved \(report.path)")
            if configuration.notifiesDesktop {
                do {
                    try DesktopNotification.send(summary: "rec saved a clip", body: report.path)
                } catch {
                    log?.write("SIGUSR1: no desktop notification: \(error.message)")
                }
            }
        } catch {
            log?.write("SIGUSR1: the save failed: \(error.message)")
            ServiceNotifier.status("SIGUSR1 save failed: \(error.message)")
        }
    }
}
