/// `pipewire:NODE`, `wayland` and `wayland:window`, kept apart from the other sources' parsing (issue 22's Wayland part).
extension SourceSpec {
    /// `.pipewire` for `pipewire:NODE`; nil for text that is not a PipeWire source.
    static func parsePipeWire(_ text: String) throws(RecError) -> SourceSpec? {
        if text == "wayland" { return .waylandScreen }
        if text == "wayland:window" { return .waylandWindow }
        guard text.hasPrefix("pipewire:") else { return nil }
        let node = String(text.dropFirst("pipewire:".count))
        guard !node.isEmpty, !node.contains(where: \.isWhitespace) else {
            throw .usage("'pipewire:' needs a video node's name or serial, e.g. --source pipewire:my-camera ('pw-cli ls Node' lists them)")
        }
        return .pipewire(node: node)
    }
}
