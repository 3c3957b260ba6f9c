import CFFmpeg
import Media

extension FilterGraph {
    /// Checks a filter description without a picture to run it on: every filter exists and
    /// takes its options (libavfilter parses the chain and sets each filter up with them). What
    /// depends on the input (a crop larger than the picture) is found when the graph is built.
    /// The corresponding C function is `avfilter_graph_parse_ptr`.
    package static func validate(_ description: String) throws(FFmpegError) {
        let lib = try FilterLibrary.load()
        var graph: UnsafeMutablePointer<AVFilterGraph>? = try allocated(lib.graphAlloc(), "avfilter_graph_alloc")
        var inputs: UnsafeMutablePointer<AVFilterInOut>?
        var outputs: UnsafeMutablePointer<AVFilterInOut>?
        defer {
            lib.inoutFree(&inputs)
            lib.inoutFree(&outputs)
            lib.graphFree(&graph)
        }
        try check(lib.parse(graph, description, &inputs, &outputs, nil), "avfilter_graph_parse(\(description))")
    }
}
