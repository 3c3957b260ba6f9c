extension PresetLibrary {
    /// What `rec presets` prints: one line per preset, name and description, with user presets
    /// marked, then where user presets live.
    ///
    ///     camera-copy  A camera's MJPEG stored as it comes, …
    ///     default      H.264 in MP4 … [user: /home/me/.config/rec/presets/default.json, overrides built-in]
    package var listingText: String {
        let width = entries.map(\.preset.name.count).max() ?? 0
        var lines = entries.map { entry in
            let name = entry.preset.name.padding(to: width)
            let description = entry.preset.description.isEmpty ? "(no description)" : entry.preset.description
            switch entry.source {
            case .builtin: return "\(name)  \(description)"
            case .user(let path, let overrides):
                return "\(name)  \(description) [user: \(path)\(overrides ? ", overrides built-in" : "")]"
            case .file(let path): return "\(name)  \(description) [file: \(path)]"
            }
        }
        lines.append("")
        if let userDirectory {
            lines.append("User presets: \(userDirectory)/NAME.json (add or override; `rec presets show NAME` prints one to copy).")
        } else {
            lines.append("User presets: none (set HOME or XDG_CONFIG_HOME to use \u{24}XDG_CONFIG_HOME/rec/presets).")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What `rec presets show NAME` prints: a line saying where the preset comes from, then the
    /// effective preset as pretty JSON (any `base` already applied).
    package static func showText(_ entry: Entry) -> String {
        let source: String = switch entry.source {
        case .builtin: "built-in"
        case .user(let path, let overrides): "\(path)\(overrides ? " (overrides the built-in)" : "")"
        case .file(let path): path
        }
        return "// \(entry.preset.name): \(source)\n" + entry.preset.jsonText
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
