import Foundation
import Testing
@testable import HAL

@Suite("PCM errors and holders")
struct PCMErrorTests {
    /// A fake /proc: aplay holds card 0 device 0 playback, mpd holds card 1 (id `sndrpihifiberry`).
    func fakeProc() throws -> TemporaryDirectory {
        let root = TemporaryDirectory()
        let files = [
            "asound/card0/pcm0p/sub0/status": "state: RUNNING\nowner_pid   : 4242\ntrigger_time: 1.0\n",
            "asound/card0/pcm0p/sub1/status": "closed\n",
            "asound/card0/pcm0c/sub0/status": "closed\n",
            "asound/card0/pcm1p/sub0/status": "closed\n",
            "asound/card1/pcm0p/sub0/status": "state: PREPARED\nowner_pid   : 77\n",
            "4242/comm": "aplay\n",
            "77/comm": "mpd\n",
        ]
        for (path, text) in files {
            let full = root.file(path)
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: false, encoding: .utf8)
        }
        try FileManager.default.createSymbolicLink(atPath: root.file("asound/sndrpihifiberry"), withDestinationPath: "card1")
        return root
    }

    @Test func findsWhoHoldsADevice() throws {
        let proc = try fakeProc()
        let aplay = PCMHolder(pid: 4242, command: "aplay", card: 0, device: 0, subdevice: 0)
        let mpd = PCMHolder(pid: 77, command: "mpd", card: 1, device: 0, subdevice: 0)
        #expect(PCMHolder.find(name: "hw:0,0", direction: .playback, procRoot: proc.path) == [aplay])
        #expect(PCMHolder.find(name: "hw:0,1", direction: .playback, procRoot: proc.path) == [])
        #expect(PCMHolder.find(name: "plughw:CARD=sndrpihifiberry,DEV=0", direction: .playback, procRoot: proc.path) == [mpd])
        #expect(PCMHolder.find(name: "hw:sndrpihifiberry", direction: .playback, procRoot: proc.path) == [mpd])
        #expect(PCMHolder.find(name: "default", direction: .playback, procRoot: proc.path) == [aplay, mpd])
        #expect(PCMHolder.find(name: "hw:0,0", direction: .capture, procRoot: proc.path) == [])

        let busy = PCMError.busy(name: "hw:0,0", direction: .playback, holders: [aplay])
        #expect(busy.description == "playback PCM 'hw:0,0' is busy, held by aplay (pid 4242) on hw:0,0 sub 0")
        #expect(busy.hint.hasPrefix("stop aplay (pid 4242)"))
        #expect(busy.errno == .busy)
    }

    @Test func openFailuresMapToWhatAPersonCanDo() {
        let denied = ALSAPCM.openFailure(name: "hw:0", direction: .capture, code: EACCES)
        #expect(denied == .permissionDenied(name: "hw:0", direction: .capture, errno: .permissionDenied))
        #expect(denied.hint.contains("'audio' group"))
        #expect(denied.description == "no permission to open capture PCM 'hw:0' (EACCES)")
        let gone = ALSAPCM.openFailure(name: "hw:5", direction: .playback, code: ENODEV)
        guard case .noSuchDevice(_, _, .noDevice, _) = gone else {
            Issue.record("expected no such device, got \(gone)")
            return
        }
        #expect(gone.hint.contains("aplay -L"))
        guard case .busy = ALSAPCM.openFailure(name: "nosuchcard-busy", direction: .playback, code: EBUSY) else {
            Issue.record("expected busy")
            return
        }
        #expect(ALSAPCM.openFailure(name: "x", direction: .playback, code: EIO).errno == .io)
    }

    @Test func ownerPIDIsParsedFromAStatusFile() {
        #expect(PCMHolder.ownerPID(inStatus: "state: RUNNING\nowner_pid   : 1234\n") == 1234)
        #expect(PCMHolder.ownerPID(inStatus: "closed\n") == nil)
    }
}
