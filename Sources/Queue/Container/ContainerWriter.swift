/// Where a file's size fields sit, so that periodic commits, closing and `AudioFile.repair` can update them
/// in place without touching the audio.
struct SizeLayout {
    var fileType: AudioFileType
    var format: StreamFormat
    var dataOffset: Int64
    /// The data chunk's size field (WAV/AIFF: 32-bit; CAF: 64-bit).
    var dataSizeField: Int64
    var factField: Int64?
    /// The 36-byte `JUNK` chunk a WAV writer reserves at byte 12, turned into `ds64` past 4 GiB.
    var reservedDS64: Int64?
    var isRF64: Bool
    var commFramesField: Int64?
    var ssndOffset: UInt32 = 0
    /// Whether the reserved chunk is already named `ds64` (false: still the `JUNK` placeholder).
    var reservedIsDS64 = false
}

/// Builds headers and trailing chunks, and rewrites size fields, for the three container families.
enum ContainerWriter {
    static let unknownCAFSize = UInt64(bitPattern: -1)

    // MARK: Headers

    static func header(type: AudioFileType, format: StreamFormat) -> (bytes: [UInt8], layout: SizeLayout) {
        switch type.family {
        case .riff: waveHeader(type: type, format: format)
        case .aiff: aiffHeader(type: type, format: format)
        case .caf: cafHeader(format: format)
        case .library: preconditionFailure("\(type) files are written by their codec library; AudioFile.create routes them there")
        }
    }

    static func waveHeader(type: AudioFileType, format: StreamFormat) -> ([UInt8], SizeLayout) {
        let rf64 = type == .rf64
        var w = FieldWriter()
        w.fourCC(rf64 ? "RF64" : "RIFF"); w.u32le(rf64 ? 0xFFFF_FFFF : 0); w.fourCC("WAVE")
        w.fourCC(rf64 ? "ds64" : "JUNK"); w.u32le(28); w.raw([UInt8](repeating: 0, count: 28))
        let channels = format.channelsPerFrame
        let rate = UInt32(format.sampleRate.rounded())
        var tag: UInt16
        var bits = UInt16(format.bitsPerChannel)
        var extra: [UInt8]? = nil
        switch format.formatID {
        case .linearPCM: tag = format.isFloat ? 3 : 1
        case .aLaw: tag = 6
        case .muLaw: tag = 7
        case .microsoftIMAADPCM:
            tag = 0x11
            bits = 4
            var e = FieldWriter(); e.u16le(UInt16(format.framesPerPacket)); extra = e.bytes
        case .appleIMA4, .flac, .mpegLayer3, .opus, .mpeg4AAC, .appleLossless: tag = 0   // refused before this point
        }
        let extensible = format.isLinearPCM && (channels > 2 || (!format.isFloat && format.bitsPerChannel > 16))
        let blockAlign = UInt16(format.bytesPerPacket)
        let byteRate = UInt32((Double(rate) * Double(format.bytesPerPacket) / Double(format.framesPerPacket)).rounded())
        var fmt = FieldWriter()
        fmt.u16le(extensible ? 0xFFFE : tag); fmt.u16le(UInt16(channels)); fmt.u32le(rate); fmt.u32le(byteRate)
        fmt.u16le(blockAlign); fmt.u16le(bits)
        if extensible {
            fmt.u16le(22); fmt.u16le(bits)
            fmt.u32le(format.channelLayout?.waveChannelMask ?? (channels == 1 ? 0x4 : channels == 2 ? 0x3 : 0))
            fmt.u16le(tag)
            fmt.raw([0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71])
        } else if tag != 1 {
            let e = extra ?? []
            fmt.u16le(UInt16(e.count)); fmt.raw(e)
        }
        w.fourCC("fmt "); w.u32le(UInt32(fmt.bytes.count)); w.raw(fmt.bytes)
        var factField: Int64? = nil
        if tag != 1 {
            w.fourCC("fact"); w.u32le(4); factField = Int64(w.bytes.count); w.u32le(0)
        }
        w.fourCC("data")
        let sizeField = Int64(w.bytes.count)
        w.u32le(rf64 ? 0xFFFF_FFFF : 0)
        let layout = SizeLayout(fileType: type, format: format, dataOffset: Int64(w.bytes.count), dataSizeField: sizeField,
                                factField: factField, reservedDS64: 12, isRF64: rf64, reservedIsDS64: rf64)
        return (w.bytes, layout)
    }

