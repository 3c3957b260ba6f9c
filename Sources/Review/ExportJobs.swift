import Foundation
import RecCore
import SessionControl
import Synchronization

/// The review page's exports: each one saves the same wall-clock range from every chosen session
/// (the control protocol's `save` with Unix times, as `rec save --session a,b` does) into a
/// folder of its own, then writes `manifest.json` beside the clips. One thread per export; a
/// range that reaches into the future waits in the sessions' own saves.
final class ExportJobs: Sendable {
    enum State: String, Sendable { case saving, done, failed }

    struct Job: Sendable {
        let id: Int
        let request: ExportRequest
        let folder: String
        var state: State
        var manifest: ExportManifest?
        var error: String?
    }

    let root: String
    let runtime: RuntimeDirectory
    private let jobs = Mutex<[Job]>([])
    private let nextID = Atomic<Int>(1)
    /// Broadcast when an export ends, for `wait`.
    private let ended = NSCondition()
    /// Only the newest are listed; their folders stay on disk.
    static let kept = 100

    init(root: String, runtime: RuntimeDirectory) {
        self.root = root
        self.runtime = runtime
    }

    var list: [Job] { jobs.withLock { $0 } }

    func job(_ id: Int) -> Job? { jobs.withLock { $0.first { $0.id == id } } }

    /// The export once it has ended, or as it is after `seconds`.
    func wait(_ id: Int, seconds: Double) -> Job? {
        let deadline = Date().addingTimeInterval(seconds)
        ended.lock()
        defer { ended.unlock() }
        while let job = job(id), job.state == .saving, ended.wait(until: deadline) {}
        return job(id)
    }

    /// Checks the request, makes the bundle's folder and starts saving; returns at once.
    func start(_ request: ExportRequest, now: Double = Date().timeIntervalSince1970) throws(RecError) -> Job {
        try request.validate(now: now)
        let name = request.folderName(utcStart: Self.utc(request.from))
        var folder = root + "/" + name
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            var n = 2
            while FileManager.default.fileExists(atPath: folder) {
                folder = root + "/" + name + "-\(n)"
                n += 1
            }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        } catch {
            throw .runtime("cannot make the export folder \(folder); check that \(root) is writable (rec review --exports DIR)",
                           cause: "\(error)")
        }
        let job = Job(id: nextID.wrappingAdd(1, ordering: .relaxed).oldValue, request: request, folder: folder, state: .saving)
        jobs.withLock { list in
            list.append(job)
            if list.count > Self.kept { list.removeFirst(list.count - Self.kept) }
        }
        let thread = Thread { [self] in run(job) }
        thread.name = "rec.export"
        thread.start()
        return job
    }

    private func run(_ job: Job) {
        let request = job.request
        let files = request.cameras.map { $0 + "." + extensionOfRecording($0) }
        let requests = zip(request.cameras, files).map { name, file in
            (session: name, command: ControlCommand.save(SaveRequest(from: .unix(request.from), to: .unix(request.to), output: job.folder + "/" + file)))
        }
        let ahead = max(0, request.to - Date().timeIntervalSince1970)
        let answers = ControlClient.sendEach(requests, runtime: runtime, timeout: .seconds(Int(ahead.rounded(.up)) + 60))
        var cameras: [ExportManifest.Camera] = []
        for (index, answer) in answers.enumerated() {
            let name = request.cameras[index]
            do throws(RecError) {
                guard case .save(let report) = try answer.get().get() else { throw .runtime("the session answered with something else") }
                var camera = ExportManifest.Camera(name: name, file: files[index], frames: report.frames)
                if let requested = report.requested, let saved = report.saved {
                    let zero = request.from - requested.from
                    camera.savedFrom = zero + saved.from
                    camera.savedTo = zero + saved.to
                    camera.sessionFrom = saved.from
                    camera.sessionTo = saved.to
                }
                cameras.append(camera)
            } catch {
                cameras.append(ExportManifest.Camera(name: name, error: error.message))
            }
        }
        let manifest = ExportManifest(from: request.from, to: request.to, fromText: Self.utc(request.from), toText: Self.utc(request.to),
                                      cameras: cameras)
        var writeError: String?
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            try encoder.encode(manifest).write(to: URL(fileURLWithPath: job.folder + "/manifest.json"))
        } catch {
            writeError = "cannot write manifest.json: \(error)"
        }
        let failed = manifest.failed
        jobs.withLock { list in
            guard let i = list.firstIndex(where: { $0.id == job.id }) else { return }
            list[i].manifest = manifest
            list[i].state = failed.isEmpty && writeError == nil ? .done : .failed
            list[i].error = writeError ?? (failed.isEmpty ? nil : "\(failed.count) of \(cameras.count) cameras did not save: \(failed.joined(separator: ", "))")
        }
        ended.lock()
        ended.broadcast()
        ended.unlock()
    }

    /// The session's recording's own container (a copied camera's sound may need Matroska), MP4
    /// for a session that keeps only its ring.
    private func extensionOfRecording(_ session: String) -> String {
        guard case .status(let status)? = try? ControlClient.send(.status(), session: session, runtime: runtime).get(),
              let output = status.output else { return "mp4" }
        let ext = (output as NSString).pathExtension.lowercased()
        return ["mp4", "mov", "mkv", "ts", "webm"].contains(ext) ? ext : "mp4"
    }

    /// `2026-12-06T02:15:30.250Z`.
    static func utc(_ unix: Double) -> String {
        let whole = unix.rounded(.down)
        let text = ISOTimeText.utc(Date(timeIntervalSince1970: whole))
        let ms = Int(((unix - whole) * 1000).rounded())
        return String(text.dropLast()) + "." + String(format: "%03d", min(ms, 999)) + "Z"
    }
}
