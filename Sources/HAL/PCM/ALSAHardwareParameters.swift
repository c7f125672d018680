import CALSA

/// The hardware-parameter negotiation with alsa-lib: read what the device offers, then narrow the space
/// parameter by parameter, so a refusal names the parameter and quotes the offer.
enum ALSAHardwareParameters {
    /// What the device offers, read from a fresh `snd_pcm_hw_params_any` space.
    static func capabilities(of pcm: OpaquePointer, _ space: OpaquePointer) -> PCMCapabilities {
        var formats: [PCMSampleFormat] = []
        var others: [String] = []
        for code in 0...SND_PCM_FORMAT_LAST.rawValue {
            let format = snd_pcm_format_t(rawValue: code)
            guard snd_pcm_hw_params_test_format(pcm, space, format) == 0 else { continue }
            if let ours = PCMSampleFormat.allCases.first(where: { $0.alsaFormat == format }) {
                formats.append(ours)
            } else if let name = snd_pcm_format_name(format) {
                others.append(String(cString: name))
            }
        }
        var direction: Int32 = 0
        var minimum: UInt32 = 0, maximum: UInt32 = 0
        snd_pcm_hw_params_get_channels_min(space, &minimum)
        snd_pcm_hw_params_get_channels_max(space, &maximum)
        let channels = Int(minimum)...Int(max(minimum, maximum))
        snd_pcm_hw_params_get_rate_min(space, &minimum, &direction)
        snd_pcm_hw_params_get_rate_max(space, &maximum, &direction)
        let rates = Int(minimum)...Int(max(minimum, maximum))
        let standardRates = PCMCapabilities.commonRates.filter {
            rates.contains($0) && snd_pcm_hw_params_test_rate(pcm, space, UInt32($0), 0) == 0
        }
        var minimumFrames: snd_pcm_uframes_t = 0, maximumFrames: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_period_size_min(space, &minimumFrames, &direction)
        snd_pcm_hw_params_get_period_size_max(space, &maximumFrames, &direction)
        let periods = Int(clamping: minimumFrames)...Int(clamping: max(minimumFrames, maximumFrames))
        snd_pcm_hw_params_get_buffer_size_min(space, &minimumFrames)
        snd_pcm_hw_params_get_buffer_size_max(space, &maximumFrames)
        let buffers = Int(clamping: minimumFrames)...Int(clamping: max(minimumFrames, maximumFrames))
        return PCMCapabilities(formats: formats, otherFormats: others, channels: channels, rates: rates,
                               standardRates: standardRates, periodFrames: periods, bufferFrames: buffers,
                               canPause: snd_pcm_hw_params_can_pause(space) != 0,
                               canResume: snd_pcm_hw_params_can_resume(space) != 0)
    }

