import Testing
@testable import Queue

/// Expected values: Apple's Audio Session Programming Guide, Table B-1 ("Interrupts nonmixable app's
/// audio", "Allows audio input (recording) and output (playback)"), AVAudioSession.Category.record
/// ("silencing virtually all output on the system"), kAudioSessionCategory_PlayAndRecord (alerts still
/// play; use RecordAudio to keep them out), CategoryOptions.mixWithOthers / .duckOthers.
@Suite("Category policy")
struct CategoryPolicyTests {
    @Test func theTableIsApplesTableB1() throws {
        // (category, interrupts non-mixable audio, output, input, system sounds mix in)
        let table: [(SessionCategory, Bool, Bool, Bool, Bool)] = [
            (.ambient, false, true, false, true),
            (.soloAmbient, true, true, false, true),
            (.playback, true, true, false, true),
            (.record, true, false, true, false),
            (.playAndRecord, true, true, true, true),
        ]
        for (category, interrupts, output, input, sounds) in table {
            let policy = try CategoryPolicy(category)
            #expect(policy.isMixable == !interrupts, "\(category)")
            #expect(policy.playsOutput == output, "\(category)")
            #expect(policy.usesInput == input, "\(category)")
            #expect(policy.allowsSystemSounds == sounds, "\(category)")
            #expect(policy.silencesOtherOutput == (category == .record), "\(category)")
        }
        #expect(SessionCategory.default == .soloAmbient, "Table B-1 marks SoloAmbient (Default)")
    }

    @Test func mixWithOthersMakesPlaybackAndPlayAndRecordMixable() throws {
        #expect(try CategoryPolicy(.playback, options: .mixWithOthers).isMixable)
        #expect(try CategoryPolicy(.playAndRecord, options: .mixWithOthers).isMixable)
        // duckOthers "implicitly sets the mixWithOthers option".
        let ducking = try CategoryPolicy(.playback, options: .duckOthers)
        #expect(ducking.isMixable && ducking.ducksOthers && ducking.options == [.duckOthers, .mixWithOthers])
    }

    @Test func otherCategoriesRefuseOptions() {
        // "Other categories: MixWithOthers defaults to false and cannot be changed"; duckOthers only for
        // playAndRecord, playback (and multiRoute, which the appliance has not).
        for category in [SessionCategory.ambient, .soloAmbient, .record] {
            for options in [SessionCategoryOptions.mixWithOthers, .duckOthers] {
                #expect(throws: SessionError.optionsNotAllowed(category: category, options: options)) {
                    try CategoryPolicy(category, options: options)
                }
            }
        }
        #expect(SessionError.optionsNotAllowed(category: .record, options: .mixWithOthers).description.contains("playAndRecord"))
    }
}
