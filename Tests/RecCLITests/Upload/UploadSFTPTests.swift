import Foundation
import Testing
import TestServers
import TestPool

/// `--upload` to an SFTP destination: Debian's sshd on loopback (`SSHTestServer`, its own host and
/// user keys) through rclone's SFTP backend, which gives an MD5 the copies are checked against.
@Suite(.blocking) struct UploadSFTPTests {
    @Test func copiesArriveWholeAndTheDestinationGivesTheHashTheyAreCheckedBy() throws {
        let box = try UploadBox()
        let ssh = try SSHTestServer()
        let dest = try box.useSFTP(ssh)
        let r = try box.rec(["record", "--source", "test:320x240@30", "--pace", "off", "--frames", "120",
                             "--segment", "2s", "-o", "X.mkv", "--upload", dest])
        #expect(r.status == 0, "\(r.error)")
        let files = box.local("X-")
        #expect(files.count == 2)
        try box.expectArrivedWhole(files)
        // The destination gives each file's MD5 (rclone runs md5sum over ssh): the copy was held
        // to it, and it is the local file's.
        let listing = try WebDAVTestServer.rclone(["lsjson", "--config", box.path("rclone.conf"), "--stat", "--hash-type", "md5",
                                                   dest + "/" + files[0]])
        let object = try RecFolder.object(listing)
        let md5 = (object["Hashes"] as? [String: String])?["md5"] ?? ""
        let local = try WebDAVTestServer.rclone(["hashsum", "md5", box.path(files[0])])
        #expect(md5.count == 32 && local.hasPrefix(md5), "\(listing) / \(local)")
    }

    @Test func aKilledSSHServerDelaysCopiesAndLosesNone() throws {
        let box = try UploadBox()
        let ssh = try SSHTestServer()
        let dest = try box.useSFTP(ssh)
        try #require(try box.rec(["start", "--source", "test:160x120@30", "--segment", "1s", "-o", "seg.mp4",
                                  "--upload", dest]).status == 0)
        #expect(box.waitForArrival(Array(box.local("seg-").prefix(2))) && box.local("seg-").count >= 3)
        ssh.kill()
        #expect(box.waitForLog("failed"), "\(box.log())")
        let killedAt = box.local("seg-").count
        #expect(box.waitForLocal("seg-", count: killedAt + 2))
        try ssh.restart()
        #expect(box.waitForArrival(Array(box.local("seg-").dropLast())), "\(box.log())")
        try UploadOutageTests.stop(box)
        try box.expectArrivedWhole(box.local("seg-"))
    }
}
