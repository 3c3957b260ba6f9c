/// Finds the valid name nearest to a mistyped one, for "did you mean '--source'?".
enum NameSuggestion {
    /// The candidate nearest to `input` by edit distance, or the only candidate that starts with
    /// it; `nil` when nothing is close enough to be a plausible typo.
    static func nearest(to input: String, in candidates: [String]) -> String? {
        let prefixed = candidates.filter { $0.hasPrefix(input) }
        if prefixed.count == 1, !input.isEmpty { return prefixed[0] }
        let scored = candidates.map { (name: $0, distance: editDistance(input, $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        let limit = max(1, min(3, best.name.count / 2))
        return best.distance <= limit ? best.name : nil
    }

    /// The Levenshtein distance: insertions, deletions and substitutions of single characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }

    /// "; did you mean '--source'?" (with `prefix` "--") or "" when nothing is near.
    static func hint(for input: String, in candidates: [String], prefix: String = "") -> String {
        nearest(to: input, in: candidates).map { "; did you mean '\(prefix)\($0)'?" } ?? ""
    }
}
