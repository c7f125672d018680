/// The equalizer split across two threads (as the output chain runs it): the control side designs and
/// allocates a cascade (`prepare`), a lock-free handover carries it over, the render side starts it
/// (`adopt`) and hands the cascades it has finished with back (`oldestRetired` / `dropOldestRetired`), so
/// neither allocation nor a last release, which would free, ever happens on the render side.
///
/// Used this way, `setPreset`/`setCurve` (the single-threaded path, which also releases retired cascades)
/// must not be called.
extension Equalizer {
    /// Control side: the cascade for `curve` at this equalizer's rate and channels, not yet playing.
    /// Records it as `design` (a property only the control side reads and writes).
    func prepare(_ curve: EQCurve) -> BiquadCascade {
        let design = EQDesign(curve: curve, sampleRate: sampleRate)
        self.design = design
        return design.makeCascade(channels: channels)
    }

    /// Render side: whether a new cascade may be adopted now: no crossfade running or waiting, and every
    /// retired cascade handed back (so at most one cascade is ever retired at a time).
    var canAdopt: Bool { outgoing == nil && pending == nil && retiredFirst == nil && retiredSecond == nil }

    /// Render side: starts `cascade` with a crossfade at the next `process`. Requires `canAdopt`.
    func adopt(_ cascade: BiquadCascade) {
        precondition(canAdopt, "adopt only when no crossfade is running or waiting")
        pending = cascade
    }

    /// Render side: the cascade retired longest ago, still held here until `dropOldestRetired`.
    var oldestRetired: BiquadCascade? { retiredFirst ?? retiredSecond }

    /// Render side: forgets `oldestRetired` once something else holds it (so this is never its last release).
    func dropOldestRetired() {
        if retiredFirst != nil { retiredFirst = nil } else { retiredSecond = nil }
    }
}
