import Codec8_24

/// How a captured period's channels become the input queue's: equal counts copy; stereo to mono averages
/// the pair (rounded half away from zero, as `appliance render` folds stereo files, so a full-scale pair
/// stays in range); mono fans out to both channels; a wider capture keeps its first channels by position.
/// Never allocates, so the render thread may call it.
enum InputChannelMap {
    static func map(_ source: UnsafePointer<Fixed824>, channels ins: Int,
                    into destination: UnsafeMutablePointer<Fixed824>, channels outs: Int, frames: Int) {
        if ins == outs {
            destination.update(from: source, count: frames &* ins)
        } else if ins == 2 && outs == 1 {
            for f in 0..<frames {
                let sum = Int64(source[2 &* f].raw) &+ Int64(source[2 &* f &+ 1].raw)
                destination[f] = Fixed824(raw: Int32(truncatingIfNeeded: (sum &+ (sum >= 0 ? 1 : 0)) &>> 1))
            }
        } else if ins == 1 {
            for f in 0..<frames { for c in 0..<outs { destination[f &* outs &+ c] = source[f] } }
        } else {
            for f in 0..<frames {
                for c in 0..<outs { destination[f &* outs &+ c] = c < ins ? source[f &* ins &+ c] : .zero }
            }
        }
    }
}
