/// What a remote control asks the player or recorder to do: UIKit's remote-control event subtypes
/// (UIEventSubtype.remoteControl*), plus the audio unit's toggle-record and the headset's volume keys
/// (shared/reference/core-audio-2013-2015.md "Remote-control events"; core-audio-2014-2017.md A.2).
/// Plain values: the appliance hands them to whichever state machine owns the transport.
public enum RemoteControlEvent: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case togglePlayPause
    case play
    case pause
    case stop
    case nextTrack
    case previousTrack
    case beginSeekingForward
    case endSeekingForward
    case beginSeekingBackward
    case endSeekingBackward
    case toggleRecord
    case volumeUp
    case volumeDown

    public var description: String { rawValue }
}
