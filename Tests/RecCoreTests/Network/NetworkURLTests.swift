import RecCore
import Testing

/// `--source` URLs: every form rec reads, every error, and the one rule above all: the password
/// ("s3cr3t" in every case here) never appears in what rec shows.
@Suite struct NetworkURLTests {
    struct Form: Sendable, CustomTestStringConvertible {
        var input: String
        var address: String
        var redacted: String
        var host: String
        var port: Int?
        var credentials = false
        var transport: NetworkURL.Transport?
        var testDescription: String { input }
    }

    static let forms: [Form] = [
        Form(input: "rtsp://127.0.0.1:8554/live", address: "rtsp://127.0.0.1:8554/live",
             redacted: "rtsp://127.0.0.1:8554/live", host: "127.0.0.1", port: 8554, transport: .tcp),
        Form(input: "rtsp://admin:s3cr3t@cam.local/live", address: "rtsp://admin:s3cr3t@cam.local/live",
             redacted: "rtsp://***@cam.local/live", host: "cam.local", credentials: true, transport: .tcp),
        // Upper-case scheme: libavformat matches protocol names exactly, so it is written lower.
        Form(input: "RTSP://admin:s3cr3t@Cam.Local:554/live", address: "rtsp://admin:s3cr3t@Cam.Local:554/live",
             redacted: "rtsp://***@Cam.Local:554/live", host: "Cam.Local", port: 554, credentials: true, transport: .tcp),
        // Percent-encoded '@' and ':' in the password, IPv6 host, rec's transport key taken out.
        Form(input: "rtsp://admin:s3cr3t%40x%3Ay@[::1]:8554/live?transport=udp",
             address: "rtsp://admin:s3cr3t%40x%3Ay@[::1]:8554/live", redacted: "rtsp://***@[::1]:8554/live",
             host: "::1", port: 8554, credentials: true, transport: .udp),
        // The same characters as they are: the credentials end at the last '@'.
        Form(input: "rtsp://admin:s3cr3t@x:y@10.0.0.2/ch1", address: "rtsp://admin:s3cr3t@x:y@10.0.0.2/ch1",
             redacted: "rtsp://***@10.0.0.2/ch1", host: "10.0.0.2", credentials: true, transport: .tcp),
        Form(input: "rtsps://[fe80::1%25eth0]/s", address: "rtsps://[fe80::1%25eth0]/s", redacted: "rtsps://[fe80::1%25eth0]/s",
             host: "fe80::1%25eth0", transport: .tcp),
        Form(input: "rtsp://cam/live?transport=UDP&channel=1", address: "rtsp://cam/live?channel=1",
             redacted: "rtsp://cam/live?channel=1", host: "cam", transport: .udp),
        Form(input: "rtsp://cam/live?channel=1&transport=tcp&subtype=0", address: "rtsp://cam/live?channel=1&subtype=0",
             redacted: "rtsp://cam/live?channel=1&subtype=0", host: "cam", transport: .tcp),
        Form(input: "rtsp://cam/live?transport=udp&transport=udp", address: "rtsp://cam/live", redacted: "rtsp://cam/live",
             host: "cam", transport: .udp),
        // An empty query, and empty items, mean nothing.
        Form(input: "rtsp://cam/live?", address: "rtsp://cam/live", redacted: "rtsp://cam/live", host: "cam", transport: .tcp),
        Form(input: "rtsp://cam/live?&&transport=udp&", address: "rtsp://cam/live", redacted: "rtsp://cam/live",
             host: "cam", transport: .udp),
        // A fragment stays as written; a transport inside it is not rec's.
        Form(input: "rtsp://cam/live#f", address: "rtsp://cam/live#f", redacted: "rtsp://cam/live#f", host: "cam", transport: .tcp),
        Form(input: "rtsp://cam/live?transport=udp#f", address: "rtsp://cam/live#f", redacted: "rtsp://cam/live#f",
             host: "cam", transport: .udp),
        Form(input: "rtsp://cam/live?a=1#x?transport=udp", address: "rtsp://cam/live?a=1#x?transport=udp",
             redacted: "rtsp://cam/live?a=1#x?transport=udp", host: "cam", transport: .tcp),
        Form(input: "rtsp://cam:554", address: "rtsp://cam:554", redacted: "rtsp://cam:554", host: "cam", port: 554, transport: .tcp),
        Form(input: "rtsp://cam?transport=udp", address: "rtsp://cam", redacted: "rtsp://cam", host: "cam", transport: .udp),
        Form(input: "rtsp://@cam/live", address: "rtsp://@cam/live", redacted: "rtsp://***@cam/live", host: "cam",
             credentials: true, transport: .tcp),
        // `transport` is rec's for RTSP only: elsewhere it is the server's, left as written.
        Form(input: "http://cam/video.mjpg?transport=udp", address: "http://cam/video.mjpg?transport=udp",
             redacted: "http://cam/video.mjpg?transport=udp", host: "cam"),
        Form(input: "srt://cam:9000?streamid=#!::r=live,m=request&passphrase=s3cr3t",
             address: "srt://cam:9000?streamid=#!::r=live,m=request&passphrase=s3cr3t",
             redacted: "srt://cam:9000?streamid=#!::r=live,m=request&passphrase=***", host: "cam", port: 9000),
        Form(input: "rtmp://nvr/bcs/channel0_main.bcs?channel=0&user=admin&password=s3cr3t",
             address: "rtmp://nvr/bcs/channel0_main.bcs?channel=0&user=admin&password=s3cr3t",
             redacted: "rtmp://nvr/bcs/channel0_main.bcs?channel=0&user=admin&password=***", host: "nvr"),
        Form(input: "https://cam:8443/cgi?cmd=GetMJStream&usr=admin&pwd=s3cr3t&Token=s3cr3t",
             address: "https://cam:8443/cgi?cmd=GetMJStream&usr=admin&pwd=s3cr3t&Token=s3cr3t",
             redacted: "https://cam:8443/cgi?cmd=GetMJStream&usr=admin&pwd=***&Token=***", host: "cam", port: 8443),
        Form(input: "rtmps://a.rtmp.youtube.com/live2", address: "rtmps://a.rtmp.youtube.com/live2",
             redacted: "rtmps://a.rtmp.youtube.com/live2", host: "a.rtmp.youtube.com"),
        Form(input: "http://viewer@cam/x.mjpg", address: "http://viewer@cam/x.mjpg", redacted: "http://***@cam/x.mjpg",
             host: "cam", credentials: true),
        Form(input: "rtsp://cam:65535/", address: "rtsp://cam:65535/", redacted: "rtsp://cam:65535/", host: "cam", port: 65_535,
             transport: .tcp),
    ]

