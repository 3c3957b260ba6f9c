import Dispatch
import RecCore
import Synchronization

/// Camera-control requests from the control server's threads to the capture thread, which owns
/// the camera: `submit` queues a request and waits for its answer; the capture thread `serve`s
/// the queue between frames, on the camera's own descriptor. (A second descriptor is not an
/// option: many drivers refuse or ignore controls from a node that is not the one streaming, and
/// libv4l2 keeps its state per descriptor.)
package final class ControlMailbox: Sendable {
    /// One request and its answer: nil settings ask for the current values only.
    final class Job: Sendable {
        let settings: [ControlSetting]?
        let answered = Latch()
        let result = Mutex<Result<[CameraControl], RecError>?>(nil)

        init(_ settings: [ControlSetting]?) { self.settings = settings }

        func answer(_ r: Result<[CameraControl], RecError>) {
            result.withLock { $0 = r }
            answered.release()
        }
    }

    enum Phase: Sendable {
        case starting
        /// Capturing; `controllable` says whether the source has controls, `source` names it.
        case serving(controllable: Bool, source: String)
        case closed
    }

    struct State: Sendable {
        var phase = Phase.starting
        var pending: [Job] = []
    }

    private let state = Mutex(State())

    package init() {}

    /// Sets `settings` (or, when nil, only reads the controls) on the camera and returns the
    /// controls concerned as they now are; gives up after `timeout` seconds if no frame comes
    /// to let the capture thread in.
    package func submit(_ settings: [ControlSetting]?, timeout: Double = 5) throws(RecError) -> [CameraControl] {
        let job = Job(settings)
        let refusal: RecError? = state.withLock { s in
            switch s.phase {
            case .starting: return .runtime("the session's camera is still starting; try again in a moment")
            case .closed: return RecError.runtime("the session's capture has ended, so its camera cannot be controlled; check `rec status`")
                .because(.sessionEnded)
            case .serving(controllable: false, source: let source):
                return .usage("\(source) has no camera controls; controls apply to V4L2 cameras (`rec devices` lists them)")
            case .serving(controllable: true, source: _):
                s.pending.append(job)
                return nil
            }
        }
        if let refusal { throw refusal }
        if !job.answered.wait(until: .after(timeout)) {
            let withdrawn = state.withLock { s in
                guard let i = s.pending.firstIndex(where: { $0 === job }) else { return false }
                s.pending.remove(at: i)
                return true
            }
            if withdrawn {
                throw .runtime("the camera delivered no frame for \(Int(timeout)) s, so the control request could not be applied; check `rec status`")
            }
            job.answered.wait() // the capture thread has it: its answer is moments away
        }
        switch job.result.withLock({ $0 }) {
        case .success(let controls)?: return controls
        case .failure(let error)?: throw error
        case nil: throw .runtime("the control request was released without an answer") // `answer` sets it first
        }
    }

    /// On the capture thread, once the source has started.
    func open(_ controls: (any ControllableSource)?, description: String) {
        state.withLock { $0.phase = .serving(controllable: controls != nil, source: description) }
    }

    /// On the capture thread, between frames: answers every queued request.
    func serve(_ controls: (any ControllableSource)?) {
        let jobs = state.withLock { s in
            defer { s.pending = [] }
            return s.pending
        }
        guard !jobs.isEmpty else { return }
        guard let camera = controls else {
            return jobs.forEach { $0.answer(.failure(.usage("this source has no camera controls"))) }
        }
        for job in jobs {
            do throws(RecError) {
                if let settings = job.settings {
                    job.answer(.success(try camera.applyControls(settings, hint: "")))
                } else {
                    job.answer(.success(try camera.cameraControls()))
                }
            } catch {
                job.answer(.failure(error))
            }
        }
    }

    /// When capture ends: refuses what is queued and every later request.
    func close() {
        let jobs = state.withLock { s in
            defer { s.pending = []; s.phase = .closed }
            return s.pending
        }
        jobs.forEach { $0.answer(.failure(.runtime("the session's capture ended before the control request was applied"))) }
    }
}
