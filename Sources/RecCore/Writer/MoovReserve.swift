/// How much room to reserve at the front of an MP4 for its moov box, so the muxer can write the
/// index there at the end (libavformat's `moov_size`) and the file is written once, front to back,
/// with moov before mdat — instead of `+faststart`, which writes the file and then moves all of it
/// to make room. Pure policy for `AssetWriter`.
///
/// The bound is the worst case of every table the mov muxer writes for one video track: per
/// sample `stts` 8, `ctts` 8, `stss` 4, `stsz` 4, a chunk each (`stsc` 12, `co64` 8) and `sdtp`
/// 1 — 45 bytes, rounded to 48 — plus the fixed boxes and the codec's extradata (twice: `avcC`,
/// `hvcC` and friends may repeat it). What the moov does not use stays as a `free` box (about
/// 36 bytes per sample: 3.7 MB for an hour at 30 fps). Too small a reserve makes the muxer fail,
/// and the caller then falls back to `+faststart`.
package enum MoovReserve {
    package static let bytesPerSample = 48
    package static let fixedBytes = 16_384

    package static func bytes(samples: Int, extradata: Int) -> Int {
        fixedBytes + 2 * extradata + bytesPerSample * max(0, samples)
    }
}