    @Test(arguments: forms)
    func everyFormParses(_ form: Form) throws {
        let url = try NetworkURL.parse(form.input)
        #expect(url.address == form.address)
        #expect(url.redacted == form.redacted)
        #expect(url.host == form.host)
        #expect(url.port == form.port)
        #expect(url.hasCredentials == form.credentials)
        #expect(url.transport == form.transport)
        #expect(NetworkURL.isNetwork(form.input))
        #expect(url.authority.hasSuffix(form.port.map { ":\($0)" } ?? ""))
        for shown in [url.redacted, url.description, url.debugDescription, "\(url)", String(reflecting: url), Self.dumped(url)] {
            #expect(!shown.contains("s3cr3t"), "\(shown)")
        }
    }

    static func dumped(_ url: NetworkURL) -> String {
        var text = ""
        dump(url, to: &text)
        return text
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        var input: String
        /// What the message says to try.
        var advice: String
        var testDescription: String { input.debugDescription }
    }

    static let failures: [Failure] = [
        Failure(input: "udp://admin:s3cr3t@cam:1234", advice: "use rtsp://, rtsps://, rtmp://"),
        Failure(input: "rtsp:/admin:s3cr3t@cam/live", advice: "e.g. rtsp://192.168.1.20:554/stream"),
        Failure(input: "rtsp//admin:s3cr3t@cam/live", advice: "is not a camera URL"),
        Failure(input: "rtsp://admin:s3cr3t@cam/live now", advice: "write a space as %20"),
        Failure(input: "rtsp://admin:s3 cr3t@cam/live", advice: "write a space as %20"),
        Failure(input: "rtsp://admin:s3cr3t@cam/live\n", advice: "stray newline"),
        Failure(input: "rtsp://admin:s3/cr3t@cam/live", advice: "as %2F, %3F and %23"),
        Failure(input: "rtsp://admin:s3?cr3t@cam/live", advice: "as %2F, %3F and %23"),
        Failure(input: "rtsp://admin:s3#cr3t@cam/live", advice: "as %2F, %3F and %23"),
        Failure(input: "rtsp://admin:s3/cr3t@cam/live?password=s3cr3t", advice: "as %2F, %3F and %23"),
        Failure(input: "rtsp://cam/a@b?password=s3cr3t", advice: "an '@' anywhere else as %40"),
        Failure(input: "rtsp://admin:s3cr3t@/live", advice: "names no host; write e.g. rtsp://192.168.1.20:554/stream"),
        Failure(input: "rtsp://admin:s3cr3t@:554/live", advice: "names no host"),
        Failure(input: "rtsp://admin:s3cr3t@", advice: "names no host"),
        Failure(input: "rtsp://", advice: "names no host"),
        Failure(input: "rtsp://admin:s3cr3t@[]:554/live", advice: "names no host"),
        Failure(input: "rtsp://admin:s3cr3t@cam:port/live", advice: "a port is a number from 1 to 65535"),
        Failure(input: "rtsp://admin:s3cr3t@cam:0/live", advice: "a port is a number from 1 to 65535"),
        Failure(input: "rtsp://admin:s3cr3t@cam:65536/live", advice: "a port is a number from 1 to 65535"),
        Failure(input: "rtsp://admin:s3cr3t@cam:+80/live", advice: "a port is a number from 1 to 65535"),
        Failure(input: "rtsp://admin:s3cr3t@cam:99999999999999999999/live", advice: "a port is a number from 1 to 65535"),
        Failure(input: "rtsp://admin:s3cr3t@cam:/live", advice: "has a ':' but no port after it"),
        Failure(input: "rtsp://admin:s3cr3t@[::1/live", advice: "does not close it; write e.g. rtsp://[fe80::1]:554/stream"),
        Failure(input: "rtsp://admin:s3cr3t@[::1]8554/live", advice: "only ':PORT' may follow the ']'"),
        Failure(input: "rtsp://admin:s3cr3t@[::1]:x/live", advice: "a port is a number"),
        Failure(input: "rtsp://admin:s3cr3t@::1/live", advice: "write it in brackets, e.g. rtsp://[::1]/stream"),
        Failure(input: "rtsp://admin:s3cr3t@fe80::1:554/live", advice: "write it in brackets"),
        Failure(input: "rtsp://admin:s3cr3t@ca]m/live", advice: "only an IPv6 address is written in brackets"),
        Failure(input: "srt://admin:s3cr3t@cam?streamid=x", advice: "srt:// has no default one; write e.g. srt://192.168.1.20:9000"),
        Failure(input: "srt://cam?passphrase=s3cr3t", advice: "srt:// has no default one"),
        Failure(input: "rtsp://admin:s3cr3t@cam/live?transport=http", advice: "use transport=tcp (the default) or transport=udp"),
        Failure(input: "rtsp://admin:s3cr3t@cam/live?transport", advice: "use transport=tcp (the default) or transport=udp"),
        Failure(input: "rtsp://cam/live?password=s3cr3t&transport=bad", advice: "use transport=tcp"),
        Failure(input: "rtsp://admin:s3cr3t@cam/live?transport=tcp&transport=udp", advice: "keep one of them"),
        Failure(input: "srt://cam:9000?passphrase=s3cr3t&x=a b", advice: "write a space as %20"),
    ]

