/// Which markers and regions a container can hold, so that a conversion keeps what fits and names what it drops
/// instead of clamping or losing it silently.
extension AudioFileType {
    /// Why `marker` cannot be stored in this container, or nil when it can.
    public func markerRefusal(_ marker: AudioFileMarker) -> String? {
        let limit = Int64(UInt32.max)
        if marker.isLoop && (marker.frameLength ?? 0) < 1 { return "a loop must span at least one frame" }
        switch family {
        case .riff:
            // cue points and ltxt lengths are 32-bit frame counts (Microsoft RIFF, "Cue-Points Chunk").
            if marker.framePosition > limit { return "\(self) cue points hold frame positions up to \(limit)" }
            if marker.isLoop, marker.framePosition + (marker.frameLength ?? 0) > limit { return "\(self) loops (smpl) end by frame \(limit)" }
            if let length = marker.frameLength, length > limit { return "\(self) region lengths (ltxt) are at most \(limit) frames" }
            return nil
        case .aiff:
            // AIFF-C spec, Marker Chunk: a marker is an ID, a 32-bit position and a name; no length.
            if marker.frameLength != nil && !marker.isLoop { return "\(self) markers (MARK) have no length, so regions cannot be kept" }
            if marker.framePosition + (marker.frameLength ?? 0) > limit { return "\(self) marker positions are at most \(limit)" }
            return nil
        case .caf:
            return nil   // 'mark' and 'regn' hold Float64 positions
        case .library:
            return "\(self) files keep no markers here"
        }
    }

    /// `markers` split into those this container holds (in order) and those it drops, each with the reason.
    public func storableMarkers(_ markers: [AudioFileMarker]) -> (kept: [AudioFileMarker], dropped: [(marker: AudioFileMarker, reason: String)]) {
        var kept: [AudioFileMarker] = []
        var dropped: [(marker: AudioFileMarker, reason: String)] = []
        var marks = 0, loops = 0
        for marker in markers {
            let needs = marker.isLoop ? 2 : 1   // an AIFF loop is a begin and an end marker
            if let reason = markerRefusal(marker) {
                dropped.append((marker, reason))
            } else if family == .aiff && marker.isLoop && loops == 2 {
                dropped.append((marker, "\(self) holds two loops (INST: sustain and release)"))
            } else if family == .aiff && marks + needs > Int(UInt16.max) {
                dropped.append((marker, "\(self) holds at most \(UInt16.max) markers"))   // MARK's count is 16-bit
            } else {
                kept.append(marker)
                marks += needs
                if marker.isLoop { loops += 1 }
            }
        }
        return (kept, dropped)
    }
}
