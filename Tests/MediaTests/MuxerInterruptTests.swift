import Dispatch
import Foundation
import Glibc
import Media
import RecCore
import Synchronization
import Testing
import TestPool

/// A TCP server on 127.0.0.1 that accepts one client, reads `expecting` bytes, says so, and
/// then never answers until `close()`.
final class SilentServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private var client: Int32 = -1
    let heard = DispatchSemaphore(value: 0)

    init(expecting: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { a in
                bind(fd, a, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, a, &length) == 0
            }
        }
        guard bound else { throw RecError.runtime("no test server: errno \(errno)") }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in
            client = accept(listener, nil, nil)
            var buffer = [UInt8](repeating: 0, count: expecting)
            var got = 0
            while got < expecting {
                let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, expecting - got, 0) }
                if n <= 0 { break }
                got += n
            }
            heard.signal()
        }
        thread.start()
    }

    func close() {
        if client >= 0 { Glibc.close(client) }
        Glibc.close(listener)
    }
}

/// A publisher's muxer talks to a server that may go silent: its interrupt flag ends a connect or
/// write that waits on it, at once, instead of leaving the owner's thread blocked.
@Suite(.blocking) struct MuxerInterruptTests {
    /// RTMP's handshake: the client sends C0 and C1 (1 + 1536 bytes), then waits for the server's
    /// S0 and S1, which never come. Setting the flag ends the wait with `AVERROR_EXIT`.
    @Test func interruptEndsAConnectionToASilentServer() throws {
        FFmpegLog.quiet()
        let server = try SilentServer(expecting: 1537)
        defer { server.close() }
        let settings = EncoderSettings(encoder: "libx264", width: 64, height: 64, pixelFormat: .yuv420p)
        let parameters = try VideoEncoder(settings).parameters
        let interrupt = InterruptFlag()
        let result = Mutex<FFmpegError?>(nil)
        let returned = DispatchSemaphore(value: 0)
        let url = "rtmp://127.0.0.1:\(server.port)/live/test"
        let thread = Thread {
            do throws(FFmpegError) {
                _ = try Muxer(path: url, container: "flv", streams: [parameters], interrupt: interrupt)
            } catch {
                result.withLock { $0 = error }
            }
            returned.signal()
        }
        thread.start()
        server.heard.wait()  // the muxer has sent its handshake and waits for the server's
        interrupt.set()
        returned.wait()
        #expect(result.withLock { $0?.code } == FFmpegError.exit)
    }

    /// A camera reader's nap (`ReadPacing`) ends when the flag is set: at once when it already
    /// was, and when another thread sets it midway (else this test would wait ten minutes).
    @Test func aWaitEndsWhenTheFlagIsSet() {
        let interrupt = InterruptFlag()
        #expect(!interrupt.wait(seconds: 0.001))
        let thread = Thread { interrupt.set() }
        thread.start()
        #expect(interrupt.wait(seconds: 600))
        #expect(interrupt.wait(seconds: 600))
    }
}
