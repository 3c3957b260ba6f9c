extension RecError {
    /// `--from` is not before `--to`.
    package static func reversedRange(from: Timestamp, to: Timestamp) -> RecError {
        .usage("the start \(from.clockText) is not before the end \(to.clockText); --from must come before --to")
    }

    /// The range asked for is not (wholly) held by `holder` ("the ring", "the stream", …).
    package static func unavailableRange(from: Timestamp, to: Timestamp, holder: String,
                                        availableFrom: Timestamp, availableTo: Timestamp) -> RecError {
        var error = RecError.usage("\(Timestamp.rangeText(from, to)) is outside \(holder), which holds "
            + "\(Timestamp.rangeText(availableFrom, availableTo)); choose times inside it")
        error.reason = .rangeNotHeld
        error.held = availableFrom..<max(availableFrom, availableTo)
        return error
    }
}