    static func aiffCompression(_ format: StreamFormat) -> (code: String, name: String) {
        switch format.formatID {
        case .linearPCM:
            if format.isFloat { return format.bitsPerChannel == 32 ? ("fl32", "32-bit floating point") : ("fl64", "64-bit floating point") }
            return format.isBigEndian || format.bitsPerChannel == 8 ? ("NONE", "not compressed") : ("sowt", "")
        case .muLaw: return ("ulaw", "uLaw 2:1")
        case .aLaw: return ("alaw", "aLaw 2:1")
        case .appleIMA4: return ("ima4", "IMA 4:1")
        case .microsoftIMAADPCM, .flac, .mpegLayer3, .opus, .mpeg4AAC, .appleLossless: return ("????", "")   // refused before
        }
    }

    static func aiffHeader(type: AudioFileType, format: StreamFormat) -> ([UInt8], SizeLayout) {
        let isC = type == .aifc
        var w = FieldWriter()
        w.fourCC("FORM"); w.u32be(0); w.fourCC(isC ? "AIFC" : "AIFF")
        if isC { w.fourCC("FVER"); w.u32be(4); w.u32be(0xA280_5140) }
        var comm = FieldWriter()
        comm.u16be(UInt16(format.channelsPerFrame)); comm.u32be(0)
        comm.u16be(UInt16(format.isLinearPCM ? format.bitsPerChannel : 16))
        comm.raw(AIFFParser.extended80Bytes(format.sampleRate))
        if isC {
            let (code, name) = aiffCompression(format)
            comm.fourCC(code)
            let text = Array(name.utf8.prefix(254))
            comm.u8(UInt8(text.count)); comm.raw(text)
            if (text.count + 1) % 2 == 1 { comm.u8(0) }
        }
        w.fourCC("COMM"); w.u32be(UInt32(comm.bytes.count))
        let framesField = Int64(w.bytes.count + 2)
        w.raw(comm.bytes)
        w.fourCC("SSND")
        let sizeField = Int64(w.bytes.count)
        w.u32be(8); w.u32be(0); w.u32be(0)
        let layout = SizeLayout(fileType: type, format: format, dataOffset: Int64(w.bytes.count), dataSizeField: sizeField,
                                reservedDS64: nil, isRF64: false, commFramesField: framesField)
        return (w.bytes, layout)
    }

    static func cafHeader(format: StreamFormat) -> ([UInt8], SizeLayout) {
        var w = FieldWriter()
        w.fourCC("caff"); w.u16be(1); w.u16be(0)
        w.fourCC("desc"); w.u64be(32)
        w.f64be(format.sampleRate); w.u32be(format.formatID.rawValue)
        var flags: UInt32 = 0
        if format.isLinearPCM {
            if format.isFloat { flags |= 1 }
            if !format.isBigEndian { flags |= 2 }
        }
        w.u32be(flags); w.u32be(UInt32(format.bytesPerPacket)); w.u32be(UInt32(format.framesPerPacket))
        w.u32be(UInt32(format.channelsPerFrame)); w.u32be(UInt32(format.formatID == .appleIMA4 ? 0 : format.bitsPerChannel))
        if let layout = format.channelLayout {
            var c = FieldWriter()
            let mask = layout.waveChannelMask
            if mask != 0 && mask.nonzeroBitCount == layout.channelCount {
                c.u32be(CAFParser.useChannelBitmap); c.u32be(mask); c.u32be(0)
            } else {
                c.u32be(CAFParser.useChannelDescriptions); c.u32be(0); c.u32be(UInt32(layout.channelCount))
                for label in layout.labels { c.u32be(label.rawValue); c.u32be(0); c.u32be(0); c.u32be(0); c.u32be(0) }
            }
            w.fourCC("chan"); w.u64be(UInt64(c.bytes.count)); w.raw(c.bytes)
        }
        w.fourCC("data")
        let sizeField = Int64(w.bytes.count)
        w.u64be(unknownCAFSize); w.u32be(0)
        let layout = SizeLayout(fileType: .caf, format: format, dataOffset: Int64(w.bytes.count), dataSizeField: sizeField,
                                reservedDS64: nil, isRF64: false)
        return (w.bytes, layout)
    }

