/// Moves a non-Sendable value to the one thread that will own it from then on.
///
/// `@unchecked Sendable` by contract: whoever makes a `Transfer` never touches the value again, so
/// it is only ever used on the receiving thread. Used for the frame source (owned by the capture
/// thread) and nothing else.
struct Transfer<Value>: @unchecked Sendable {
    let value: Value
}
