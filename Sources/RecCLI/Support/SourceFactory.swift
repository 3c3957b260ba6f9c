import Capture
import Media
import RecCore

/// Makes the frame source `--source` names, with `--size` and `--fps` applied where the source
/// takes them.
enum SourceFactory {
    static func make(_ spec: SourceSpec, size: (width: Int, height: Int)?, fps: Int?) throws(RecError) -> FrameSource {
        switch spec {
        case .testPattern(let w, let h, let specFPS):
            if let w, let h, let size, (w, h) != size {
                throw .usage("--size \(size.width)x\(size.height) contradicts --source test:\(w)x\(h); give the size once")
            }
            let width = w ?? size?.width ?? 1280
            let height = h ?? size?.height ?? 720
            return TestPatternSource(width: width, height: height, fps: specFPS ?? fps ?? 30)
        case .file(let path):
            if size != nil || fps != nil {
                throw .usage("--size and --fps do not apply to a file source, which keeps the file's own size and timing; use --filter scale=W:H to resize")
            }
            return FileSource(path: OutputFile.absolute(path))
        case .camera(let path):
            return try CameraFactory.make(path: path, size: size, fps: fps)
        case .defaultCamera:
            return try CameraFactory.makeDefault(size: size, fps: fps)
        }
    }
}

/// V4L2 cameras; until the camera source lands, says clearly that there is none.
enum CameraFactory {
    static func make(path: String, size: (width: Int, height: Int)?, fps: Int?) throws(RecError) -> FrameSource {
        throw .runtime("cannot open camera \(path): camera support is not built in yet; use --source test for the stand-in camera")
    }

    static func makeDefault(size: (width: Int, height: Int)?, fps: Int?) throws(RecError) -> FrameSource {
        throw .usage("no --source given and no cameras found; use --source test for the built-in stand-in camera")
    }
}