    // MARK: Sizes

    /// Writes the size fields for `dataBytes` of audio holding `frames` valid frames in `packets` packets, with
    /// the file ending at `fileEnd`. CAF keeps its data size unknown (-1) unless `final`.
    static func writeSizes(_ file: FileDescriptor, _ layout: inout SizeLayout, dataBytes: Int64, frames: Int64,
                           packets: Int64, fileEnd: Int64, final: Bool, rf64Threshold: Int64) throws {
        switch layout.fileType.family {
        case .riff:
            let riffBody = fileEnd - 8
            let outgrows32Bits = riffBody > rf64Threshold || dataBytes > rf64Threshold
            if outgrows32Bits && layout.reservedDS64 == nil {
                throw AudioFileError(.unsupported, "the WAV file outgrows 4 GiB and has no room reserved for an RF64 header", path: file.path)
            }
            // EBU Tech 3306: the JUNK placeholder becomes ds64 and RIFF becomes RF64. In that order, ds64 filled
            // before the magic changes, so a cut between two writes leaves a file that still reads.
            let promote = !layout.isRF64 && outgrows32Bits
            if (layout.isRF64 || promote), let reserved = layout.reservedDS64 {
                if !layout.reservedIsDS64 {
                    try file.write(Array("ds64".utf8), at: reserved)
                    layout.reservedIsDS64 = true
                }
                var d = FieldWriter()
                d.u64le(UInt64(riffBody)); d.u64le(UInt64(dataBytes)); d.u64le(UInt64(frames)); d.u32le(0)
                try file.write(d.bytes, at: reserved + 8)
                if promote {
                    try file.write(Array("RF64".utf8), at: 0)
                    layout.isRF64 = true
                }
                try file.write(FieldWriter.u32le(0xFFFF_FFFF), at: 4)
                try file.write(FieldWriter.u32le(0xFFFF_FFFF), at: layout.dataSizeField)
                if let fact = layout.factField { try file.write(FieldWriter.u32le(0xFFFF_FFFF), at: fact) }
            } else {
                try file.write(FieldWriter.u32le(UInt32(clamping: riffBody)), at: 4)
                try file.write(FieldWriter.u32le(UInt32(clamping: dataBytes)), at: layout.dataSizeField)
                if let fact = layout.factField { try file.write(FieldWriter.u32le(UInt32(clamping: frames)), at: fact) }
            }
        case .aiff:
            try file.write(FieldWriter.u32be(UInt32(clamping: fileEnd - 8)), at: 4)
            if let comm = layout.commFramesField {
                let count = layout.format.formatID == .appleIMA4 ? packets : frames
                try file.write(FieldWriter.u32be(UInt32(clamping: count)), at: comm)
            }
            try file.write(FieldWriter.u32be(UInt32(clamping: dataBytes + 8 + Int64(layout.ssndOffset))), at: layout.dataSizeField)
        case .caf:
            if final { try file.write(FieldWriter.u64be(UInt64(dataBytes + 4)), at: layout.dataSizeField) }
        case .library: break   // their codec library keeps its own sizes
        }
    }

    // MARK: Trailing chunks

    /// Chunks appended after the audio at close: markers, metadata, and CAF's packet table for IMA4.
    static func trailer(_ layout: SizeLayout, markers: [AudioFileMarker], metadata: AudioFileMetadata,
                        frames: Int64, packets: Int64) -> [UInt8] {
        let markers = layout.fileType.storableMarkers(markers).kept
        switch layout.fileType.family {
        case .riff: return waveTrailer(markers: markers, metadata: metadata, sampleRate: layout.format.sampleRate)
        case .aiff: return aiffTrailer(markers: markers, metadata: metadata)
        case .caf: return cafTrailer(layout.format, markers: markers, metadata: metadata, frames: frames, packets: packets)
        case .library: return []
        }
    }

