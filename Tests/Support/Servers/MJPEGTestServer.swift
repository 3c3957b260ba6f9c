import Foundation
import Glibc

/// An HTTP MJPEG camera of the tests' own (`Tests/Support/mjpeg/mjpeg-server.py`, Python's
/// http.server): `multipart/x-mixed-replace` JPEGs of the stand-in picture, each drawn with its
/// frame counter (`StandInMedia.Kind.jpegFolder`), at `fps` pictures a second from a client's
/// connection. The stream carries no times, so its client can only time it by arrival.
public final class MJPEGTestServer: TestServer {
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("mjpeg/mjpeg-server.py").path

    public let folder: String
    public let fps: Int
    public private(set) var process: ServerProcess
    public private(set) var port: Int

    /// Starts the server on `folder`'s JPEGs and returns once it accepts connections (its READY line).
    public init(folder: String, fps: Int = 15) throws {
        self.folder = folder
        self.fps = fps
        (process, port) = try Self.launch(folder: folder, fps: fps, port: 0)
    }

    public func restart() throws {
        process.stop()
        (process, port) = try Self.launch(folder: folder, fps: fps, port: port)
    }

    public var url: String { "http://127.0.0.1:\(port)/cam.mjpg" }

    private static func launch(folder: String, fps: Int, port: Int) throws -> (ServerProcess, Int) {
        let (process, line) = try ServerProcess.announcing(RTSPTestServer.python, [script, "--folder", folder, "--fps", "\(fps)",
                                                                                   "--port", "\(port)", "--parent", "\(getpid())"]) { _ in true }
        guard line.hasPrefix("READY http://127.0.0.1:"),
              let bound = line.split(separator: ":").last?.split(separator: "/").first.flatMap({ Int($0) }) else {
            process.kill()
            throw ServerFailure("mjpeg-server.py did not start: \(process.logTail())")
        }
        return (process, bound)
    }
}
