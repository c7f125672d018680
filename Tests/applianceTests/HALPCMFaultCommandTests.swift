import Testing

/// The hidden ALSA fault commands refuse options they cannot compute with, before opening any device:
/// `suspend --seconds` is multiplied by the rate (it trapped on overflow), the others sleep or count.
@Suite("appliance hal pcm fault commands")
struct HALPCMFaultCommandTests {
    /// A usage error exits with EX_USAGE, 64 (sysexits.h; ArgumentParser's ValidationError), with one line
    /// naming the option, its value and the range.
    @Test(arguments: [
        (["suspend", "--seconds", "9223372036854775807"], "--seconds 9223372036854775807 is out of range (1 to 86400)"),
        (["underrun", "--frames=-1"], "--frames -1 is out of range (0 to 33177600000)"),
        (["tail", "--hold-ms", "86400001"], "--hold-ms 86400001 is out of range (0 to 86400000)"),
    ])
    func anOptionOutOfRangeIsOneClearError(arguments: [String], message: String) throws {
        let result = try ApplianceBinary.run(["hal", "pcm"] + arguments + ["--device", "null"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
