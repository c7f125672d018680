import CFFmpeg

/// FFmpeg's custom I/O (AVIOContext) over `LibraryInput` / `LibraryOutput`, so FFmpeg never opens a file:
/// every read, write and seek goes through HAL's descriptor. The callbacks capture nothing; the library
/// object travels as the opaque pointer (unretained: the reader or writer owns it for the context's life).
enum FFmpegIO {
    /// Bytes of FFmpeg's own I/O buffer.
    static let bufferSize = 32768

    /// A read-and-seek context on `input`. Returns nil when FFmpeg cannot allocate.
    static func reading(_ input: LibraryInput, _ api: CFFmpegFunctions) -> UnsafeMutablePointer<AVIOContext>? {
        guard let buffer = api.av_malloc(bufferSize)?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let opaque = Unmanaged.passUnretained(input).toOpaque()
        let context = api.avio_alloc_context(buffer, Int32(bufferSize), 0, opaque, { opaque, buffer, size in
            guard let opaque, let buffer else { return -1 }
            let input = Unmanaged<LibraryInput>.fromOpaque(opaque).takeUnretainedValue()
            let n = input.read(into: buffer, count: Int(size))
            return n == 0 ? FFmpegLibrary.endOfFile : Int32(n)
        }, nil, { opaque, offset, whence in
            guard let opaque else { return -1 }
            let input = Unmanaged<LibraryInput>.fromOpaque(opaque).takeUnretainedValue()
            if whence & AVSEEK_SIZE != 0 { return input.length }
            return input.seek(offset, whence: whence & ~AVSEEK_FORCE) ?? -1
        })
        if context == nil { api.av_free(buffer) }
        return context
    }

    /// A write-and-seek context on `output` (muxers seek back to finish their headers).
    static func writing(_ output: LibraryOutput, _ api: CFFmpegFunctions) -> UnsafeMutablePointer<AVIOContext>? {
        guard let buffer = api.av_malloc(bufferSize)?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let opaque = Unmanaged.passUnretained(output).toOpaque()
        let context = api.avio_alloc_context(buffer, Int32(bufferSize), 1, opaque, nil, { opaque, buffer, size in
            // FFmpeg 5.1 passes `uint8_t *`, 7.x `const uint8_t *`: both convert to a raw pointer.
            guard let opaque, let buffer else { return -1 }
            let output = Unmanaged<LibraryOutput>.fromOpaque(opaque).takeUnretainedValue()
            return output.write(UnsafeRawPointer(buffer), count: Int(size)) ? size : -1
        }, { opaque, offset, whence in
            guard let opaque else { return -1 }
            let output = Unmanaged<LibraryOutput>.fromOpaque(opaque).takeUnretainedValue()
            if whence & AVSEEK_SIZE != 0 { return output.length }
            return output.seek(offset, whence: whence & ~AVSEEK_FORCE) ?? -1
        })
        if context == nil { api.av_free(buffer) }
        return context
    }

    /// Frees a context made here and its buffer (which FFmpeg may have replaced).
    static func free(_ context: UnsafeMutablePointer<AVIOContext>?, _ api: CFFmpegFunctions) {
        guard let context else { return }
        api.av_free(context.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        api.avio_context_free(&pointer)
    }
}