    @Test(arguments: failures)
    func everyErrorSaysWhatToTryAndHidesThePassword(_ failure: Failure) {
        #expect(throws: RecError.self) { try NetworkURL.parse(failure.input) }
        do {
            _ = try NetworkURL.parse(failure.input)
        } catch {
            #expect(error.code == .usage)
            #expect(error.message.contains(failure.advice), "\(error.message)")
            for shown in [error.message, error.description, "\(error)"] {
                #expect(!shown.contains("s3cr3t") && !shown.contains("cr3t"), "\(shown)")
            }
        }
    }

    @Test func theWrongSchemeIsNotANetworkSource() {
        for text in ["udp://cam:1234", "rtsp:/cam", "rtsp:cam", "file:rtsp://cam/live", "/dev/video0", "test", "", "://cam",
                     "rtp://cam"] {
            #expect(!NetworkURL.isNetwork(text), "\(text)")
        }
        for text in ["rtsp://cam", "RTSPS://cam", "Rtmp://cam", "rtmps://cam", "srt://cam:1", "HTTP://cam", "https://cam"] {
            #expect(NetworkURL.isNetwork(text), "\(text)")
        }
    }

    @Test func eachSchemeHasItsPortAndOnlyRTSPHasATransport() throws {
        for scheme in NetworkURL.Scheme.allCases {
            let url = try NetworkURL.parse("\(scheme.rawValue)://cam:1000/x")
            #expect(url.scheme == scheme && url.port == 1000)
            #expect((url.transport != nil) == scheme.isRTSP)
            #expect(url.with(transport: .udp).transport == (scheme.isRTSP ? .udp : nil))
            #expect(url.with(transport: .udp).address == url.address)
        }
        #expect(NetworkURL.Scheme.rtsp.defaultPort == 554 && NetworkURL.Scheme.srt.defaultPort == nil)
    }

