import CFFmpeg
import Media

/// The libavfilter functions a `FilterGraph` calls, looked up in the library the first time one is
/// built (`SharedLibrary`): a recording without `--filter` never maps libavfilter and what it
/// brings.
struct FilterLibrary: Sendable {
    let graphAlloc: cffmpeg_avfilter_graph_alloc_fn
    let graphFree: cffmpeg_avfilter_graph_free_fn
    let getByName: cffmpeg_avfilter_get_by_name_fn
    let createFilter: cffmpeg_avfilter_graph_create_filter_fn
    let inoutAlloc: cffmpeg_avfilter_inout_alloc_fn
    let inoutFree: cffmpeg_avfilter_inout_free_fn
    let parse: cffmpeg_avfilter_graph_parse_ptr_fn
    let config: cffmpeg_avfilter_graph_config_fn
    let addFrame: cffmpeg_av_buffersrc_add_frame_flags_fn
    let getFrame: cffmpeg_av_buffersink_get_frame_fn
    let sinkWidth: cffmpeg_av_buffersink_get_w_fn
    let sinkHeight: cffmpeg_av_buffersink_get_h_fn
    let sinkFormat: cffmpeg_av_buffersink_get_format_fn
    let sinkAspect: cffmpeg_av_buffersink_get_sample_aspect_ratio_fn
    let sinkTimeBase: cffmpeg_av_buffersink_get_time_base_fn

    private init(_ lib: SharedLibrary) throws(FFmpegError) {
        graphAlloc = try lib.function("avfilter_graph_alloc", as: cffmpeg_avfilter_graph_alloc_fn.self)
        graphFree = try lib.function("avfilter_graph_free", as: cffmpeg_avfilter_graph_free_fn.self)
        getByName = try lib.function("avfilter_get_by_name", as: cffmpeg_avfilter_get_by_name_fn.self)
        createFilter = try lib.function("avfilter_graph_create_filter", as: cffmpeg_avfilter_graph_create_filter_fn.self)
        inoutAlloc = try lib.function("avfilter_inout_alloc", as: cffmpeg_avfilter_inout_alloc_fn.self)
        inoutFree = try lib.function("avfilter_inout_free", as: cffmpeg_avfilter_inout_free_fn.self)
        parse = try lib.function("avfilter_graph_parse_ptr", as: cffmpeg_avfilter_graph_parse_ptr_fn.self)
        config = try lib.function("avfilter_graph_config", as: cffmpeg_avfilter_graph_config_fn.self)
        addFrame = try lib.function("av_buffersrc_add_frame_flags", as: cffmpeg_av_buffersrc_add_frame_flags_fn.self)
        getFrame = try lib.function("av_buffersink_get_frame", as: cffmpeg_av_buffersink_get_frame_fn.self)
        sinkWidth = try lib.function("av_buffersink_get_w", as: cffmpeg_av_buffersink_get_w_fn.self)
        sinkHeight = try lib.function("av_buffersink_get_h", as: cffmpeg_av_buffersink_get_h_fn.self)
        sinkFormat = try lib.function("av_buffersink_get_format", as: cffmpeg_av_buffersink_get_format_fn.self)
        sinkAspect = try lib.function("av_buffersink_get_sample_aspect_ratio", as: cffmpeg_av_buffersink_get_sample_aspect_ratio_fn.self)
        sinkTimeBase = try lib.function("av_buffersink_get_time_base", as: cffmpeg_av_buffersink_get_time_base_fn.self)
    }

    /// Opened once per process, on first use (a Swift global's initialiser runs exactly once).
    private static let loaded = Result { () throws(FFmpegError) in
        try FilterLibrary(SharedLibrary("libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR)"))
    }

    /// The functions, or why libavfilter could not be opened.
    static func load() throws(FFmpegError) -> FilterLibrary { try loaded.get() }
}
