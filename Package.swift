// swift-tools-version:6.0
// rec: frame recording and frame-exact clip trimming on Linux.
// Targets follow the pipeline (see docs/ARCHITECTURE.md): RecCore is pure Swift and imports no C;
// Media wraps FFmpeg; Capture holds the frame sources; Session wires them into recordings and the
// control socket; RecCLI is the command line; rec is a one-line main.
import PackageDescription

let package = Package(
    name: "rec",
    products: [
        .executable(name: "rec", targets: ["rec"]),
        .library(name: "RecCore", targets: ["RecCore"]),
        .library(name: "Media", targets: ["Media"]),
        .library(name: "Capture", targets: ["Capture"]),
        .library(name: "Session", targets: ["Session"]),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavfilter",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libavfilter-dev"])]
        ),
        .systemLibrary(
            name: "CV4L2",
            pkgConfig: "libv4l2",
            providers: [.apt(["libv4l-dev"])]
        ),
        .target(name: "RecCore"),
        .target(name: "Media", dependencies: ["CFFmpeg", "RecCore"]),
        .target(name: "Capture", dependencies: ["CV4L2", "Media", "RecCore"]),
        .target(name: "Session", dependencies: ["Capture", "Media", "RecCore"]),
        .target(name: "RecCLI", dependencies: ["Session", "Capture", "Media", "RecCore"], resources: []),
        .executableTarget(name: "rec", dependencies: ["RecCLI"]),
        .testTarget(name: "RecCoreTests", dependencies: ["RecCore"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "RecCore"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "Media", "RecCore", "Session"]),
        .testTarget(name: "SessionTests", dependencies: ["Session", "Capture", "Media", "RecCore"]),
        .testTarget(name: "RecCLITests", dependencies: ["RecCLI", "Session", "Media", "RecCore"]),
    ]
)
