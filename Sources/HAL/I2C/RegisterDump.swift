/// A chip's registers as a person with the datasheet open wants to see them: address, name, value and
/// the named fields decoded, with where each value came from.
public struct RegisterDump: Sendable, CustomStringConvertible {
    /// Where a dumped value came from.
    public enum Source: String, Hashable, Sendable {
        /// Read back from the chip just now.
        case chip
        /// The driver's cache: what it wrote since the last reset, or the reset value. The only source for
        /// a write-only chip.
        case cache
    }

    public struct Entry: Hashable, Sendable {
        public var definition: RegisterDefinition
        /// nil when it could not be known (a volatile or write-only register that was not read).
        public var value: RegisterValue?
        public var source: Source
        /// Why the value is missing or a read failed.
        public var note: String?
    }

    public var entries: [Entry]
    public var valueBits: Int
    public var registerBits: Int

    /// Dumps every register of `map`: read back from the chip when `readBack` and the layout and register
    /// allow it, else from `cache`.
    public init(map: RegisterMap, cache: RegisterCache, layout: RegisterLayout, readBack: Bool) {
        valueBits = layout.valueBits
        registerBits = layout.registerBits
        entries = map.addresses.map { address in
            let definition = map[address]!
            let readable = layout.isReadable && definition.access != .writeOnly
            if readBack && readable {
                do {
                    return Entry(definition: definition, value: try cache.bus.read(address), source: .chip)
                } catch {
                    return Entry(definition: definition, value: cache.cachedValue(address), source: .cache,
                                 note: "read failed: \(error)")
                }
            }
            if definition.access == .writeOnly {
                return Entry(definition: definition, value: nil, source: .cache, note: "write-only: a command, not a state")
            }
            let cached = cache.cachedValue(address)
            return Entry(definition: definition, value: cached, source: .cache,
                         note: cached == nil ? "not cached; read back to see it" : nil)
        }
    }

    /// One line per register:
    /// `R7    0x07  Audio Interface (1)      0x00A  cache  ALRSWAP=0 BCLKINV=0 ... WL=0b10 FORMAT=0b10`;
    /// a paged chip's page-1 register 2 is `P1R2  0x02`.
    public var description: String {
        let nameWidth = entries.map(\.definition.name.count).max() ?? 0
        return entries.map { entry in
            let address = entry.definition.address
            // Past the wire's 8-bit range a register is on a page (page * 256 + register).
            let paged = registerBits == 8 && address > 0xFF
            let label = registerBits == 16 ? "" : paged ? "P\(address >> 8)R\(address & 0xFF)" : "R\(address)"
            let hex = registerBits == 16 ? "0x" + I2CHex.uppercase(address, digits: 4)
                : I2CHex.register(paged ? address & 0xFF : address)
            var line = label.padded(to: 6) + hex.padded(to: registerBits == 16 ? 8 : 6)
                + entry.definition.name.padded(to: nameWidth + 2)
            if let value = entry.value {
                line += I2CHex.value(value, bits: valueBits).padded(to: (valueBits + 3) / 4 + 4)
                    + entry.source.rawValue.padded(to: 7) + entry.definition.describeFields(value)
            } else {
                line += "-".padded(to: (valueBits + 3) / 4 + 4) + entry.source.rawValue.padded(to: 7)
            }
            if let note = entry.note { line += (line.hasSuffix(" ") ? "" : "  ") + "(\(note))" }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}

extension String {
    /// Left-aligned in `width` columns (never cut).
    func padded(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