    static func padded(_ text: String, terminated: Bool) -> [UInt8] {
        var bytes = Array(text.utf8)
        if terminated { bytes.append(0) }
        return bytes
    }

    static func waveTrailer(markers: [AudioFileMarker], metadata: AudioFileMetadata, sampleRate: Double) -> [UInt8] {
        var w = FieldWriter()
        func chunk(_ id: String, _ body: [UInt8], into w: inout FieldWriter) {
            w.fourCC(id); w.u32le(UInt32(body.count)); w.raw(body)
            if body.count % 2 == 1 { w.u8(0) }
        }
        if !metadata.isEmpty {
            var list = FieldWriter()
            list.fourCC("INFO")
            let ids = ["title": "INAM", "artist": "IART", "date": "ICRD", "comment": "ICMT", "copyright": "ICOP", "software": "ISFT"]
            for (key, value) in metadata.entries { chunk(ids[key]!, padded(value, terminated: true), into: &list) }
            chunk("LIST", list.bytes, into: &w)
        }
        if !markers.isEmpty {
            var cue = FieldWriter()
            cue.u32le(UInt32(markers.count))
            for (i, m) in markers.enumerated() {
                cue.u32le(UInt32(i + 1)); cue.u32le(UInt32(clamping: m.framePosition)); cue.fourCC("data")
                cue.u32le(0); cue.u32le(0); cue.u32le(UInt32(clamping: m.framePosition))
            }
            chunk("cue ", cue.bytes, into: &w)
            var adtl = FieldWriter()
            adtl.fourCC("adtl")
            for (i, m) in markers.enumerated() {
                var l = FieldWriter()
                l.u32le(UInt32(i + 1)); l.raw(padded(m.name, terminated: true))
                chunk("labl", l.bytes, into: &adtl)
                if let length = m.frameLength, !m.isLoop {
                    var t = FieldWriter()
                    t.u32le(UInt32(i + 1)); t.u32le(UInt32(clamping: length)); t.fourCC("rgn ")
                    t.u16le(0); t.u16le(0); t.u16le(0); t.u16le(0)
                    chunk("ltxt", t.bytes, into: &adtl)
                }
            }
            chunk("LIST", adtl.bytes, into: &w)
        }
        // Loops in `smpl` (RIFF sampler chunk): each names the cue point at its start; its end sample is played.
        let loops = markers.enumerated().filter(\.element.isLoop)
        if !loops.isEmpty {
            var s = FieldWriter()
            s.u32le(0); s.u32le(0); s.u32le(UInt32((1e9 / sampleRate).rounded())); s.u32le(60); s.u32le(0)
            s.u32le(0); s.u32le(0); s.u32le(UInt32(loops.count)); s.u32le(0)
            for (i, loop) in loops {
                s.u32le(UInt32(i + 1)); s.u32le(0); s.u32le(UInt32(loop.framePosition))
                s.u32le(UInt32(loop.framePosition + (loop.frameLength ?? 1) - 1)); s.u32le(0); s.u32le(0)
            }
            chunk("smpl", s.bytes, into: &w)
        }
        return w.bytes
    }

