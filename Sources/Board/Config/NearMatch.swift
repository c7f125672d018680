/// Finds the known word a typo was meant to be ("adress" -> "address"), for "did you mean" hints.
///
/// The work is bounded by the candidates, not by the word: a word whose length differs from a candidate's by
/// more than the limit is that many edits away at least, so it is skipped before any table is built (fuzzing fed
/// a 256 KiB key, and a table per candidate of the key's length took 620 MB).
public enum NearMatch {
    /// The closest of `candidates` within an edit distance of 2 (1 for words of up to 4 letters), if any.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = word.count <= 4 ? 1 : 2
        let longest = candidates.map(\.count).max() ?? 0
        guard word.count <= longest + limit else { return nil }
        let lowered = Array(word.lowercased())
        var best: (String, Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            guard abs(other.count - lowered.count) <= limit else { continue }
            let distance = editDistance(lowered, other)
            if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Levenshtein distance, with a swap of two neighbours counted as one edit (Damerau's "optimal string
    /// alignment"), since "adrdess" is one slip of the fingers.
    static func editDistance(_ a: String, _ b: String) -> Int { editDistance(Array(a), Array(b)) }

    /// The same on characters, keeping three rows of the table (the swap looks two rows back).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, twoBack[j - 2] + 1) }
                current[j] = value
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }
}
