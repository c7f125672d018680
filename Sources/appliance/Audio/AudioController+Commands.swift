import Codec8_24
import HAL
import Queue

/// The console's `vol`, `mute`, `eq`, `route` and `input`.
extension AudioController {
    func volume(_ change: VolumeChange?) -> ConsoleReply {
        let curve = policy.curve
        let target: Double
        switch change {
        case nil:
            return .ok(volumeLines)
        case .percent(let percent):
            guard (0...100).contains(percent) else { return .error(.usage, "vol takes 0-100, +N, -N or a level in dB (-12dB)") }
            target = curve.decibels(percent: percent)
        case .step(let points):
            let level = policy.level
            // A level between points (set in dB) steps from the nearest point.
            target = curve.decibels(percent: curve.percent(decibels: level) + points)
        case .decibels(let dB):
            guard !dB.isNaN else { return .error(.usage, "vol takes 0-100, +N, -N or a level in dB (-12dB)") }
            target = dB
        }
        var lines: [String] = []
        do throws(CodecError) {
            let level = try setLevel(target)
            if target > level { lines.append("capped at the board's maximum, \(Self.decibelText(curve.maximumDB))") }
            // Turning the volume is meant to be heard: it ends a mute.
            if muted, !VolumeCurve.isSilent(level) { try setMuted(false) }
        } catch {
            return .error(.device, "the codec refused the volume: \(recover(after: error))")
        }
        save()
        hooks.event(ApplianceEvent(.volume, volumeEventDetail))
        return .ok(lines + volumeLines)
    }

    func mute(_ on: Bool) -> ConsoleReply {
        do throws(CodecError) {
            try setMuted(on)
        } catch {
            return .error(.device, "the codec refused to unmute: \(recover(after: error))")
        }
        save()
        hooks.event(ApplianceEvent(.volume, volumeEventDetail))
        return .ok(["mute: \(muted ? "on" : "off")"])
    }

    func eq(_ request: EQRequest) -> ConsoleReply {
        switch request {
        case .show:
            return .ok(["eq: \(preset.name)", "runs in: \(eqPath)"])
        case .list:
            return .ok(EQPreset.all.map { ($0.name == preset.name ? "* " : "  ") + "\($0.name): \($0.summary)" })
        case .preset(let name):
            guard let chosen = EQPreset.named(name) else {
                let close = EQPreset.closeMatches(to: name).map(\.name)
                return .error(.notFound, "no EQ preset '\(name)'"
                              + (close.isEmpty ? "; `eq list` shows them" : "; did you mean \(close.joined(separator: ", "))?"))
            }
            do throws(CodecError) {
                try applyPreset(chosen)
            } catch {
                return .error(.device, "the codec refused the EQ: \(recover(after: error))")
            }
            save()
            hooks.event(ApplianceEvent(.eq, "\(preset.name) \(eqPath.isHardware ? "hardware" : "software")"))
            return .ok(["eq: \(preset.name)", "runs in: \(eqPath)"])
        }
    }

    func route(_ request: RouteRequest?) -> ConsoleReply {
        guard let request else { return .ok(routeLines) }
        let override: Bool
        do throws(RouteRequestError) {
            override = try policy.speakerOverride(for: request, jack: jackState)
        } catch {
            return .error(.state, error.description)
        }
        do throws(SessionError) {
            try audioSession.overrideOutputToSpeaker(override)
        } catch {
            return .error(.state, error.description)
        }
        setRouteRequest(request)
        let problems = carryOutSessionActions()
        save()
        if let problem = problems.first { return .error(.device, problem) }
        return .ok(routeLines)
    }

    func input(_ choice: InputChoice?) -> ConsoleReply {
        guard let choice else { return .ok(inputLines) }
        let outcome = choose(choice)
        if let refusal = outcome.refusal { return .error(outcome.code, refusal) }
        settings.update { $0.input = choice.rawValue }
        return .ok(inputLines)
    }

    /// Makes `choice` the session's preferred input and selects it on the codec.
    func choose(_ choice: InputChoice) -> (refusal: String?, code: ConsoleErrorCode) {
        let port: CodecInput = switch choice {
        case .mic: .microphone
        case .line: .line
        case .headset: .headsetMicrophone
        }
        let coordinator = sessionCoordinator
        if port == .headsetMicrophone {
            guard codec.capabilities.inputs.contains(.headsetMicrophone) else {
                return ("the board cannot record from a headset's microphone (the \(codec.name) has no input for it)", .state)
            }
            guard jackState.hasMicrophone else {
                return ("no headset is plugged in (a headset has a microphone ring; headphones do not)", .state)
            }
        } else if !coordinator.builtInInputs.contains(port) {
            let available = coordinator.availableInputs.map(\.rawValue).joined(separator: ", ")
            return ("the board has no \(port) input (available: \(available.isEmpty ? "none" : available))", .state)
        }
        do throws(SessionError) {
            try audioSession.setPreferredInput(port)
        } catch {
            return (error.description, .state)
        }
        let problems = carryOutSessionActions() + syncInput()
        if let problem = problems.first { return (problem, .device) }
        return (nil, .state)
    }

    var volumeLines: [String] {
        ["volume: \(volumeText) on \(policy.output)", "mute: \(muted ? "on" : "off")"]
    }

    var volumeEventDetail: String {
        "\(policy.curve.percent(decibels: policy.level))% \(Self.decibelText(policy.level)) \(policy.output)"
            + (muted ? " muted" : "")
    }

    var routeLines: [String] {
        ["route: \(policy.output) (\(routeRequest.rawValue))", "jack: \(jackState)",
         "amplifier: \(policy.hasAmplifier ? (policy.amplifierOn ? "on" : "off") : "none")"]
    }

    var inputLines: [String] {
        let available = sessionCoordinator.availableInputs.map(\.rawValue).joined(separator: ", ")
        return ["input: \(selectedInput?.rawValue ?? "none")", "available: \(available.isEmpty ? "none" : available)"]
    }
}
