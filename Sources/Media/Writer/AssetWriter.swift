import CFFmpeg
import Foundation
import RecCore

/// Writes one recording's encoded video to a file that survives a crash and ends up standard.
///
/// While recording, MP4/MOV are written fragmented and Matroska in clusters, each ended at every
/// keyframe and whenever it holds `FragmentClock.defaultLength` (0.1 s; a copy's may be longer) of video, and pushed to the
/// OS as it ends: a SIGKILL loses at most the fragment being filled plus what the encoder still holds.
/// A failed write (a full disk) cuts the file back to the end of its last complete fragment, so
/// nothing torn is left, and the writer stops; `failure` says what happened and what was kept.
/// `finish()` writes the trailer and, for MP4/MOV, rewrites the file once, front to back, as a
/// standard MP4 with moov first (room for it reserved: `MoovReserve`) and the right duration, into
/// an unnamed file in the same folder (`ReplacementFile`) that is fsynced before it is renamed over
/// the original. If that step fails or the process dies during it, the fragmented file is still
/// there and plays, and nothing is left beside it. Matroska needs no rewrite: its trailer (cues,
/// duration) is the finish.
/// Owned by the encode thread.
package final class AssetWriter {
    package let path: String
    package let container: ContainerFormat
    // `@exclusivity(unchecked)`: the state touched for every packet. This object is owned by one
    // thread and never lends that state across a call that could reach it again, so the runtime's
    // check of each access (~80 instructions under callgrind, several per packet) never fires.
    @exclusivity(unchecked) private var muxer: Muxer?
    @exclusivity(unchecked) private var clock = FragmentClock()
    @exclusivity(unchecked) package private(set) var packetsWritten = 0
    @exclusivity(unchecked) package private(set) var lastPacketEnd: Timestamp?
    /// How long the last video frame written lasts: what the rewrite gives a file's only frame,
    /// which the fragmented file read back does not say (`Remuxer`).
    @exclusivity(unchecked) private var lastFrameDuration: Timestamp?
    /// Bytes of the file known to be complete and handed to the OS.
    @exclusivity(unchecked) package private(set) var durableBytes: Int64 = 0
    /// The write error that ended the file early, if one did.
    @exclusivity(unchecked) package private(set) var failure: FFmpegError?

    private let extradataSize: Int
    /// The file's streams: each one's output index is its place in this list (searched, not
    /// hashed: two or three streams, and every packet looks its own up).
    private let streamIDs: [StreamID]
    /// The stream whose packets time the fragments: the first video stream.
    private let timeline: StreamID?
    /// Ticks added to each Opus stream's times: Matroska times an Opus block by its decoded
    /// samples, pre-skip included (the reader subtracts CodecDelay), while the encoder stamps the
    /// first packet at −pre-skip; libavformat 59 would otherwise move every track later by the
    /// pre-skip and leave the sound 6.5 ms early (SoundProbeTests measures it).
    private let soundOffset: [Int64]

    /// - Parameters:
    ///   - streams: every stream of the file, in the order the file lists them; packets of other
    ///     streams are left out.
    ///   - fragmentLength: the longest a fragment (cluster) grows; see `FragmentClock`.
    package init(path: String, container: ContainerFormat, streams: [StreamParameters],
                fragmentLength: Timestamp = FragmentClock.defaultLength) throws(FFmpegError) {
        self.path = path
        self.extradataSize = streams.reduce(0) { $0 + $1.parameters.extradata.count }
        self.container = container
        self.streamIDs = streams.map(\.id)
        self.timeline = streams.first { $0.id.isVideo }?.id
        self.soundOffset = streams.map { !container.hasEditLists && $0.parameters.codec == .opus ? Int64($0.parameters.initialPadding) : 0 }
        var options = container.crashSafeOptions(fragment: fragmentLength)
        // `SegmentedWriter` gives the packets in `Interleave`'s order, which fragmented MP4 takes
        // as it comes (each fragment keeps each stream's samples apart), as does any file of one
        // stream; Matroska's clusters want them by decode time across streams, which libavformat
        // keeps. It holds one stream's packets until the other's catch up, by default up to 10 s:
        // a sound source that fails would stop the file growing for that long.
        let interleaves = streams.count > 1 && !container.hasEditLists
        if interleaves { options["max_interleave_delta"] = "1000000" }
        if streams.contains(where: \.id.isSound), let flags = options["movflags"] {
            // The header waits for the first fragment, so it can hold the edit lists that hide
            // AAC's priming and put the pictures' encoder delay at 0: without them the sound of
            // the fragmented file plays 21 ms late (measured, AudioPipelineTests).
            options["movflags"] = flags + "+delay_moov"
        }
        let muxer = try Muxer(path: path, container: container.muxerName, streams: streams.map(\.parameters), options: options,
                              tags: container.preferredTags, interleaves: interleaves)
        self.muxer = muxer
        self.durableBytes = muxer.bytesWritten
    }

    package var bytesWritten: Int64 { muxer?.bytesWritten ?? durableBytes }

    /// Presentation time before which every frame is in a complete fragment on disk (nil before
    /// the first fragment is out).
    package var completeBefore: Timestamp? { clock.completeBefore }

    /// Writes one packet of any of the file's streams; throws the write error after cutting the
    /// file back (see the type). The packets come in `Interleave`'s order (`SegmentedWriter`).
    package func append(_ packet: consuming EncodedPacket) throws(FFmpegError) {
        guard let muxer, let index = streamIDs.firstIndex(of: packet.stream) else { return }
        var p = packet
        p.streamIndex = index
        p.pts += soundOffset[index]
        p.dts += soundOffset[index]
        do throws(FFmpegError) {
            try muxer.write(p)
            try muxer.flush()
        } catch {
            abandon(after: error)
            throw error
        }
        packetsWritten += 1
        // The muxer writes a fragment to the file only as a whole, when it ends one. Fragments are
        // timed by the video: a fragment the muxer ends while taking a sound packet says nothing
        // certain about the pictures, so the line moves at the next video packet's.
        let grew = muxer.bytesWritten > durableBytes
        durableBytes = muxer.bytesWritten
        guard p.stream == timeline else { return }
        lastPacketEnd = max(lastPacketEnd ?? p.endTime, p.endTime)
        if p.duration > 0 { lastFrameDuration = Timestamp(value: p.duration, timeBase: p.timeBase) }
        clock.wrote(p, fragmentEnded: grew)
    }

    /// Ends the fragment being filled here and pushes it to the OS, so that everything written so
    /// far is in the file, as a kill would find it; throws the write error after cutting the file
    /// back, as `append` does.
    package func endFragment() throws(FFmpegError) {
        guard let muxer else { return }
        do throws(FFmpegError) {
            try muxer.endFragment()
            try muxer.flush()
        } catch {
            abandon(after: error)
            throw error
        }
        durableBytes = muxer.bytesWritten
    }

    /// Finishes the file; see the type's description. Safe to call once; later calls do nothing.
    package func finish() throws(FFmpegError) {
        guard let muxer else { return }
        self.muxer = nil
        do throws(FFmpegError) {
            try muxer.finish()
        } catch {
            // The trailer or the last fragment did not fit: cut back to the last complete one.
            self.muxer = muxer
            abandon(after: error)
            throw error
        }
        durableBytes = muxer.bytesWritten
        clock.finished(upTo: lastPacketEnd)
        if container == .mp4 || container == .mov, packetsWritten > 0 {
            let reserve = MoovReserve.bytes(samples: packetsWritten, extradata: extradataSize)
            do throws(FFmpegError) {
                try rewrite(options: ["moov_size": "\(reserve)"])
            } catch where error.code == cffmpeg_averror(EINVAL) {
                // The index outgrew the reserve: the trailer's EINVAL (it cannot, by MoovReserve's
                // bound; if it did, the file is still finished, with the rewrite that moves the data
                // once more). Told by the code alone: an EINVAL from anywhere else in the rewrite
                // comes back from this second one too, and is thrown.
                try rewrite(options: ["movflags": "+faststart"])
            }
        }
    }

    /// Remuxes the finished fragmented file into its replacement and renames that over it.
    private func rewrite(options: [String: String]) throws(FFmpegError) {
        let copy = try ReplacementFile(replacing: path)
        do throws(FFmpegError) {
            try Remuxer.remux(from: path, to: copy.writePath, container: container.muxerName, options: options,
                              startAtZero: true, tags: container.preferredTags, loneVideoDuration: lastFrameDuration)
        } catch {
            copy.discard()
            throw error
        }
        try copy.commit()
    }

    /// Closes the file without a trailer and cuts it back to its last complete fragment.
    private func abandon(after error: FFmpegError) {
        failure = error
        muxer?.abandon()
        muxer = nil
        truncate(path, off_t(durableBytes))
    }

}
