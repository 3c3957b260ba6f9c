import CProcess
import Foundation
import Glibc
import RecCore

/// Runs one `rec` command on each of several boxes at once, a thread each: on this box as a child
/// `rec`, on the others through `ssh`, whose login runs the box's own `rec`. A box that does not
/// answer by the deadline is killed off and reported; it holds up no other.
struct BoxRunner {
    /// What a box's rec said: its exit status, standard output and error; for a command that
    /// writes files, the local folder its files (and its output, as `report.json`) came back to.
    struct Answer {
        var status: Int32
        var output: Data
        var error: String
        var folder: String?

        /// The message of a failed rec (`rec: …` on its standard error), or the status.
        var failure: String {
            error.split(separator: "\n").last { $0.hasPrefix("rec: ") }.map { String($0.dropFirst(5)) }
                ?? error.split(whereSeparator: \.isNewline).last.map(String.init) ?? "rec exited with status \(status)"
        }
    }

    /// One box's job: `arguments` for its rec; with `folder`, a command that writes files whose
    /// outputs are `RemoteCommand.Word.inFolder` names, sent back into that local folder.
    struct Job {
        var box: Box
        var words: [RemoteCommand.Word]
        var folder: String?

        init(box: Box, arguments: [String]) {
            self.box = box
            words = arguments.map(RemoteCommand.Word.literal)
        }

        init(box: Box, words: [RemoteCommand.Word], folder: String) {
            self.box = box
            self.words = words
            self.folder = folder
        }
    }

    var environment: [String: String]
    /// How long connecting (banner exchange included) may take, in seconds.
    var connectTimeout: Int
    /// How long a box may take in all: connecting, its rec, sending files back.
    var timeout: Duration

    /// Runs every job at once; the answers in the order of `jobs`.
    func run(_ jobs: [Job]) -> [Result<Answer, RecError>] {
        let deadline = ContinuousClock.now + timeout
        // Each job ends by the deadline (its programs are killed there); a second more is slack.
        let (seconds, attoseconds) = timeout.components
        let answers = EachOnAThread.run(jobs.count, name: "rec-box", limit: Double(seconds) + Double(attoseconds) / 1e18 + 1) { index in
            let result: Result<Answer, RecError>
            do throws(RecError) {
                result = .success(try self.run(jobs[index], deadline: deadline))
            } catch {
                result = .failure(error)
            }
            return result
        }
        return answers.enumerated().map { index, result in
            result ?? .failure(.runtime("\(jobs[index].box.display) did not answer within \(timeout)"))
        }
    }

    private func run(_ job: Job, deadline: ContinuousClock.Instant) throws(RecError) -> Answer {
        switch job.box {
        case .local:
            // This box: rec itself, told not to look further (`--host local`), writing where asked.
            let words = job.words.map { word -> String in
                switch word {
                case .literal(let text): text
                case .inFolder(let name): (job.folder ?? ".") + "/" + name
                }
            }
            let outcome = try Subprocess(Self.ownExecutable, words).finish(deadline: deadline)
            guard let status = outcome.status else {
                throw .runtime("this box's rec did not answer within \(timeout)")
            }
            if let folder = job.folder {
                try? outcome.output.write(to: URL(fileURLWithPath: folder + "/" + RemoteCommand.reportName))
            }
            return Answer(status: status, output: outcome.output, error: outcome.error, folder: job.folder)
        case .remote(let host):
            let program = RemoteCommand.program(environment: environment)
            let command = RemoteCommand(program: program, job.words)
            let line = job.folder == nil ? command.shellLine : command.folderShellLine
            let config = environment[RemoteCommand.configVariable].flatMap { $0.isEmpty ? nil : $0 }
            let ssh = RemoteCommand.sshArguments(host, line: line, connectTimeout: connectTimeout, config: config)
            let outcome: Subprocess.Outcome
            var report = Data()
            if let folder = job.folder {
                outcome = try Self.pipeline(ssh, into: folder, deadline: deadline)
                report = FileManager.default.contents(atPath: folder + "/" + RemoteCommand.reportName) ?? Data()
            } else {
                outcome = try Subprocess("ssh", ssh).finish(deadline: deadline)
                report = outcome.output
            }
            let run = RemoteFailure.Run(status: outcome.status, standardError: outcome.error, timeout: timeout,
                                        connectTimeout: .seconds(connectTimeout))
            if let error = RemoteFailure.error(run, host: host, program: program), run.status == nil || [255, 127, 126].contains(run.status) {
                throw error
            }
            return Answer(status: outcome.status ?? 1, output: report, error: outcome.error, folder: job.folder)
        }
    }

    /// `ssh … | tar -x -C folder`: the box's folder unpacked here. ssh's outcome, with tar's
    /// complaint added to its standard error if tar failed.
    private static func pipeline(_ ssh: [String], into folder: String, deadline: ContinuousClock.Instant) throws(RecError) -> Subprocess.Outcome {
        var ends: [Int32] = [-1, -1]
        guard cprocess_pipe_cloexec(&ends) == 0 else { throw .runtime("cannot make a pipe: \(String(cString: strerror(errno)))") }
        let tar: Subprocess, client: Subprocess
        do {
            defer { close(ends[0]) }
            do throws(RecError) {
                tar = try Subprocess("tar", ["-x", "-f", "-", "-C", folder, "--no-same-owner", "--no-same-permissions"], input: ends[0])
            } catch {
                close(ends[1])
                throw error
            }
            defer { close(ends[1]) }
            client = try Subprocess("ssh", ssh, output: ends[1])
        }
        var outcome = client.finish(deadline: deadline)
        let unpacked = tar.finish(deadline: deadline)
        if outcome.status != nil, unpacked.status != 0 {
            outcome.error += "\nrec: the files did not come back whole (tar: \(unpacked.error.trimmingCharacters(in: .whitespacesAndNewlines)))"
            if outcome.status == 0 { outcome.status = 1 }
        }
        return outcome
    }

    /// This program, to run for this box (rec, or rec-engine when that is what runs).
    static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
