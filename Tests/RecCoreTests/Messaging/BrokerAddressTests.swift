import RecCore
import Testing

/// Broker URLs (issue 40): every form rec reads, every error with what to try next, and the rule
/// above all: the password ("s3cr3t" in every case here) never appears in what rec shows.
@Suite struct BrokerAddressTests {
    struct Form: Sendable, CustomTestStringConvertible {
        var input: String
        var redacted: String
        var host: String
        var port: Int
        var user: String? = nil
        var password: String? = nil
        var prefix = ""
        var tls = false
        var caFile: String? = nil
        var insecure = false
        var clientID: String? = nil
        var testDescription: String { input }
    }

    static let forms: [Form] = [
        Form(input: "mqtt://broker.local", redacted: "mqtt://broker.local:1883", host: "broker.local", port: 1883),
        Form(input: "mqtts://broker.local", redacted: "mqtts://broker.local:8883", host: "broker.local", port: 8883, tls: true),
        Form(input: "MQTT://rec:s3cr3t@10.0.0.5:1884/home/cam1/", redacted: "mqtt://rec:***@10.0.0.5:1884/home/cam1",
             host: "10.0.0.5", port: 1884, user: "rec", password: "s3cr3t", prefix: "home/cam1"),
        // Percent-encoded '@', ':' and '/' in the user and password.
        Form(input: "mqtt://r%40c:s3cr3t%3Ax%2Fy@h/p", redacted: "mqtt://r%40c:***@h:1883/p",
             host: "h", port: 1883, user: "r@c", password: "s3cr3t:x/y", prefix: "p"),
        // A bare '@' in the password: the credentials end at the last one.
        Form(input: "mqtt://rec:s3cr3t@x@h", redacted: "mqtt://rec:***@h:1883", host: "h", port: 1883,
             user: "rec", password: "s3cr3t@x"),
        Form(input: "mqtt://rec@h", redacted: "mqtt://rec@h:1883", host: "h", port: 1883, user: "rec"),
        Form(input: "mqtt://[::1]:2883/a%20b", redacted: "mqtt://[::1]:2883/a b", host: "::1", port: 2883, prefix: "a b"),
        Form(input: "mqtts://rec:s3cr3t@h/cams?ca=/etc/rec/ca.crt&insecure&client-id=cam%201",
             redacted: "mqtts://rec:***@h:8883/cams?ca=/etc/rec/ca.crt&insecure&client-id=cam 1", host: "h", port: 8883,
             user: "rec", password: "s3cr3t", prefix: "cams", tls: true, caFile: "/etc/rec/ca.crt", insecure: true,
             clientID: "cam 1"),
        Form(input: "mqtt://h/?client-id=rec-1", redacted: "mqtt://h:1883?client-id=rec-1", host: "h", port: 1883, clientID: "rec-1"),
    ]

    @Test(arguments: forms) func parses(_ form: Form) throws {
        let address = try BrokerAddress.parse(form.input)
        #expect(address.redacted == form.redacted)
        #expect(address.host == form.host)
        #expect(address.port == form.port)
        #expect(address.user == form.user)
        #expect(address.password == form.password)
        #expect(address.prefix == form.prefix)
        #expect(address.usesTLS == form.tls)
        #expect(address.caFile == form.caFile)
        #expect(address.insecure == form.insecure)
        #expect(address.clientID == form.clientID)
        for shown in [address.redacted, String(describing: address), String(reflecting: address), dumped(address)] {
            #expect(!shown.contains("s3cr3t"), "\(shown)")
        }
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var input: String
        /// A piece of the message: what it says to try.
        var says: String
        var testDescription: String { input }
    }

    static let refusals: [Refusal] = [
        Refusal(input: "http://rec:s3cr3t@h", says: "write mqtt://HOST (or mqtts://HOST for TLS)"),
        Refusal(input: "broker.local", says: "write mqtt://HOST"),
        Refusal(input: "mqtt://", says: "names no host"),
        Refusal(input: "mqtt://rec:s3cr3t@:1883", says: "names no host"),
        Refusal(input: "mqtt://h:0", says: "a number from 1 to 65535"),
        Refusal(input: "mqtt://h:99999", says: "a number from 1 to 65535"),
        Refusal(input: "mqtt://h:", says: "or leave it out with its ':'"),
        Refusal(input: "mqtt://fd00::1", says: "write e.g. mqtt://[fd00::1]:1883"),
        Refusal(input: "mqtt://[::1]x", says: "only ':PORT' may follow"),
        Refusal(input: "mqtt://h/home/+/motion", says: "wildcard"),
        Refusal(input: "mqtt://h/home#", says: "'#' after its host"),
        Refusal(input: "mqtt://h/$SYS/x", says: "starts with '$'"),
        Refusal(input: "mqtt://h?ca=/etc/ca.crt", says: "write mqtts://"),
        Refusal(input: "mqtt://h?insecure", says: "write mqtts://"),
        Refusal(input: "mqtts://h?ca=", says: "write ca=/path/to/ca.crt"),
        Refusal(input: "mqtts://h?insecure=no", says: "write 'insecure' alone"),
        Refusal(input: "mqtts://h?cafile=/x", says: "use ca=PATH, insecure or client-id=NAME"),
        Refusal(input: "mqtt://h?client-id=", says: "write client-id=NAME"),
        Refusal(input: "mqtt://h?client-id=a&client-id=b", says: "keep one"),
        Refusal(input: "mqtt://:s3cr3t@h", says: "write mqtt://USER:PASSWORD@HOST"),
        Refusal(input: "mqtt://rec:s3cr3t%zz@h", says: "write a '%' of its own as %25"),
        Refusal(input: "mqtt://rec:s3cr3t@h/a b", says: "write a space as %20"),
        Refusal(input: "mqtt://rec:s3cr3t@h/x@y", says: "'@' after its host"),
    ]

    @Test(arguments: refusals) func refuses(_ refusal: Refusal) {
        let error = #expect(throws: RecError.self) { try BrokerAddress.parse(refusal.input) }
        #expect(error?.code == .usage)
        #expect(error?.message.contains(refusal.says) == true, "\(error?.message ?? "")")
        #expect(error?.description.contains("s3cr3t") == false, "\(error?.description ?? "")")
    }

    @Test func topicsGoUnderThePrefix() throws {
        #expect(try BrokerAddress.parse("mqtt://h/home/cam1").topic("motion") == "home/cam1/motion")
        #expect(try BrokerAddress.parse("mqtt://h").topic("motion") == "motion")
    }

    @Test func scrubbingHidesThePassword() throws {
        let address = try BrokerAddress.parse("mqtt://rec:s3cr3t@h")
        #expect(address.scrubbed("auth s3cr3t failed") == "auth *** failed")
        #expect(try BrokerAddress.parse("mqtt://rec@h").scrubbed("rec s3cr3t") == "rec s3cr3t")
    }

    private func dumped(_ address: BrokerAddress) -> String {
        var text = ""
        dump(address, to: &text)
        return text
    }
}
