import RecCore

/// The `--from`, `--to` and `--last` of `rec trim` and `rec save`, as given.
/// Times stay text until RecCore's time parser is wired in by the integrator.
struct ClipRange: Sendable, Equatable {
    var from: String?
    var to: String?
    var last: String?

    init(_ values: ParsedValues) throws(RecError) {
        from = try values.value("from")
        to = try values.value("to")
        last = try values.value("last")
    }

    /// `--last` says where the clip starts and ends, so it excludes `--from` and `--to`.
    func validate() throws(RecError) {
        if last != nil, from != nil || to != nil {
            throw .usage("--last cannot be combined with --from or --to; give either --last or --from and --to")
        }
    }
}
