import CFFmpeg
import Media
import RecCore

/// One sound input `--audio` can record from, as libavdevice lists it.
package struct Microphone: Sendable, Equatable {
    package var backend: DeviceAudioSource.Backend
    /// The backend's name for it: "alsa_input.usb-…analog-stereo", "rec_test.monitor", "hw:CARD=C920,DEV=0".
    package var name: String
    package var description: String
    /// The backend's default input (what `--audio default` records, for pulse).
    package var isDefault: Bool

    package init(backend: DeviceAudioSource.Backend, name: String, description: String, isDefault: Bool) {
        self.backend = backend
        self.name = name
        self.description = description
        self.isDefault = isDefault
    }

    /// The `--audio` value that records it: "pulse:NAME", "alsa:NAME".
    package var audioSpec: String { "\(backend.rawValue):\(name)" }
}

/// What `rec devices` says about sound: the inputs found, and a line for each backend that could
/// not be asked (no sound server running), which is an answer, not a failure.
package struct MicrophoneListing: Sendable, Equatable {
    package var microphones: [Microphone]
    package var notes: [String]

    package init(microphones: [Microphone], notes: [String]) {
        self.microphones = microphones
        self.notes = notes
    }
}

/// Lists sound inputs through libavdevice's `get_device_list` callbacks.
package enum AudioDevices {
    /// The note for a sound server that does not answer.
    package static let noSoundServerNote = "pulse: no sound server is running (PulseAudio or PipeWire); check with `pactl info`"

    /// The sound server's inputs, then ALSA's; a backend that cannot be asked leaves a note.
    package static func list(pulseServer: String? = nil) -> MicrophoneListing {
        var listing = MicrophoneListing(microphones: [], notes: [])
        do {
            listing.microphones += try pulseMicrophones(server: pulseServer)
        } catch {
            listing.notes.append(noSoundServerNote)
        }
        do {
            listing.microphones += try alsaMicrophones()
        } catch {
            listing.notes.append("alsa: cannot list devices (\(error.description))")
        }
        return listing
    }

    /// The sound server's sources (monitors of its outputs included: they record what plays).
    /// Throws when no server answers. The corresponding C function is
    /// `avdevice_list_input_sources` on the `pulse` input.
    package static func pulseMicrophones(server: String? = nil) throws(FFmpegError) -> [Microphone] {
        try inputs(of: .pulse, options: server.map { [("server", $0)] } ?? [])
    }

    /// ALSA's capture PCMs from its name hints: its `default` and those of a sound card
    /// ("hw:CARD=C920,DEV=0", "sysdefault:CARD=PCH", …). The other hints are plugins its
    /// configuration defines (rate converters, up/downmixers, `null`, the `pulse` bridge), not
    /// microphones; `--audio alsa:NAME` still takes any name ALSA knows.
    /// The corresponding C function is `avdevice_list_input_sources` on `alsa`.
    package static func alsaMicrophones() throws(FFmpegError) -> [Microphone] {
        try inputs(of: .alsa, options: []).filter { $0.name == "default" || $0.name.contains("CARD=") }
    }

    /// The error for recording from the sound server when none is running.
    package static func noSoundServer(for name: String, cause: String?) -> RecError {
        .runtime("PulseAudio/PipeWire is not running, so there is no \(name) to record; check with `pactl info`, "
                 + "start it (systemctl --user start pipewire-pulse, or pulseaudio --start), or record without --audio",
                 cause: cause, location: name)
    }

    /// The corresponding C functions are `av_find_input_format`, `avdevice_list_input_sources`
    /// and `avdevice_free_list_devices`.
    private static func inputs(of backend: DeviceAudioSource.Backend, options: [(String, String)]) throws(FFmpegError) -> [Microphone] {
        let library = try AudioDeviceRegistry.registerOnce()
        let operation = "avdevice_list_input_sources(\(backend.rawValue))"
        guard let format = av_find_input_format(backend.rawValue) else {
            throw FFmpegError(code: cffmpeg_averror(ENOSYS), operation: operation)
        }
        var dictionary: OpaquePointer? = nil
        defer { av_dict_free(&dictionary) }
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        var list: UnsafeMutablePointer<AVDeviceInfoList>? = nil
        defer { library.freeListDevices(&list) }
        let result = library.listInputSources(format, nil, dictionary, &list)
        if result < 0 { throw FFmpegError(code: result, operation: operation) }
        guard let list, let devices = list.pointee.devices else { return [] }
        return (0..<Int(list.pointee.nb_devices)).compactMap { i in
            guard let info = devices[i], let name = info.pointee.device_name else { return nil }
            let description = info.pointee.device_description.map { String(cString: $0) } ?? ""
            return Microphone(backend: backend, name: String(cString: name), description: description,
                              isDefault: Int32(i) == list.pointee.default_device)
        }
    }
}
