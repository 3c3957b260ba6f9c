import RecCore

extension SessionHost {
    /// The status now, or, when `request` waits, once its conditions hold: checked on each packet
    /// the encode thread hands the ring (`progress`), at once when the recording ends, and at the
    /// request's timeout. The reply's `wait` says which; its counters say what was reached. Throws
    /// only when `peer` hangs up while it waits.
    func status(_ request: StatusRequest, peer: ControlPeer) throws(RecError) -> StatusBody {
        guard let wait = request.wait else { return status() }
        func met() -> Bool {
            if let frames = wait.frames, recorder.currentStats.framesCaptured < frames { return false }
            if let end = wait.ringEnd, (ring.stats.end?.seconds).map({ $0 < end }) ?? true { return false }
            if wait.error == true, recorder.currentStats.lastError == nil { return false }
            return true
        }
        let outcome = try waitForProgress(until: .after(wait.seconds), peer: peer, met)
        var body = status()
        body.wait = switch outcome {
        case .met: .met
        case .released: .ended
        case .timedOut: .timeout
        }
        return body
    }
}
