/// File names in the order a person expects: runs of digits compare as numbers ("track2" before "track10"),
/// letters without regard to case, as Finder and Rockbox's "natural sort" list them.
enum NaturalOrder {
    static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let left = chunks(a), right = chunks(b)
        for (x, y) in zip(left, right) where x != y {
            switch (x, y) {
            case (.number(let m, let mText), .number(let n, let nText)):
                return m != n ? m < n : mText < nText
            case (.number, .text): return true
            case (.text, .number): return false
            case (.text(let s), .text(let t)):
                return s.lowercased() != t.lowercased() ? s.lowercased() < t.lowercased() : s < t
            }
        }
        return left.count != right.count ? left.count < right.count : a < b
    }

    private enum Chunk: Equatable {
        /// The value (saturated for absurdly long runs) and the digits as written ("007" after "7").
        case number(UInt64, String)
        case text(String)
    }

    private static func chunks(_ name: String) -> [Chunk] {
        var result: [Chunk] = []
        var current = ""
        var inDigits = false
        func close() {
            guard !current.isEmpty else { return }
            if inDigits {
                let value = current.reduce(UInt64(0)) { total, digit in
                    let (times, o1) = total.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times.addingReportingOverflow(UInt64(digit.wholeNumberValue ?? 0))
                    return o1 || o2 ? .max : sum
                }
                result.append(.number(value, current))
            } else {
                result.append(.text(current))
            }
            current = ""
        }
        for character in name {
            let digit = character.isASCII && character.isNumber
            if digit != inDigits { close(); inDigits = digit }
            current.append(character)
        }
        close()
        return result
    }
}
