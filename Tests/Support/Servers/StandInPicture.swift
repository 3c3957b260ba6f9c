/// The stand-in cameras' picture read back from a decoded frame (see rtsp-server.py's header):
/// the frame counter (16 blocks in the top-left corner, least bit first) and the second mark (the
/// bottom-left eighth, white on frames 0, 30, 60, ...). Each is judged by the mean luma inside
/// it, inset from its edges where compression smears, against mid-grey.
public struct StandInPicture: Sendable {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The side of a counter block.
    public var block: Int { max(8, (width / 32) & ~7) }

    /// The second mark's rectangle.
    public var mark: (x: Int, y: Int, width: Int, height: Int) {
        let w = (width / 8) & ~1, h = (height / 8) & ~1
        return (0, height - h, w, h)
    }

    /// Reads one frame's luma plane (`width × height` bytes, as ffmpeg's `-pix_fmt gray` writes
    /// it): the frame's number mod 65536, and whether its second mark is lit.
    public func read(_ luma: [UInt8], at offset: Int = 0) -> (counter: Int, flash: Bool) {
        func lit(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Bool {
            let inset = max(1, min(w, h) / 4)
            var sum = 0, count = 0
            for row in (y + inset)..<(y + h - inset) {
                for column in (x + inset)..<(x + w - inset) {
                    sum += Int(luma[offset + row * width + column])
                    count += 1
                }
            }
            return sum > 128 * count
        }
        var counter = 0
        for bit in 0..<16 where lit(bit * block, 0, block, block) { counter |= 1 << bit }
        return (counter, lit(mark.x, mark.y, mark.width, mark.height))
    }

    /// Every frame of a gray8 dump (`ffmpeg … -f rawvideo -pix_fmt gray -`), read.
    public func readAll(_ luma: [UInt8]) -> [(counter: Int, flash: Bool)] {
        let size = width * height
        return stride(from: 0, to: luma.count - size + 1, by: size).map { read(luma, at: $0) }
    }
}