    static func aiffTrailer(markers: [AudioFileMarker], metadata: AudioFileMetadata) -> [UInt8] {
        var w = FieldWriter()
        func chunk(_ id: String, _ body: [UInt8]) {
            w.fourCC(id); w.u32be(UInt32(body.count)); w.raw(body)
            if body.count % 2 == 1 { w.u8(0) }
        }
        // A loop is two markers (begin, end) that the INST chunk's sustain or release loop names (AIFF 1.3).
        var marks: [(position: Int64, name: String)] = []
        var loops: [(begin: UInt16, end: UInt16)] = []
        for marker in markers {
            marks.append((marker.framePosition, marker.name))
            if marker.isLoop, let length = marker.frameLength {
                marks.append((marker.framePosition + length, marker.name + " end"))
                loops.append((UInt16(marks.count - 1), UInt16(marks.count)))
            }
        }
        if !marks.isEmpty {
            var m = FieldWriter()
            m.u16be(UInt16(marks.count))
            for (i, mark) in marks.enumerated() {
                m.u16be(UInt16(i + 1)); m.u32be(UInt32(clamping: mark.position))
                let name = Array(mark.name.utf8.prefix(255))
                m.u8(UInt8(name.count)); m.raw(name)
                if (name.count + 1) % 2 == 1 { m.u8(0) }
            }
            chunk("MARK", m.bytes)
        }
        if !loops.isEmpty {
            var i = FieldWriter()
            i.u8(60); i.u8(0); i.u8(0); i.u8(127); i.u8(1); i.u8(127); i.u16be(0)
            for slot in 0..<2 {
                if slot < loops.count { i.u16be(1); i.u16be(loops[slot].begin); i.u16be(loops[slot].end) }
                else { i.u16be(0); i.u16be(0); i.u16be(0) }
            }
            chunk("INST", i.bytes)
        }
        if let title = metadata.title { chunk("NAME", Array(title.utf8)) }
        if let artist = metadata.artist { chunk("AUTH", Array(artist.utf8)) }
        if let copyright = metadata.copyright { chunk("(c) ", Array(copyright.utf8)) }
        if let comment = metadata.comment { chunk("ANNO", Array(comment.utf8)) }
        return w.bytes
    }

    static func cafTrailer(_ format: StreamFormat, markers: [AudioFileMarker], metadata: AudioFileMetadata,
                           frames: Int64, packets: Int64) -> [UInt8] {
        var w = FieldWriter()
        func chunk(_ id: String, _ body: [UInt8]) { w.fourCC(id); w.u64be(UInt64(body.count)); w.raw(body) }
        if format.formatID == .appleIMA4 {
            var p = FieldWriter()
            p.u64be(UInt64(packets)); p.u64be(UInt64(frames)); p.u32be(0)
            p.u32be(UInt32(max(0, packets * 64 - frames)))
            chunk("pakt", p.bytes)
        }
        if !metadata.isEmpty {
            let keys = ["title": "title", "artist": "artist", "date": "recorded date", "comment": "comments",
                        "copyright": "copyright", "software": "encoding application"]
            var i = FieldWriter()
            i.u32be(UInt32(metadata.entries.count))
            for (key, value) in metadata.entries { i.raw(padded(keys[key]!, terminated: true)); i.raw(padded(value, terminated: true)) }
            chunk("info", i.bytes)
        }
        // Core Audio Format Specification: markers in 'mark', regions in 'regn' (each a RegionStart 'rbeg' and
        // RegionEnd 'rend' marker), names in 'strg' under the marker's or region's ID.
        let plain = markers.enumerated().filter { $0.element.frameLength == nil }
        let regions = markers.enumerated().filter { $0.element.frameLength != nil }
        func marker(_ m: inout FieldWriter, type: UInt32, at position: Int64, id: UInt32) {
            m.u32be(type); m.f64be(Double(position)); m.u32be(id); m.u64be(0); m.u32be(0)
        }
        if !plain.isEmpty {
            var m = FieldWriter()
            m.u32be(0); m.u32be(UInt32(plain.count))
            for (index, entry) in plain { marker(&m, type: 0, at: entry.framePosition, id: UInt32(index + 1)) }
            chunk("mark", m.bytes)
        }
        if !regions.isEmpty {
            var r = FieldWriter()
            r.u32be(0); r.u32be(UInt32(regions.count))
            for (index, entry) in regions {
                let flags = entry.isLoop ? CAFParser.regionLoopEnable | CAFParser.regionPlayForward : 0
                r.u32be(UInt32(index + 1)); r.u32be(flags); r.u32be(2)
                marker(&r, type: CAFParser.regionStart, at: entry.framePosition, id: 0)
                marker(&r, type: CAFParser.regionEnd, at: entry.framePosition + (entry.frameLength ?? 0), id: 0)
            }
            chunk("regn", r.bytes)
        }
        if !markers.isEmpty {
            var s = FieldWriter()
            var text: [UInt8] = []
            s.u32be(UInt32(markers.count))
            for (index, marker) in markers.enumerated() {
                s.u32be(UInt32(index + 1)); s.u64be(UInt64(text.count))
                text += padded(marker.name, terminated: true)
            }
            s.raw(text)
            chunk("strg", s.bytes)
        }
        return w.bytes
    }
}
