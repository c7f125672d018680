/// Finds the known word a typo was meant to be ("adress" -> "address"), for "did you mean" hints.
enum NearMatch {
    /// The closest of `candidates` within an edit distance of 2 (1 for words of up to 4 letters), if any.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = word.count <= 4 ? 1 : 2
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Levenshtein distance, with a swap of two neighbours counted as one edit (Damerau's "optimal string
    /// alignment"), since "adrdess" is one slip of the fingers.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, table[i - 2][j - 2] + 1) }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }
}
