import Foundation
import Testing
@testable import HAL

/// The kernel's confinement of a path beneath a directory (openat2(2) with RESOLVE_BENEATH, Linux 5.6+).
/// Expected errnos from openat2(2): "RESOLVE_BENEATH ... If resolution would leave the directory ... the call
/// fails with the error EXDEV"; "absolute symbolic links and absolute pathnames will be rejected".
@Suite("Confined path")
struct ConfinedPathTests {
    let root = TemporaryDirectory()
    let outside = TemporaryDirectory()
    let manager = FileManager.default

    func write(_ path: String, _ text: String) {
        #expect(manager.createFile(atPath: path, contents: Data(text.utf8)))
    }

    func errno(_ relative: String, _ resolution: ConfinedPath.Resolution) -> Errno? {
        do { _ = try ConfinedPath.open(relative, beneath: root.path, resolution: resolution); return nil } catch {
            return error.errno
        }
    }

    /// Both walks, the kernel's and the one in user space for kernels without openat2 (`BeneathWalk`), give
    /// openat2(2)'s answers. (Under qemu-user, which has no openat2, `.kernel` falls back to the user-space walk.)
    @Test(arguments: ConfinedPath.Resolution.allCases)
    func everyWayOutIsRefusedByTheKernel(resolution: ConfinedPath.Resolution) throws {
        func errno(_ relative: String) -> Errno? { self.errno(relative, resolution) }
        try manager.createDirectory(atPath: root.file("dir"), withIntermediateDirectories: true)
        write(root.file("dir/song.wav"), "inside")
        write(outside.file("secret"), "outside")
        try manager.createSymbolicLink(atPath: root.file("out"), withDestinationPath: outside.file("secret"))
        try manager.createSymbolicLink(atPath: root.file("climb"), withDestinationPath: "../" + (outside.path as NSString).lastPathComponent + "/secret")
        try manager.createSymbolicLink(atPath: root.file("outdir"), withDestinationPath: outside.path)
        try manager.createSymbolicLink(atPath: root.file("absin"), withDestinationPath: root.file("dir/song.wav"))
        try manager.createSymbolicLink(atPath: root.file("dir/sibling"), withDestinationPath: "../dir/song.wav")
        #expect(errno("out") == .crossDevice, "absolute link pointing out")
        #expect(errno("climb") == .crossDevice, "relative link climbing out")
        #expect(errno("outdir/secret") == .crossDevice, "linked folder pointing out")
        #expect(errno("../" + (outside.path as NSString).lastPathComponent + "/secret") == .crossDevice, "'..'")
        #expect(errno(outside.file("secret")) == .crossDevice, "absolute path")
        #expect(errno("absin") == .crossDevice, "an absolute link is refused even when it points inside")
        #expect(errno("missing") == .noSuchFile)
        #expect(errno(String(repeating: "n", count: 256)) == .nameTooLong, "NAME_MAX is 255 (limits.h)")
        #expect(errno(String(repeating: "d/", count: 2048)) == .nameTooLong,
                "PATH_MAX is 4096 with the NUL (limits.h), checked before any component is looked up")
        #expect(errno("dir/song.wav/more") == .notDirectory)
        #expect(errno("dir/../dir/./song.wav") == nil, "'..' that stays inside is a plain step")
        try manager.createSymbolicLink(atPath: root.file("loop"), withDestinationPath: "loop")
        #expect(errno("loop") == .tooManyLinks, "ELOOP after 40 links (MAXSYMLINKS)")
        let sibling = try ConfinedPath.open("dir/sibling", beneath: root.path, resolution: resolution)
        #expect(try FileSystem.contents(of: sibling.openPath) == Array("inside".utf8))
        #expect(sibling.realPath == root.file("dir/song.wav"))
        #expect(try ConfinedPath.open("", beneath: root.path, resolution: resolution).status.kind == .directory)
    }

    /// The race a string check loses: the folder is swapped for a link pointing out between the check and
    /// the use. The entry opened stays the one checked; a new open is refused.
    @Test(arguments: ConfinedPath.Resolution.allCases)
    func aLinkSwappedInAfterTheCheckIsNotFollowed(resolution: ConfinedPath.Resolution) throws {
        func errno(_ relative: String) -> Errno? { self.errno(relative, resolution) }
        try manager.createDirectory(atPath: root.file("dir"), withIntermediateDirectories: true)
        write(root.file("dir/song.wav"), "inside")
        write(outside.file("song.wav"), "outside")
        let entry = try ConfinedPath.open("dir/song.wav", beneath: root.path, resolution: resolution)
        try manager.moveItem(atPath: root.file("dir"), toPath: root.file("moved"))
        try manager.createSymbolicLink(atPath: root.file("dir"), withDestinationPath: outside.path)
        #expect(try FileSystem.contents(of: entry.openPath) == Array("inside".utf8))
        #expect(errno("dir/song.wav") == .crossDevice)
        // Removing goes through the folder opened at the check: the file inside goes, the one outside stays.
        try entry.removeEntry()
        #expect(!manager.fileExists(atPath: root.file("moved/song.wav")))
        #expect(manager.fileExists(atPath: outside.file("song.wav")))
    }
}
