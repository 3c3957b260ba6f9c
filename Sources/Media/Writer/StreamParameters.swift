import RecCore

/// A stream as a muxer describes it: its id (kind and number, which its packets carry) and its
/// codec parameters (time base included). Writers take any list of these and give each the
/// output index of its place in the list.
package struct StreamParameters: Sendable {
    package var id: StreamID
    package var parameters: CodecParameters

    package init(_ id: StreamID, _ parameters: CodecParameters) {
        self.id = id
        self.parameters = parameters
    }
}
