import HAL

extension RecordingService {
    /// The files the current take is writing (its main file and, when asked for, its safety track), as
    /// resolved paths; empty when nothing is being written. `rm` compares against these.
    var currentTakePaths: [String] {
        guard let take, let base = take.currentFile else { return [] }
        let names = take.output.names
        let paths = [names.path(base)] + (take.output.safetyTrack ? [names.safetyPath(base)] : [])
        // The directory is resolved, not the files: a take is named before its first buffer creates the file.
        return paths.map { path in
            let (directory, name) = FileSystem.split(path)
            return ((try? FileSystem.resolvedPath(directory)) ?? directory) + "/" + name
        }
    }
}
