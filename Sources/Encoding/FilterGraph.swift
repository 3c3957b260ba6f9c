import CFFmpeg
import Media
import RecCore

/// A libavfilter graph between the source and the encoder (`--filter "hflip"`, a preset's `filter`).
/// Frames go in and come out with their capture times in microseconds. libavfilter is opened the
/// first time a graph is built (`FilterLibrary`). Owned by one thread.
package final class FilterGraph {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    package let description: String
    /// What comes out: size and pixel format after the filters.
    package let output: VideoFormat
    /// The pixel aspect ratio after the filters (0/1 if unknown).
    package let outputAspect: Rational
    private let sinkTimeBase: Rational
    private let lib: FilterLibrary

    /// Builds `buffer → description → buffersink` for frames of `input` stamped in microseconds,
    /// whose pixels have the shape `aspect` (the source frames' `sample_aspect_ratio`, so `scale`
    /// or `setsar` work from the real one). Colour range and matrix travel on the frames
    /// themselves: FFmpeg 5.1's `buffer` source has no options for them, and its filters copy a
    /// frame's colour fields to the frames they make (`scale` reads them to convert).
    /// The corresponding C functions are `avfilter_graph_create_filter`, `avfilter_graph_parse_ptr`
    /// and `avfilter_graph_config`.
    package init(_ description: String, input: VideoFormat, aspect: Rational = Rational(0, 1)) throws(FFmpegError) {
        self.description = description
        let lib = try FilterLibrary.load()
        self.lib = lib
        var g: UnsafeMutablePointer<AVFilterGraph>? = try allocated(lib.graphAlloc(), "avfilter_graph_alloc")
        var src: UnsafeMutablePointer<AVFilterContext>? = nil
        var snk: UnsafeMutablePointer<AVFilterContext>? = nil
        let source: UnsafeMutablePointer<AVFilterContext>
        let sink: UnsafeMutablePointer<AVFilterContext>
        do throws(FFmpegError) {
            let args = "video_size=\(input.width)x\(input.height):pix_fmt=\(input.pixelFormat.rawValue):time_base=1/1000000:pixel_aspect=\(aspect.num)/\(max(1, aspect.den))"
            try check(lib.createFilter(&src, lib.getByName("buffer"), "in", args, nil, g),
                      "avfilter_graph_create_filter(buffer)")
            try check(lib.createFilter(&snk, lib.getByName("buffersink"), "out", nil, nil, g),
                      "avfilter_graph_create_filter(buffersink)")
            source = try allocated(src, "avfilter_graph_create_filter(buffer)")
            sink = try allocated(snk, "avfilter_graph_create_filter(buffersink)")
            var outputs = lib.inoutAlloc()
            var inputs = lib.inoutAlloc()
            defer { lib.inoutFree(&outputs); lib.inoutFree(&inputs) }
            guard let o = outputs, let i = inputs else {
                throw FFmpegError(code: cffmpeg_averror(ENOMEM), operation: "avfilter_inout_alloc")
            }
            o.pointee.name = av_strdup("in"); o.pointee.filter_ctx = src; o.pointee.pad_idx = 0; o.pointee.next = nil
            i.pointee.name = av_strdup("out"); i.pointee.filter_ctx = snk; i.pointee.pad_idx = 0; i.pointee.next = nil
            try check(lib.parse(g, description, &inputs, &outputs, nil), "avfilter_graph_parse(\(description))")
            try check(lib.config(g, nil), "avfilter_graph_config(\(description))")
        } catch {
            lib.graphFree(&g)
            throw error
        }
        self.graph = g
        self.source = source
        self.sink = sink
        self.output = VideoFormat(width: Int(lib.sinkWidth(sink)), height: Int(lib.sinkHeight(sink)),
                                  pixelFormat: PixelFormat(rawValue: lib.sinkFormat(sink)))
        self.outputAspect = Rational(lib.sinkAspect(sink))
        self.sinkTimeBase = Rational(lib.sinkTimeBase(sink))
    }

    deinit { lib.graphFree(&graph) }

    /// Pushes a frame (nil at the end) and returns every frame the graph has ready.
    /// The corresponding C functions are `av_buffersrc_add_frame_flags` and `av_buffersink_get_frame`.
    package func process(_ frame: VideoFrame?) throws(FFmpegError) -> [VideoFrame] {
        if let frame {
            // The graph gets its own reference, stamped: the caller's frame is not written to.
            let input = try FrameOwner()
            try check(av_frame_ref(input.pointer, frame.pointer), "av_frame_ref")
            input.pointer.pointee.pts = frame.captureTime.rescaled(to: .microseconds).value
            try check(lib.addFrame(source, input.pointer, 0), "av_buffersrc_add_frame")
        } else {
            try check(lib.addFrame(source, nil, 0), "av_buffersrc_add_frame(eof)")
        }
        var out: [VideoFrame] = []
        while true {
            let f = try FrameOwner()
            let r = lib.getFrame(sink, f.pointer)
            if r == FFmpegError.again || r == FFmpegError.eof { break }
            try check(r, "av_buffersink_get_frame")
            let t = Timestamp(value: f.pointer.pointee.pts, timeBase: sinkTimeBase).rescaled(to: .microseconds)
            out.append(VideoFrame(owning: f, captureTime: t, sequence: frame?.sequence ?? 0))
        }
        return out
    }
}
