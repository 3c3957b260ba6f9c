import Foundation

extension UserConfig {
    /// Parses and checks a configuration text; every error names `path:line:column` and what to write.
    package static func parse(_ text: String, path: String) throws(RecError) -> UserConfig {
        let parsed: (value: JSONValue, keys: [String: JSONPosition])
        do {
            parsed = try JSONParser.parseLocated(text)
        } catch {
            throw .usage("\(path):\(error.line):\(error.column): \(error.message); fix the configuration file or move it aside",
                         location: path)
        }
        guard case .object(let members) = parsed.value else {
            throw .usage("\(path):1:1: the configuration must be a JSON object such as {\"source\": \"/dev/video0\"}", location: path)
        }
        var config = UserConfig(path: path, exists: true)
        for (key, value) in members {
            let at = parsed.keys[key] ?? JSONPosition(line: 1, column: 1)
            if key == "sessions" {
                guard case .object(let sessions) = value else {
                    throw fail(path, at, "\"sessions\" must be an object of per-session sections, such as {\"garage\": {\"source\": \"/dev/video2\"}}")
                }
                for (name, section) in sessions {
                    let sectionAt = parsed.keys["sessions." + name] ?? at
                    guard case .object(let sectionMembers) = section else {
                        throw fail(path, sectionAt, "session \"\(name)\" must be an object such as {\"source\": \"/dev/video2\"}")
                    }
                    var entries: [String: Entry] = [:]
                    for (k, v) in sectionMembers {
                        let kAt = parsed.keys["sessions.\(name).\(k)"] ?? sectionAt
                        entries[k] = try entry(k, v, path: path, at: kAt)
                    }
                    config.sessions[name] = entries
                }
            } else if key == hostsKey {
                config.hosts = try hosts(value, path: path, at: at)
            } else {
                config.top[key] = try entry(key, value, path: path, at: at)
            }
        }
        return config
    }

    /// `"hosts": ["local", "ssh://rec@box2"]` (or one string): each checked as `--host` checks it.
    private static func hosts(_ value: JSONValue, path: String, at: JSONPosition) throws(RecError) -> [String] {
        let texts: [String]
        switch value {
        case .string(let one): texts = [one]
        case .array(let items):
            var strings: [String] = []
            for item in items {
                guard case .string(let text) = item else {
                    throw fail(path, at, "\"hosts\" must list strings such as [\"local\", \"ssh://rec@box2\"], not \(item.typeName)")
                }
                strings.append(text)
            }
            texts = strings
        default:
            throw fail(path, at, "\"hosts\" must be a list such as [\"local\", \"ssh://rec@box2\"], not \(value.typeName)")
        }
        do throws(RecError) {
            _ = try BoxList(texts)
        } catch {
            throw fail(path, at, "\"hosts\": " + error.message.replacingOccurrences(of: "--host ", with: ""))
        }
        return texts
    }

    private static func entry(_ key: String, _ value: JSONValue, path: String, at: JSONPosition) throws(RecError) -> Entry {
        guard let spec = keys.first(where: { $0.name == key }) else {
            let close = keys.map(\.name).first { $0.replacingOccurrences(of: "-", with: "_") == key || $0.hasPrefix(key) }
            let hint = close.map { "did you mean \"\($0)\"? " } ?? ""
            throw fail(path, at, "unknown key \"\(key)\"; \(hint)valid keys are \(keys.map(\.name).joined(separator: ", ")), \"hosts\" and \"sessions\"")
        }
        let text: String
        switch (spec.kind, value) {
        case (.flag, .bool(let b)): text = b ? "true" : "false"
        case (.flag, _): throw fail(path, at, "\"\(key)\" must be true or false, not \(value.typeName)")
        case (.number, .number(let n)): text = n == n.rounded() && abs(n) < 1e9 ? String(Int(n)) : String(n)
        case (.number, _): throw fail(path, at, "\"\(key)\" must be a number such as 30, not \(value.typeName)")
        case (_, .string(let s)) where !s.allSatisfy(\.isWhitespace): text = s
        case (_, .string): throw fail(path, at, "\"\(key)\" is empty; remove the key or give a value")
        default: throw fail(path, at, "\"\(key)\" must be a string such as \(example(spec.kind)), not \(value.typeName)")
        }
        do {
            switch spec.kind {
            case .time: _ = try TimeParser.duration(text)
            case .bytes: _ = try ByteSize.parse(text)
            case .pattern: _ = try SegmentNaming(path: text)
            default: break
            }
        } catch {
            throw fail(path, at, "\"\(key)\": \(error.message)")
        }
        return Entry(value: text, line: at.line)
    }

    private static func example(_ kind: Key.Kind) -> String {
        switch kind {
        case .time: "\"30s\""
        case .bytes: "\"256M\""
        case .pattern: "\"~/Videos/rec-%Y-%m-%d_%H-%M-%S.mp4\""
        default: "\"/dev/video0\""
        }
    }

    private static func fail(_ path: String, _ at: JSONPosition, _ message: String) -> RecError {
        .usage("\(path):\(at.line):\(at.column): \(message)", location: path)
    }
}
