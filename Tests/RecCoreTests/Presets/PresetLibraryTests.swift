import Testing
@testable import RecCore

@Suite("Preset library")
struct PresetLibraryTests {
    let env = ["HOME": "/home/me"]
    let dir = "/home/me/.config/rec/presets"

    @Test(arguments: BuiltinPresets.names)
    func everyBuiltinParsesAndPrintsBackTheSame(name: String) throws {
        let text = try #require(BuiltinPresets.json[name])
        let preset = try Preset.parse(text, name: name, origin: "built-in")
        #expect(!preset.description.isEmpty && !preset.description.contains("\n"))
        // A preset with a base prints its effective settings, so only base-less ones round-trip as text.
        if hasBase(text) {
            #expect(try Preset.parse(preset.jsonText, name: name, origin: "built-in") == preset)
        } else {
            #expect(preset.jsonText == text)
        }
    }

    @Test func builtinsAreTheListedOnes() throws {
        #expect(try PresetLibrary.builtins().names == BuiltinPresets.names.sorted())
        #expect(BuiltinPresets.names.count == BuiltinPresets.json.count)
    }

    @Test(arguments: [
        (["HOME": "/home/me"], "/home/me/.config/rec/presets"),
        (["HOME": "/home/me/", "XDG_CONFIG_HOME": "/cfg/"], "/cfg/rec/presets"),
        (["HOME": "/home/me", "XDG_CONFIG_HOME": "relative"], "/home/me/.config/rec/presets"),
    ])
    func userDirectoryFollowsXDG(environment: [String: String], expected: String) {
        #expect(PresetLibrary.userDirectory(environment: environment) == expected)
    }

    @Test func userPresetsAddAndOverrideBuiltinsByFileName() throws {
        let files = PresetFiles.inMemory([
            "\(dir)/default.json": #"{"description": "mine", "container": "mkv", "encoder": "libx264"}"#,
            "\(dir)/tiny.json": #"{"base": "small", "size": "640x360"}"#,
            "\(dir)/notes.txt": "ignored",
            "/elsewhere/other.json": #"{"container": "mkv"}"#,
        ])
        let library = try PresetLibrary.load(environment: env, files: files)
        #expect(library.names == (BuiltinPresets.names + ["tiny"]).sorted())
        let overridden = try library.entry(named: "default")
        #expect(overridden.preset.container == .mkv)
        #expect(overridden.source == .user(path: "\(dir)/default.json", overridesBuiltin: true))
        #expect(try library.entry(named: "tiny").preset.encoder == "libvpx-vp9")
        #expect(library.listingText.contains("default      mine [user: \(dir)/default.json, overrides built-in]\n"))
        let small = try library.entry(named: "small").preset.description
        #expect(library.listingText.contains("tiny         \(small) [user: \(dir)/tiny.json]\n"))
        #expect(library.listingText.hasSuffix("User presets: \(dir)/NAME.json (add or override; `rec presets show NAME` prints one to copy).\n"))
    }

    @Test func aBadUserPresetFailsTheLoadNamingItsFile() {
        let files = PresetFiles.inMemory(["\(dir)/x.json": #"{"container": "mp4", "encoder": "ffv1"}"#])
        #expect(throws: RecError.usage(
            #"preset 'x' (\#(dir)/x.json): mp4 cannot hold ffv1 (encoder ffv1); use container "mov" or "mkv""#,
            location: "\(dir)/x.json")) {
            try PresetLibrary.load(environment: env, files: files)
        }
    }

    @Test func noHomeMeansBuiltinsOnly() throws {
        let library = try PresetLibrary.load(environment: [:], files: .inMemory([:]))
        #expect(library.userDirectory == nil && library.names == BuiltinPresets.names.sorted())
    }

    @Test func presetArgumentIsAPathWhenItHasASlashOrEndsInJSON() throws {
        let files = PresetFiles.inMemory(["./clip.json": #"{"base": "quality", "crf": 16}"#, "clip.json": #"{"base": "mjpeg"}"#])
        let library = try PresetLibrary.builtins()
        let entry = try library.resolve("./clip.json", files: files)
        #expect(entry.preset.name == "clip" && entry.preset.rateControl == .crf(16) && entry.source == .file(path: "./clip.json"))
        #expect(try library.resolve("clip.json", files: files).preset.encoder == "mjpeg")
        #expect(try library.resolve("lossless", files: files).preset.encoder == "ffv1")
        #expect(throws: RecError.usage("cannot read preset file /nope/x.json; check the path and its permissions", location: "/nope/x.json")) {
            try library.resolve("/nope/x.json", files: files)
        }
    }

    @Test func unknownNameListsTheAvailableOnes() {
        #expect {
            try PresetLibrary.builtins().entry(named: "qualty")
        } throws: { error in
            (error as? RecError)?.message == "unknown preset 'qualty'; did you mean 'quality'? available: camera-copy, default, lossless, mjpeg, nvenc, pi, quality, sepia, small, vaapi (or give a path to a .json file)"
        }
    }

    @Test func showPrintsTheSourceThenTheEffectiveJSON() throws {
        let entry = try PresetLibrary.builtins().entry(named: "sepia")
        let text = PresetLibrary.showText(entry)
        #expect(text.hasPrefix("// sepia: built-in\n{\n  \"description\": \"The default H.264 with a sepia look"))
        #expect(text.contains("\"encoder\": \"libx264\"") && text.contains("\"filter\": \"colorchannelmixer="))
        let user = PresetLibrary.Entry(preset: entry.preset, source: .user(path: "/u/sepia.json", overridesBuiltin: true))
        #expect(PresetLibrary.showText(user).hasPrefix("// sepia: /u/sepia.json (overrides the built-in)\n{"))
    }
}

private func hasBase(_ text: String) -> Bool { (try? JSONParser.parse(text))?["base"] != nil }