    /// FFmpeg's messages can repeat the URL: `scrubbed` takes the credentials out wherever they
    /// are, as written and percent-decoded, and secret query values too.
    @Test func scrubbedHidesEveryFormOfTheSecrets() throws {
        let url = try NetworkURL.parse("rtsp://admin:s3cr3t%40home@cam/live?channel=1&token=t0k3n")
        let text = "rtsp://admin:s3cr3t%40home@cam/live: 401; auth admin:s3cr3t@home; token t0k3n; channel=1"
        let scrubbed = url.scrubbed(text)
        #expect(!scrubbed.contains("s3cr3t") && !scrubbed.contains("t0k3n"), "\(scrubbed)")
        #expect(scrubbed.contains("channel=1") && scrubbed.contains("401"))
        let plain = try NetworkURL.parse("rtsp://cam/live")
        #expect(plain.scrubbed("Connection refused") == "Connection refused")
    }

    @Test func redactingHidesMoreRatherThanLess() {
        #expect(NetworkURL.redacting("rtsp://admin:s3cr3t@cam/live") == "rtsp://***@cam/live")
        #expect(NetworkURL.redacting("admin:s3cr3t@cam") == "***@cam")
        #expect(NetworkURL.redacting("rtsp://cam/live") == "rtsp://cam/live")
        #expect(NetworkURL.redacting("rtsp://a:b@c/d@e") == "rtsp://***@e")
        #expect(NetworkURL.redacting("srt://h:1?passphrase=x&latency=20") == "srt://h:1?passphrase=***&latency=20")
        #expect(NetworkURL.redacting("http://h/?keyframe=1&key=k&apikey=a") == "http://h/?keyframe=1&key=***&apikey=***")
    }

    /// A password made of the characters that break URLs, around "s3cr3t", in every scheme: it
    /// parses, or fails with a message that does not show it; what parses never shows it.
    @Test func noPasswordEverShows() {
        var random = SeededGenerator(seed: 21)
        let pieces = ["@", ":", "/", "?", "#", "%40", "%2F", "[", "]", " ", "=", "&", "x", "%"]
        let hosts = ["cam", "cam:554", "[::1]:8554", "10.0.0.2", "", "::1", "cam:x"]
        let tails = ["", "/live", "/live?transport=udp", "?a=b#c", "/p?password=s3cr3t"]
        var parsed = 0
        for _ in 0..<3_000 {
            let scheme = NetworkURL.Scheme.allCases.randomElement(using: &random)?.rawValue ?? "rtsp"
            var password = ""
            for _ in 0..<Int.random(in: 0...3, using: &random) { password += pieces.randomElement(using: &random) ?? "" }
            password += "s3cr3t"
            for _ in 0..<Int.random(in: 0...3, using: &random) { password += pieces.randomElement(using: &random) ?? "" }
            let text = "\(scheme)://admin:\(password)@\(hosts.randomElement(using: &random) ?? "")\(tails.randomElement(using: &random) ?? "")"
            do {
                let url = try NetworkURL.parse(text)
                parsed += 1
                #expect(!url.redacted.contains("s3cr3t") && !Self.dumped(url).contains("s3cr3t"), "\(text)")
                #expect(!url.scrubbed("failed: \(text)").contains("s3cr3t"), "\(text)")
            } catch {
                #expect(!error.message.contains("s3cr3t"), "\(text) → \(error.message)")
            }
        }
        #expect(parsed > 100, "the generator makes valid URLs too")
    }
}
