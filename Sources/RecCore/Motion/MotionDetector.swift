/// A session's motion detector (issue 40): pure code on a picture's luma plane, built the way the
/// recorders that detect motion cheaply build it (Frigate's `improved_motion.py`): the picture
/// scaled down to about 100 rows, its contrast stretched, blurred, compared with a running
/// average of the background, thresholded, dilated, and the changed areas over a minimum
/// counted. A change over most of the picture is the light, not motion; masks leave parts of the
/// picture out. One detector per camera; feed it the pictures in order, at a few a second.
package struct MotionDetector: Sendable {
    package let settings: MotionSettings
    /// The analysed picture's size, fixed by the first picture (a new size starts again).
    private(set) var width = 0, height = 0
    private var background: [Float] = []
    /// The picture analysed before this one.
    private var previous: [Float] = []
    private var masked: [Bool] = []
    /// What masked pixels show, fixed from the first picture: nothing changes there, so neither
    /// the blur nor the contrast stretch carries a masked clock's changes into the picture.
    private var frozen: [Float] = []
    private var sourceSize = (width: 0, height: 0)

    package init(settings: MotionSettings = MotionSettings()) {
        self.settings = settings
    }

    /// Judges one picture: `luma` holds `height` rows of `width` bytes, each row `stride` bytes
    /// after the one before. The first picture (and the first after a size change or a change of
    /// light) only becomes the background.
    package mutating func analyse(luma: UnsafeBufferPointer<UInt8>, width sourceWidth: Int, height sourceHeight: Int,
                                  stride: Int) -> MotionSample {
        guard sourceWidth > 0, sourceHeight > 0, stride >= sourceWidth, luma.count >= (sourceHeight - 1) * stride + sourceWidth else {
            return .still
        }
        if sourceSize != (sourceWidth, sourceHeight) { start(width: sourceWidth, height: sourceHeight) }
        var picture = MotionImage.scaled(luma, width: sourceWidth, height: sourceHeight, stride: stride, to: (width, height))
        if frozen.isEmpty { frozen = picture.pixels }
        for i in masked.indices where masked[i] { picture.pixels[i] = frozen[i] }
        picture.stretchContrast(leavingOut: masked)
        picture.blur()
        if background.isEmpty {
            (background, previous) = (picture.pixels, picture.pixels)
            return .still
        }
        defer { previous = picture.pixels }
        var changed = [Bool](repeating: false, count: width * height)
        var count = 0, judged = 0
        let threshold = Float(settings.threshold), weight = Float(settings.backgroundWeight)
        for i in 0..<changed.count where !masked[i] {
            judged += 1
            let value = picture.pixels[i]
            // Changed from the background and from the picture before: a thing that stops is
            // no longer motion, and neither is the fading ghost of where it was.
            if abs(value - background[i]) > threshold && abs(value - previous[i]) > threshold / 2 {
                changed[i] = true
                count += 1
            }
            background[i] += weight * (value - background[i])
        }
        guard judged > 0 else { return .still }
        if Double(count) / Double(judged) > settings.lightingFraction {
            background = picture.pixels
            return MotionSample(level: 0, areas: [], lighting: true)
        }
        guard count > 0 else { return .still }
        let grown = MotionImage.dilated(changed, width: width, height: height).enumerated().map { $1 && !masked[$0] }
        let least = max(1, Int((settings.minimumArea * Double(width * height)).rounded(.up)))
        let areas = MotionImage.areas(grown, width: width, height: height).filter { $0.pixels >= least }
            .sorted { $0.pixels > $1.pixels }
        let level = Double(areas.reduce(0) { $0 + $1.pixels }) / Double(judged)
        let (w, h) = (Double(width), Double(height))
        return MotionSample(level: min(1, level), areas: areas.map {
            MotionRect(x: Double($0.minX) / w, y: Double($0.minY) / h, width: Double($0.maxX - $0.minX + 1) / w,
                       height: Double($0.maxY - $0.minY + 1) / h)
        }, lighting: false)
    }

    /// `analyse` on a tightly packed plane.
    package mutating func analyse(luma: [UInt8], width: Int, height: Int) -> MotionSample {
        luma.withUnsafeBufferPointer { analyse(luma: $0, width: width, height: height, stride: width) }
    }

    /// A new picture size: the analysed size keeps the aspect at `analysisHeight` rows (never
    /// more than the picture has), and the masks are laid on it.
    private mutating func start(width sourceWidth: Int, height sourceHeight: Int) {
        sourceSize = (sourceWidth, sourceHeight)
        height = max(1, min(settings.analysisHeight, sourceHeight))
        width = max(1, min(sourceWidth, Int((Double(sourceWidth) * Double(height) / Double(sourceHeight)).rounded())))
        (background, previous, frozen) = ([], [], [])
        // An analysed pixel that covers any part of a mask is masked: one half on a clock
        // changes as the clock does.
        let (w, h) = (Double(width), Double(height))
        masked = (0..<(width * height)).map { i in
            let cell = MotionRect(x: Double(i % width) / w, y: Double(i / width) / h, width: 1 / w, height: 1 / h)
            return settings.masks.contains { $0.overlaps(cell) }
        }
    }
}
