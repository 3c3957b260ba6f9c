import RecCore
import Testing

@testable import RecCLI
@testable import RecClient
import TestPool

/// Help output compared with exact text; update these when help changes on purpose.
@Suite("Help output", .blocking)
struct HelpTests {
    static let rootHelp = """
        OVERVIEW: Record video frames and cut frame-exact clips.

        USAGE: rec <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          record                  Record frames from a camera, a test pattern or a file
                                  into a video file.
          trim                    Cut a frame-exact clip out of a recording.
          start                   Start a background session that keeps recent frames
                                  ready for 'rec save'.
          save                    Save frames from a running session's buffer into a
                                  clip.
          stop                    Stop a background session and finish its recording
                                  file.
          status                  Show what a background session is recording and how
                                  much its buffer holds.
          snapshot                Save the latest frame of a running session as a
                                  picture.
          control                 Set or list the camera controls of a running session.
          events                  List the motion events of a session, of every session,
                                  or of a recording's motion index.
          view                    Print the address of a session's live page and open it
                                  in the browser.
          review                  Serve one review page for every session of this box:
                                  live grid, shared timeline, exports.
          presets                 List the encoding presets.
          devices                 List the cameras and the sizes, frame rates and pixel
                                  formats they offer, and the microphones.
          probe                   Say what a network camera's URL offers: its streams,
                                  codecs, size, rate, sound and clock.
          config                  Show the effective settings and where each comes from.
          help                    Show help for a subcommand.

          See 'rec help <subcommand>' for detailed help.

        """

    static let trimHelp = """
        OVERVIEW: Cut a frame-exact clip out of a recording.

        By default the clip holds exactly the frames from --from up to --to in every
        player: rec copies whole groups of pictures and re-encodes only the frames
        before the first copied keyframe and those that depend on a frame at or after
        --to. --edit-list re-encodes nothing in MP4/MOV and hides the extra frames with
        an edit list instead, which mpv 0.35 ignores (it shows them).

        USAGE: rec trim <input> [--from <time>] [--to <time>] [--last <time>]
                        [--output <file>] [--keyframe] [--edit-list] [--reencode]
                        [--preset <name>] [--dry-run] [--force] [--json]

        ARGUMENTS:
          <input>                 The recording to cut.

        OPTIONS:
          --from <time>           Where the clip starts, such as 12s, 1m12.5s or
                                  00:01:12.5.
          --to <time>             Where the clip ends; the frame at this time is not
                                  included.
          --last <time>           Take this much from the end instead of giving --from
                                  and --to.
          -o, --output <file>     The file to write the clip to.
          --keyframe              Start at the keyframe at or before --from and copy
                                  packets without re-encoding.
          --edit-list             In MP4/MOV, copy only and hide the frames outside the
                                  range with an edit list, which not every player
                                  honours.
          --reencode              Re-encode the whole clip instead of copying packets.
          --preset <name>         The encoding preset to use; 'rec presets' lists them.
          --dry-run               Print which frames would be copied or re-encoded, and
                                  write nothing.
          --force                 Overwrite the output file if it exists.
          --json                  Print the result as JSON for scripts.
          -h, --help              Show help information.

        EXAMPLES:
          Cut seconds 12 to 15 of a recording.
            rec trim in.mkv --from 12s --to 15s -o clip.mkv

          Show what the last five seconds would take without writing a file.
            rec trim in.mkv --last 5s --dry-run

        """

    static let presetsShowHelp = """
        OVERVIEW: Show the settings of one encoding preset.

        USAGE: rec presets show <name> [--json]

        ARGUMENTS:
          <name>                  The preset to show, as listed by 'rec presets'.

        OPTIONS:
          --json                  Print the result as JSON for scripts.
          -h, --help              Show help information.

        """

    static let controlHelp = """
        OVERVIEW: Set or list the camera controls of a running session.

        USAGE: rec control [<setting> ...] [--session <name>] [--json]
                           [--host <box> ...]

        ARGUMENTS:
          <setting>               A control to set, as NAME=VALUE (names and ranges as
                                  'rec devices' lists them).

        OPTIONS:
          --session <name>        The name of the background session to talk to.
                                  (default: default)
          --json                  Print the result as JSON for scripts.
          --host <box>            Act on the sessions of this box instead:
                                  ssh://user@box[:port] through ssh, or local for this
                                  one. (can be repeated)
          -h, --help              Show help information.

        EXAMPLES:
          Fix the exposure of the default session.
            rec control auto_exposure=manual exposure_time_absolute=250

          List the session camera's controls and their values.
            rec control --session desk

        """

    @Test("Golden help", arguments: [
        (["--help"], rootHelp), (["-h"], rootHelp), (["help"], rootHelp),
        (["trim", "--help"], trimHelp), (["trim", "in.mkv", "--bogus", "-h"], trimHelp), (["help", "trim"], trimHelp),
        (["presets", "show", "--help"], presetsShowHelp), (["help", "presets", "show"], presetsShowHelp),
        (["control", "--help"], controlHelp), (["help", "control"], controlHelp),
    ])
    func golden(_ arguments: [String], _ expected: String) {
        let outcome = rec(arguments)
        #expect(outcome.output == expected)
        #expect(outcome.error == "")
        #expect(outcome.status == 0)
    }
}
