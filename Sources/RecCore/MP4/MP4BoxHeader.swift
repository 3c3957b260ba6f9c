/// One MP4/MOV box header (ISO 14496-12 §4.2): its type and whole size, from the first 8 or 16
/// bytes of the box. Pure; the file walkers (the edit-list patch, the skimming check) read the
/// bytes and step from box to box with it.
package struct MP4BoxHeader: Equatable, Sendable {
    package var type: String
    /// The whole box, header included.
    package var size: UInt64

    package init(type: String, size: UInt64) {
        self.type = type
        self.size = size
    }

    /// Decodes `bytes` (8 or more read at the box's start), `remaining` bytes before the end of
    /// what holds it; a size of 0 means "to the end". Nil when the header is cut short or says
    /// less than its own length.
    package init?(_ bytes: [UInt8], remaining: UInt64) {
        guard bytes.count >= 8 else { return nil }
        type = String(decoding: bytes[4..<8], as: UTF8.self)
        size = UInt64(MP4EditList.readUInt32(bytes, 0))
        var header: UInt64 = 8
        if size == 1 {
            guard bytes.count >= 16 else { return nil }
            size = MP4EditList.readUInt64(bytes, 8)
            header = 16
        } else if size == 0 {
            size = remaining
        }
        guard size >= header else { return nil }
    }
}
