/// Finding presets by what people type: case, spaces, hyphens, underscores and "&" do not matter
/// ("hip hop", "HipHop", "hip-hop"; "r&b", "rnb"; "bass-booster").
extension EQPreset {
    /// The preset called `name` (or one of its aliases), tolerant of case and punctuation.
    public static func named(_ name: String) -> EQPreset? {
        let key = normalized(name)
        guard !key.isEmpty else { return nil }
        return all.first { preset in
            normalized(preset.name) == key || preset.aliases.contains { normalized($0) == key }
        }
    }

    /// Presets whose names are close to `name` (small edit distance, or one name containing the other),
    /// best first, for "did you mean" messages.
    public static func closeMatches(to name: String, limit: Int = 3) -> [EQPreset] {
        let key = normalized(name)
        guard !key.isEmpty else { return [] }
        var scored: [(distance: Int, preset: EQPreset)] = []
        for preset in all {
            let candidates = [preset.name] + preset.aliases
            var best = Int.max
            for candidate in candidates {
                let other = normalized(candidate)
                var distance = editDistance(key, other)
                if other.hasPrefix(key) || (key.count >= 3 && other.contains(key)) { distance = Swift.min(distance, 1) }
                best = Swift.min(best, distance)
            }
            let allowed = Swift.max(1, key.count / 3)
            if best <= allowed { scored.append((best, preset)) }
        }
        return scored.sorted { $0.distance < $1.distance }.prefix(limit).map(\.preset)
    }

    /// Lowercased letters and digits only.
    static func normalized(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { scalar in
            (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
        }.map(Character.init))
    }

    /// Levenshtein distance.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
