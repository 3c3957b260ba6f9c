/// What a receive call of an encoder or decoder gave: EAGAIN and EOF are results, not errors.
package enum Received<Output> {
    case output(Output)
    /// The codec needs more input before it can give more output (`EAGAIN`).
    case needsInput
    /// The codec is drained (`AVERROR_EOF`).
    case endOfStream
}
