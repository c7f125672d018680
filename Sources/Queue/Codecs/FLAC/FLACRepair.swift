/// Placeholder until the FLAC part lands: recovers a FLAC file cut off while it was written (to its last
/// complete frame, STREAMINFO's total samples set to match).
enum FLACRepair {
    static func repair(_ file: FileDescriptor) throws -> AudioFileRepairReport {
        throw AudioFileError(.unsupported, "FLAC repair is not built yet")
    }
}
