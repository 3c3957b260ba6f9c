import Foundation
import Glibc
import RecCore

extension SessionFolder {
    /// The live page's token, 64 hex digits, mode 0600 (see docs/LIVE.md).
    package var httpTokenPath: String { path + "/http-token" }
    /// The live page's address without the token (`http://127.0.0.1:8080/`), mode 0600.
    package var httpAddressPath: String { path + "/http-address" }

    /// Writes both files 0600 before anyone can read them.
    package func writeLive(address: String, token: String) throws(RecError) {
        for (file, text) in [(httpTokenPath, token), (httpAddressPath, address)] {
            let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd < 0 { throw .runtime("cannot create \(file)", cause: "open: \(errorText(errno))") }
            let bytes = Array((text + "\n").utf8)
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            close(fd)
            if written != bytes.count { throw .runtime("cannot write \(file)", cause: "write: \(errorText(errno))") }
        }
    }

    /// The page's URL with the token, if the session serves one.
    package func readLiveURL() -> String? {
        func read(_ p: String) -> String? {
            FileManager.default.contents(atPath: p).map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        guard let address = read(httpAddressPath), let token = read(httpTokenPath), !token.isEmpty else { return nil }
        return address + "?token=" + token
    }
}
