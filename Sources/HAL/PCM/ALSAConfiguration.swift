import CALSA

/// An alsa-lib configuration tree built from text, for opening PCMs that the system configuration does
/// not define (tests drive the real `null` and `file` plugins this way, with no card and no asoundrc).
/// Without one, `ALSAPCM` uses the system configuration (/usr/share/alsa/alsa.conf, ~/.asoundrc, ...).
public final class ALSAConfiguration: @unchecked Sendable {
    let tree: OpaquePointer

    /// Parses `text` (asoundrc syntax). With `includingSystem`, the definitions are added on top of a copy
    /// of the system configuration, so names like `default` and `hw:0` keep working.
    public init(text: String, includingSystem: Bool = false) throws(PCMError) {
        calsa_capture_messages()
        calsa_clear_last_message()
        var tree: OpaquePointer?
        if includingSystem {
            var system: OpaquePointer?
            let updated = snd_config_update_ref(&system)
            guard updated >= 0, let system else { throw Self.failure("read the system configuration", updated) }
            let copied = snd_config_copy(&tree, system)
            snd_config_unref(system)
            guard copied >= 0 else { throw Self.failure("copy the system configuration", copied) }
        } else {
            let made = snd_config_top(&tree)
            guard made >= 0 else { throw Self.failure("make a configuration", made) }
        }
        guard let tree else { throw Self.failure("make a configuration", -ENOMEM) }
        var input: OpaquePointer?
        let loaded: Int32 = text.withCString { chars in
            let opened = snd_input_buffer_open(&input, chars, strlen(chars))
            guard opened >= 0, let input else { return opened }
            defer { snd_input_close(input) }
            return snd_config_load(tree, input)
        }
        guard loaded >= 0 else {
            snd_config_delete(tree)
            throw Self.failure("parse the configuration", loaded)
        }
        self.tree = tree
    }

    deinit { snd_config_delete(tree) }

    private static func failure(_ operation: String, _ code: Int32) -> PCMError {
        .io(name: "<configuration>", operation: operation, errno: Errno(-code),
            detail: String(cString: calsa_last_message()))
    }
}
