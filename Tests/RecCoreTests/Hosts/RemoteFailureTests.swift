import Foundation
import RecCore
import Testing

/// What rec says when a box gives no answer, from OpenSSH's own messages (as ssh 9.2 prints them)
/// and the remote command's exit status: each says what to try next.
@Suite struct RemoteFailureTests {
    static let host = RemoteHost(user: "rec", host: "box1", port: 2222)

    static func message(_ status: Int32?, _ text: String) -> RecError? {
        RemoteFailure.error(.init(status: status, standardError: text, timeout: .seconds(5)), host: host, program: "rec")
    }

    @Test(arguments: [
        (Int32(255), "rec@box1: Permission denied (publickey).\r\n", "ssh refused the login to rec@box1:2222: check that 'ssh -p 2222 rec@box1 true' works without a password (set a key up with ssh-copy-id rec@box1"),
        (255, "ssh: Could not resolve hostname box1: Name or service not known\r\n", "unknown host 'box1': check the name, or add it to ~/.ssh/config or /etc/hosts"),
        (255, "Connection timed out during banner exchange\r\nConnection to 127.0.0.1 port 2222 timed out\r\n", "rec@box1:2222 did not answer within 5 s"),
        (255, "ssh: connect to host box1 port 2222: Connection refused\r\n", "rec@box1:2222 refused the connection: is sshd running there on port 2222?"),
        (255, "@@@@@@@@@@@\r\nHost key verification failed.\r\n", "rec@box1:2222's host key is unknown or has changed"),
        (255, "kex_exchange_identification: read: Connection reset by peer\r\n", "ssh to rec@box1:2222 failed: kex_exchange_identification: read: Connection reset by peer"),
        (127, "sh: 1: rec: not found\n", "rec not found on rec@box1:2222 (as 'rec'); install it there, or set REC_REMOTE to its path on the box"),
        (1, "rec: no sessions are running; start one with 'rec start'\n", "rec@box1:2222: no sessions are running; start one with 'rec start'"),
    ])
    func saysWhatToTryNext(status: Int32, text: String, expected: String) throws {
        let error = try #require(Self.message(status, text))
        #expect(error.code == .runtime)
        #expect(error.message.hasPrefix(expected), "\(error.message)")
    }

    @Test func aBoxKilledAtTheDeadlineDidNotAnswer() throws {
        let error = try #require(Self.message(nil, ""))
        #expect(error.message == "rec@box1:2222 did not answer within 5 s; it may be down, stopped or unreachable")
    }

    @Test func successIsNoErrorAndUsageStaysUsage() throws {
        #expect(Self.message(0, "warning: something\n") == nil)
        let usage = try #require(Self.message(64, "rec: no session 'zz' is running (running: a, b); nothing was saved\n"))
        #expect(usage.code == .usage && usage.message == "rec@box1:2222: no session 'zz' is running (running: a, b); nothing was saved")
    }
}

/// `"hosts"` in config.json: the boxes `--all` acts on, checked as `--host` is.
@Suite struct ConfigHostsTests {
    @Test func aListOfHostsIsReadAndChecked() throws {
        let config = try UserConfig.parse(#"{"source": "test", "hosts": ["local", "ssh://rec@box2:2222"]}"#, path: "/c.json")
        #expect(config.hosts == ["local", "ssh://rec@box2:2222"])
        #expect(try BoxList(config.hosts).labels == ["local", "box2"])
        #expect(try UserConfig.parse(#"{"hosts": "box3"}"#, path: "/c.json").hosts == ["box3"])
        #expect(try UserConfig.parse("{}", path: "/c.json").hosts.isEmpty)
    }

    @Test(arguments: [
        ("{\n  \"hosts\": [\"ssh://rec:pw@box\"]\n}", "/c.json:2:3: \"hosts\": ssh://box: put no password in it"),
        ("{\"hosts\": [1]}", "/c.json:1:2: \"hosts\" must list strings"),
        ("{\"hosts\": {\"a\": 1}}", "/c.json:1:2: \"hosts\" must be a list"),
        ("{\"host\": [\"box\"]}", "unknown key \"host\""),
    ])
    func mistakesNameTheirLine(text: String, message: String) {
        #expect {
            _ = try UserConfig.parse(text, path: "/c.json")
        } throws: { error in
            guard let error = error as? RecError else { return false }
            if !error.message.contains(message) { Issue.record("got: \(error.message)") }
            return error.code == .usage && error.message.contains(message) && !error.message.contains("pw@")
        }
    }
}
