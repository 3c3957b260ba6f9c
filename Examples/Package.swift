// swift-tools-version:6.0
// Example programs for the `Rec` library, each one main.swift under 80 lines. They depend on rec
// by path, as a package of your own would, and use only its public API: the `Rec` module.
//
//   swift build --package-path Examples
//   Examples/.build/debug/grab-frames --frames 10
//
// scripts/examples.sh builds and runs every one on the stand-in camera and checks its output.
import PackageDescription

let programs = ["grab-frames", "filter-record", "replay-buffer", "still-photo", "network-camera", "readme",
                "motion-clip", "timelapse", "network-stills", "error-kinds",
                // The docs' ```swift blocks, compiled (scripts/doc-samples.sh writes them in).
                "doc-samples"]

let package = Package(
    name: "RecExamples",
    dependencies: [.package(name: "rec", path: "..")],
    targets: programs.map { name in
        .executableTarget(name: name, dependencies: [.product(name: "Rec", package: "rec")])
    },
    swiftLanguageModes: [.v6]
)
