import CFFmpeg
import Glibc
import RecCore

extension PacketSideData {
    /// The kind number of `AV_PKT_DATA_SKIP_SAMPLES`: samples a decoder drops from the start or
    /// end of the packet (libopus marks its last packet's padding so).
    package static let skipSamplesKind = Int32(bitPattern: AV_PKT_DATA_SKIP_SAMPLES.rawValue)

    /// Copies an `AVPacket`'s side data (`AVPacket.side_data`).
    static func copied(from p: UnsafePointer<AVPacket>) -> [PacketSideData] {
        guard let list = p.pointee.side_data else { return [] }
        return (0..<Int(p.pointee.side_data_elems)).map { i in
            let sd = list[i]
            let bytes = sd.data.map { Array(UnsafeBufferPointer(start: $0, count: Int(sd.size))) } ?? []
            return PacketSideData(kind: Int32(bitPattern: sd.type.rawValue), bytes: bytes)
        }
    }

    /// Whether `p` carries exactly `list`, in order; compared in place, nothing copied.
    static func same(_ list: [PacketSideData], as p: UnsafePointer<AVPacket>) -> Bool {
        guard Int(p.pointee.side_data_elems) == list.count else { return false }
        guard let c = p.pointee.side_data else { return list.isEmpty }
        for (i, sd) in list.enumerated() {
            let item = c[i]
            guard Int32(bitPattern: item.type.rawValue) == sd.kind, Int(item.size) == sd.bytes.count else { return false }
            let equal = sd.bytes.withUnsafeBufferPointer { mine in
                guard let base = mine.baseAddress else { return true }
                return item.data.map { memcmp($0, base, mine.count) == 0 } ?? false
            }
            if !equal { return false }
        }
        return true
    }
}

extension EncodedPacket {
    /// Adds the packet's side data to an `AVPacket` filled from it. The corresponding C function
    /// is `av_packet_new_side_data`.
    func attachSideData(to p: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        for sd in sideData {
            let kind = AVPacketSideDataType(rawValue: UInt32(bitPattern: sd.kind))
            let dst = try allocated(av_packet_new_side_data(p, kind, sd.bytes.count), "av_packet_new_side_data")
            sd.bytes.withUnsafeBufferPointer { src in
                if let base = src.baseAddress { dst.update(from: base, count: src.count) }
            }
        }
    }
}
