import Synchronization

/// A value one thread learns once and any thread reads: what a source says of itself once it
/// has started, the parameters an encoder made. Not a `let` because it is learnt on the thread
/// that owns the C object (the capture thread opens the camera, the encode thread the encoder),
/// after the owner of the cell was made; a second `set` is refused, so readers never see it change.
package final class WriteOnce<Value: Sendable>: Sendable {
    private let cell = Mutex<Value?>(nil)

    package init() {}

    /// Sets the value; false, leaving the first, when it was set already.
    @discardableResult
    package func set(_ value: Value) -> Bool {
        cell.withLock { current in
            guard current == nil else { return false }
            current = value
            return true
        }
    }

    /// The value, or nil until it is set.
    package var value: Value? { cell.withLock { $0 } }
}
