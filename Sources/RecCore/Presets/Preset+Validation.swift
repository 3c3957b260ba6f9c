extension Preset {
    /// Checks that the settings fit together: the container holds the codec, `copy` has nothing
    /// to encode with, and known encoders get a rate control, speed and tune they accept.
    func validateCombination(_ f: PresetFields) throws(RecError) {
        if let family = codecFamily, let refusal = container.refusal(of: family, encoder: encoder) {
            throw f.fail(refusal)
        }
        if let pixelFormat, !pixelFormat.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }) {
            throw f.fail("\"pixel_format\" \"\(pixelFormat)\" is not an FFmpeg pixel format name; for example \"yuv420p\" (`ffmpeg -pix_fmts` lists them)")
        }
        if isCopy { return try validateCopy(f) }
        guard let known = KnownEncoder.table[encoder] else { return }
        switch rateControl {
        case .crf(let crf)?:
            guard let range = known.crf else {
                throw f.fail("\(encoder) has no crf; \(known.takesQscale ? "use \"qscale\" (1 best to 31 worst)" : known.takesBitrate ? "use \"bitrate\"" : "remove it (\(encoder) is lossless)")")
            }
            guard range.contains(crf) else {
                throw f.fail("\"crf\" \(Preset.formatNumber(crf)) is out of range for \(encoder); use \(Preset.formatNumber(range.lowerBound)) to \(Preset.formatNumber(range.upperBound))")
            }
        case .bitrate? where !known.takesBitrate:
            throw f.fail("\(encoder) takes no bitrate; remove \"bitrate\" (\(encoder) is lossless)")
        case .qscale? where !known.takesQscale:
            throw f.fail("\(encoder) takes no qscale; \(known.crf != nil ? "use \"crf\"" : "remove it")")
        default: break
        }
        try checkWord(speed, .preset, among: known.speeds, f)
        try checkWord(tune, .tune, among: known.tunes, f)
    }

    private func checkWord(_ word: String?, _ key: PresetKey, among allowed: [String]?, _ f: PresetFields) throws(RecError) {
        guard let word, let allowed, !allowed.contains(word) else { return }
        let hint = nearestName(to: word, in: allowed).map { "did you mean \"\($0)\"? " } ?? ""
        throw f.fail("\(encoder) has no \(key.rawValue) \"\(word)\"; \(hint)it takes \(allowed.joined(separator: ", "))")
    }

    private func validateCopy(_ f: PresetFields) throws(RecError) {
        let encodingKeys: [PresetKey] = [.pixelFormat, .crf, .bitrate, .qscale, .bframes, .preset, .tune, .filter, .options]
        let set = encodingKeys.filter { f.has($0) }.map { "\"\($0.rawValue)\"" }
        guard set.isEmpty else {
            throw f.fail("encoder \"copy\" stores the camera's MJPEG as it comes, so \(set.joined(separator: ", ")) cannot apply; remove \(set.count == 1 ? "it" : "them") or use encoder \"mjpeg\" to re-encode")
        }
    }
}
