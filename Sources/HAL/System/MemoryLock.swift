/// Keeps the process's memory in RAM, so a render thread never waits for a page to come back from disk
/// (or to be zero-filled for the first time) in the middle of a period.
public enum MemoryLock {
    /// `mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)`: everything mapped now and later, each page locked
    /// when first touched (MCL_ONFAULT), so thread stacks and reserved-but-unused heap cost no RAM until used.
    ///
    /// EPERM (no CAP_IPC_LOCK) and ENOMEM (over RLIMIT_MEMLOCK; the unit's LimitMEMLOCK= raises it) are the
    /// usual refusals; callers carry on unlocked and say so once.
    public static func lockAll() throws(SystemError) {
        if Syscalls.mlockall(Syscalls.lockCurrentFutureOnFault) != 0 {
            throw SystemError.current("lock memory (mlockall MCL_CURRENT|MCL_FUTURE|MCL_ONFAULT)", path: "process")
        }
    }

    /// Undoes `lockAll` (tests, and a process that drops its real-time role).
    public static func unlockAll() {
        _ = Syscalls.munlockall()
    }
}
