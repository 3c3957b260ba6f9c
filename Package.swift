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
        .executable(name: "rec-engine", targets: ["rec-engine"]),
        .executable(name: "rec-trim", targets: ["rec-trim"]),
        // The Swift library: its public API is the Rec module's alone (docs/LIBRARY.md).
        .library(name: "Rec", targets: ["Rec"]),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libavfilter-dev", "libavdevice-dev", "libswresample-dev"])]
        ),
        // libv4l2's header and videodev2.h, found without pkg-config: pkg-config's -lv4l2 would
        // link libv4l2 into every product using the module, `rec-trim` included. Capture links it.
        .systemLibrary(
            name: "CV4L2",
            providers: [.apt(["libv4l-dev"])]
        ),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // libmicrohttpd for the live page (docs/LIVE.md): an HTTP server we do not hand-write.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // libpipewire-0.3 for the Wayland screen (docs/WAYLAND.md): PipeWire video streams, with
        // a shim for SPA's variadic macros and inline helpers. A C target over Debian's headers
        // (include/pipewire and include/spa link to them) rather than a pkg-config system library:
        // libpipewire-0.3.pc's -D_REENTRANT makes SwiftPM warn in every build of a package that
        // uses rec (swift-package-manager #4817). Needs libpipewire-0.3-dev.
        .target(name: "CPipeWire", path: "Sources/CPipeWire", publicHeadersPath: "include"),
        // libxcb and RandR: the X server's screens and outputs (`rec devices`), and the screen
        // source's watch on the screen's size and the server's life; x11grab grabs the pictures.
        .systemLibrary(
            name: "CXCB",
            pkgConfig: "xcb-randr",
            providers: [.apt(["libxcb1-dev", "libxcb-randr0-dev"])]
        ),
        // libmosquitto for the MQTT client (docs/MQTT.md): its network thread, reconnects and TLS.
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // pidfd_open(2) through syscall(2), which Swift cannot call: waiting for a process to exit.
        .systemLibrary(name: "CProcess"),
        .target(name: "RecCore"),
        // sd_notify (service readiness) and sd-bus (desktop notifications), over libsystemd.
        .target(name: "SystemIntegration", dependencies: ["CSystemd", "RecCore"]),
        .target(name: "Media", dependencies: ["CFFmpeg", "VideoDevices", "RecCore"]),
        // The recording's frames-to-packets pipeline, with its libavfilter graph.
        // CFFmpeg declares all of FFmpeg but links only what Media needs: libavfilter and
        // libavdevice (18 MiB of a process with the libraries they pull in, ~7.7 MB of it private
        // relocated data) are linked by no target but opened when first called (Media's
        // SharedLibrary: a filter graph, a microphone), so neither `rec-trim` nor a session that
        // copies a network camera maps them.
        .target(name: "Encoding", dependencies: ["CFFmpeg", "Media", "RecCore"]),
        // V4L2's types and the device calls that question a node (M2M encoders), over the
        // kernel's own interface: no libv4l2, so `rec-trim` can ask too.
        .target(name: "VideoDevices", dependencies: ["CV4L2", "RecCore"]),
        // CV4L2 declares libv4l2 but does not link it: cameras (Capture) do.
        .target(name: "Capture", dependencies: ["CV4L2", "CXCB", "CPipeWire", "CSystemd", "VideoDevices", "CFFmpeg", "Media", "RecCore"],
                linkerSettings: [.linkedLibrary("v4l2")]),
        // An MQTT broker connection (issue 40): one owner of libmosquitto's client, events on a queue of its own.
        .target(name: "Messaging", dependencies: ["CMosquitto", "RecCore"]),
        .target(name: "SessionControl", dependencies: ["CProcess", "RecCore"]),
        // The live page and its JSON API: HTTP server, fMP4 fan-out, timeline thumbnails.
        .target(name: "Live", dependencies: ["CMicroHTTPD", "Media", "RecCore"]),
        // The box's review page (issue 42): one address for every session, passing the page's
        // reads through to each session's own live server, and exports of several cameras.
        .target(name: "Review", dependencies: ["Live", "Media", "SessionControl", "RecCore"]),
        .target(name: "Session", dependencies: ["SessionControl", "SystemIntegration", "Live", "Capture", "Encoding", "Media", "Messaging", "RecCore"]),
        // The argument parser and the session client commands (save, stop, status, snapshot):
        // no FFmpeg, so `rec` answers those in a process that starts in milliseconds.
        .target(name: "RecClient", dependencies: ["CProcess", "SessionControl", "SystemIntegration", "RecCore"]),
        // `rec trim`: its own module and executable, which link no libavfilter, libavdevice,
        // live page or session code.
        .target(name: "TrimCLI", dependencies: ["RecClient", "SessionControl", "VideoDevices", "Media", "RecCore"]),
        // A recording's choices (source, preset, size, sound) checked and turned into a source and
        // a recorder configuration: shared by the command line and the Swift API.
        .target(name: "CaptureSetup", dependencies: ["Session", "SessionControl", "Capture", "VideoDevices", "Media", "RecCore"]),
        // The public Swift API (capture session, frames, replay buffer, asset writer, devices).
        // Everything under it is `package`.
        .target(name: "Rec", dependencies: ["CaptureSetup", "Session", "SessionControl", "Capture", "Encoding", "VideoDevices", "Media", "RecCore"]),
        .target(name: "RecCLI", dependencies: ["CaptureSetup", "TrimCLI", "RecClient", "Review", "Session", "SessionControl", "Capture", "VideoDevices", "Media", "RecCore"]),
        // `rec`: runs the client commands itself and execs `rec-engine` (everything) for the rest.
        .executableTarget(name: "rec", dependencies: ["RecClient"]),
        .executableTarget(name: "rec-engine", dependencies: ["RecCLI"]),
        .executableTarget(name: "rec-trim", dependencies: ["TrimCLI"]),
        // Waits on file-system events, for the test targets that watch files and sockets.
        .target(name: "TestFileWatch", path: "Tests/Support/FileWatch"),
        // Real servers on loopback standing in for network cameras (gst-rtsp-server, ffmpeg).
        .target(name: "TestServers", dependencies: ["CProcess", "TestFileWatch"], path: "Tests/Support/Servers"),
        // Threads of the tests' own for the suites whose tests block (`.blocking`).
        .target(name: "TestPool", path: "Tests/Support/Pool"),
        .testTarget(name: "RecCoreTests", dependencies: ["RecCore"]),
        // The public API alone, as a program that depends on rec uses it (and real servers to test it against).
        .testTarget(name: "RecAPITests", dependencies: ["Rec", "TestServers"]),
        .testTarget(name: "MediaTests", dependencies: ["Encoding", "Media", "RecCore", "TestPool"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "VideoDevices", "Media", "RecCore", "Session", "TestFileWatch", "TestPool"]),
        .testTarget(name: "LiveTests", dependencies: ["Live", "Session", "Capture", "Media", "RecCore", "TestPool"]),
        .testTarget(name: "SessionTests", dependencies: ["Session", "Capture", "Encoding", "Media", "RecCore", "TestPool"]),
        // Against a real mosquitto broker on loopback, with mosquitto_pub/mosquitto_sub as the other side.
        .testTarget(name: "MessagingTests", dependencies: ["Messaging", "RecCore", "TestServers", "TestPool"]),
        .testTarget(name: "RecCLITests", dependencies: ["RecCLI", "CaptureSetup", "TrimCLI", "RecClient", "Session", "Capture", "VideoDevices", "Media", "RecCore", "TestFileWatch", "TestServers", "TestPool"]),
    ]
)
