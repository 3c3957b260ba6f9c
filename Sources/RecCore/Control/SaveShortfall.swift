/// Why a save holds less than it was asked for, from the range asked and the range it could
/// serve (pure: `SessionHost.save` calls it with the two ranges on the session's timeline).
package enum SaveShortfall {
    /// nil when `served` starts where `asked` does; `.beforeSession` when the part left out lies
    /// before session time 0 (never recorded), `.notHeld` when any of it lies after 0 (recorded,
    /// and let go by the ring and every file since).
    package static func of(asked: Range<Timestamp>, served: Range<Timestamp>) -> SaveReport.Shortfall? {
        let (askedStart, servedStart) = (asked.lowerBound.rescaled(to: .microseconds), served.lowerBound.rescaled(to: .microseconds))
        guard askedStart < servedStart else { return nil }
        return servedStart.value > 0 ? .notHeld : .beforeSession
    }
}