    /// Narrows `space` to `request` and installs it; returns the granted rate, period and buffer.
    /// Throws `.refused` naming the first parameter the device will not take.
    static func install(_ request: PCMConfiguration, on pcm: OpaquePointer, space: OpaquePointer,
                        offered: PCMCapabilities, name: String, direction: PCMDirection)
        throws(PCMError) -> (rate: Int, periodFrames: Int, bufferFrames: Int, canPause: Bool) {
        func refuse(_ parameter: PCMParameter, _ requested: String) -> PCMError {
            .refused(name: name, direction: direction, parameter: parameter, requested: requested, offered: offered)
        }
        guard snd_pcm_hw_params_set_access(pcm, space, SND_PCM_ACCESS_RW_INTERLEAVED) == 0 else {
            throw refuse(.access, "RW_INTERLEAVED")
        }
        guard snd_pcm_hw_params_set_format(pcm, space, request.format.alsaFormat) == 0 else {
            throw refuse(.format, request.format.alsaName)
        }
        guard request.channels > 0, snd_pcm_hw_params_set_channels(pcm, space, UInt32(request.channels)) == 0 else {
            throw refuse(.channels, "\(request.channels)")
        }
        var rate = UInt32(clamping: request.rate)
        var direction: Int32 = 0
        let rateSet = request.allowsNearestRate
            ? snd_pcm_hw_params_set_rate_near(pcm, space, &rate, &direction)
            : snd_pcm_hw_params_set_rate(pcm, space, rate, 0)
        guard request.rate > 0, rateSet == 0 else { throw refuse(.rate, "\(request.rate) Hz") }
        var period = snd_pcm_uframes_t(max(request.periodFrames, 1))
        guard snd_pcm_hw_params_set_period_size_near(pcm, space, &period, &direction) == 0 else {
            throw refuse(.period, "\(request.periodFrames) frames")
        }
        var periods = UInt32(max(request.periodCount, 1))
        if snd_pcm_hw_params_set_periods_near(pcm, space, &periods, &direction) != 0 {
            // Some devices constrain the buffer, not the count: ask for the same size in frames.
            var buffer = snd_pcm_uframes_t(period) * snd_pcm_uframes_t(periods)
            guard snd_pcm_hw_params_set_buffer_size_near(pcm, space, &buffer) == 0 else {
                throw refuse(.buffer, "\(request.periodCount) periods of \(period) frames")
            }
        }
        let installed = snd_pcm_hw_params(pcm, space)
        guard installed == 0 else {
            throw PCMError.io(name: name, operation: "set hardware parameters", errno: Errno(-installed),
                              detail: String(cString: calsa_last_message()))
        }
        var bufferFrames: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_rate(space, &rate, &direction)
        snd_pcm_hw_params_get_period_size(space, &period, &direction)
        snd_pcm_hw_params_get_buffer_size(space, &bufferFrames)
        return (Int(rate), Int(period), Int(bufferFrames), snd_pcm_hw_params_can_pause(space) != 0)
    }

    /// Start threshold and wake-up size; the stop threshold stays at the buffer size (an xrun when it runs
    /// dry). Timestamps are switched on and put on CLOCK_MONOTONIC, so `snd_pcm_status` stamps every
    /// reading on the clock the rest of the HAL uses (the default type is the wall clock, which jumps).
    static func installSoftware(on pcm: OpaquePointer, startThreshold: Int, availMin: Int, name: String)
        throws(PCMError) {
        var software: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&software) == 0, let software else {
            throw PCMError.io(name: name, operation: "allocate software parameters", errno: Errno(ENOMEM), detail: "")
        }
        defer { snd_pcm_sw_params_free(software) }
        var result = snd_pcm_sw_params_current(pcm, software)
        if result == 0 { result = snd_pcm_sw_params_set_start_threshold(pcm, software, snd_pcm_uframes_t(startThreshold)) }
        if result == 0 { result = snd_pcm_sw_params_set_avail_min(pcm, software, snd_pcm_uframes_t(availMin)) }
        if result == 0 { result = snd_pcm_sw_params_set_tstamp_mode(pcm, software, SND_PCM_TSTAMP_ENABLE) }
        if result == 0 { result = snd_pcm_sw_params_set_tstamp_type(pcm, software, SND_PCM_TSTAMP_TYPE_MONOTONIC) }
        if result == 0 { result = snd_pcm_sw_params(pcm, software) }
        guard result == 0 else {
            throw PCMError.io(name: name, operation: "set software parameters", errno: Errno(-result),
                              detail: String(cString: calsa_last_message()))
        }
    }
}

extension PCMSampleFormat {
    /// alsa-lib's code for the format.
    var alsaFormat: snd_pcm_format_t {
        switch self {
        case .s16LE: SND_PCM_FORMAT_S16_LE
        case .s24LE: SND_PCM_FORMAT_S24_LE
        case .s32LE: SND_PCM_FORMAT_S32_LE
        case .float32LE: SND_PCM_FORMAT_FLOAT_LE
        }
    }
}
