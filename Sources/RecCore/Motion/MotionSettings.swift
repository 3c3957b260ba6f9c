/// How a session's motion detector judges a picture (issue 40), with the defaults a camera
/// watching a scene needs. The detector works on the luma plane scaled down to `analysisHeight`
/// rows, as the recorders that detect motion cheaply do (Frigate's `improved_motion.py` works at
/// about 100 rows): detail smaller than that is noise, not motion.
package struct MotionSettings: Sendable, Equatable {
    /// Rows the picture is scaled down to before it is compared (its width keeps the aspect).
    package var analysisHeight = 100
    /// How much a pixel's brightness (0–255, after the contrast stretch) must differ from the
    /// background's to count as changed. 50, not Frigate's 30: on OpenCV's tree.avi (a webcam
    /// looking at a tree, Tests/MediaTests/MotionRealVideoTests) 30 made events of the leaves'
    /// stir, in 26 of the 53 pictures before a hand comes in; 50 with `minimumArea` 0.003 finds
    /// none there and still finds the hand and vtest.avi's pedestrians (docs/MOTION.md).
    package var threshold = 50
    /// The smallest changed area that counts as motion, as a fraction of the analysed picture
    /// (after dilation): a leaf, a raindrop or the encoder's noise is smaller; a person a
    /// twentieth of the picture's height is about this size (40 pixels of 133x100).
    package var minimumArea = 0.003
    /// Above this fraction of the picture changed at once, the change is the light (a lamp, the
    /// sun, the camera's night mode), not motion: nothing is reported and the background starts
    /// again from this picture.
    package var lightingFraction = 0.6
    /// How fast the background follows the picture: the weight of each new picture in the
    /// running average (a parked car becomes background in a few seconds at 5 pictures a second).
    package var backgroundWeight = 0.05
    /// Parts of the picture never judged (a clock, a tree, a road), in fractions of its width
    /// and height.
    package var masks: [MotionRect] = []

    package init() {}
}

/// A rectangle in fractions of the picture's width and height (0…1 from the top left), so that it
/// means the same part of the picture at any size.
package struct MotionRect: Sendable, Equatable, Codable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// Whether the two share any area (touching edges do not count).
    package func overlaps(_ other: MotionRect) -> Bool {
        x < other.x + other.width - 1e-9 && other.x < x + width - 1e-9 && y < other.y + other.height - 1e-9 && other.y < y + height - 1e-9
    }

    /// Whether the point (fractions of width and height) lies inside.
    package func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }
}

/// What the detector found in one picture.
package struct MotionSample: Sendable, Equatable {
    /// The fraction of the analysed picture inside motion areas (0 with no motion).
    package var level: Double
    /// Where the motion is: each area's bounding box, largest first.
    package var areas: [MotionRect]
    /// The whole picture changed at once (`MotionSettings.lightingFraction`): a change of light,
    /// reported as no motion.
    package var lighting: Bool

    package static let still = MotionSample(level: 0, areas: [], lighting: false)
}
