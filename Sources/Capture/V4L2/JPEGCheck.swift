/// Whether a buffer holds a whole JPEG: USB cameras that lose packets hand over the first part
/// of a frame, and libavcodec then decodes it with "EOI missing, emulating" and a grey lower part.
enum JPEGCheck {
    /// Starts with SOI (FF D8) and ends with EOI (FF D9), allowing the zero padding some cameras
    /// put after EOI.
    static func isComplete(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return false }
        var end = bytes.count
        while end > 2, bytes[end - 1] == 0 { end -= 1 }
        return bytes[end - 2] == 0xFF && bytes[end - 1] == 0xD9
    }
}
