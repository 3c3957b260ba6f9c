/// What the live stream carries: the pictures, and the sound when the session has a sound a
/// browser plays from fragmented MP4, with the Media Source Extensions type that names both.
/// Pure: the live fan-out and the HTTP answers decide with it from the encoders' codecs.
package struct LiveTracks: Sendable, Equatable {
    /// RFC 6381 names: `avc1.64001F`, and `mp4a.40.2` or `opus` when sound is carried.
    package var video: String
    package var sound: String?
    /// Why the session's sound is not carried (its codec, or it failed), for status.
    package var soundNote: String?

    package init(video: String, sound: String? = nil, soundNote: String? = nil) {
        self.video = video
        self.sound = sound
        self.soundNote = soundNote
    }

    /// The session's sound, as the live stream sees it.
    package enum Sound: Sendable, Equatable {
        /// The session records no sound.
        case none
        /// The sound encoder is not running yet.
        case opening
        /// The sound encoder's codec and profile.
        case running(codec: Codec, profile: Int?)
        /// The sound failed or its source ended: the live stream goes on with pictures only.
        case ended
    }

    /// nil while it cannot be decided yet (the sound encoder is still opening).
    package static func choose(video: String, sound: Sound) -> LiveTracks? {
        switch sound {
        case .none: return LiveTracks(video: video)
        case .opening: return nil
        case .ended: return LiveTracks(video: video, soundNote: "the sound ended (rec status says why); the live stream carries the pictures only")
        case .running(let codec, let profile):
            guard let name = CodecString.sound(codec: codec, profile: profile) else {
                return LiveTracks(video: video, soundNote: "\(codec) sound cannot be played live in a browser (AAC and Opus can); "
                                  + "the live stream carries the pictures only, recordings and clips keep the sound")
            }
            return LiveTracks(video: video, sound: name)
        }
    }

    /// `video/mp4; codecs="avc1.64001F, mp4a.40.2"`, for `MediaSource.addSourceBuffer`.
    package var mimeType: String {
        "video/mp4; codecs=\"" + ([video] + (sound.map { [$0] } ?? [])).joined(separator: ", ") + "\""
    }
}
