//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// Small file-system helpers the store needs beyond ``DurableFile``.
enum DirectoryListing {
    /// The names in the directory at `path`, without `.` and `..`.
    static func names(atPath path: String) throws(ArchiveStorageError) -> [String] {
        guard let directory = opendir(path) else { throw DurableFile.failure("opendir", path: path) }
        defer { _ = closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw DurableFile.failure("readdir", path: path) }
                return names
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Creates the directory at `path` and any missing parents.
    static func createDirectory(atPath path: String) throws(ArchiveStorageError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw DurableFile.failure("mkdir", path: prefix)
            }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw DurableFile.failure("stat", path: path) }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw ArchiveStorageError(
                .fileSystem,
                path: path,
                reason: "not a directory",
                underlying: SystemError(code: ENOTDIR, call: "mkdir")
            )
        }
    }

    /// Reads at most `count` bytes from the start of the file at `path`; `nil` when there is no
    /// such file.
    static func readPrefix(atPath path: String, count: Int) throws(ArchiveStorageError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw DurableFile.failure("open", path: path)
        }
        defer { _ = close(descriptor) }
        // Never trust `count` beyond the file's size: it may come from a damaged header.
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw DurableFile.failure("fstat", path: path) }
        let count = min(count, max(0, Int(status.st_size)))
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress.map { $0 + filled }, count - filled, off_t(filled))
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw DurableFile.failure("pread", path: path)
            }
            if result == 0 { break }
            filled += result
        }
        return Array(bytes[..<filled])
    }

    /// Removes the file at `path`; returns `false` when there was none.
    static func removeFile(atPath path: String) throws(ArchiveStorageError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw DurableFile.failure("unlink", path: path)
    }

    /// Whether opening the file at `path` for reading fails with `EPERM`: what a protected file
    /// gives while the device is locked.
    static func isOpenRefused(atPath path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == EPERM }
        _ = close(descriptor)
        return false
    }

    /// Whether something exists at `path`.
    static func fileExists(atPath path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether `path` is on a file system mounted read-only: `access(2)` for writing fails with
    /// `EROFS` (whatever the caller's privileges, unlike file modes, which do not stop root).
    static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        access(path, W_OK) != 0 && errno == EROFS
    }

    /// Runs `body` holding an exclusive `flock` on the directory at `path` (which excludes other
    /// processes, and other threads: each call opens the directory afresh).
    static func withDirectoryLock<R>(
        _ path: String,
        _ body: () throws(ArchiveStorageError) -> R
    ) throws(ArchiveStorageError) -> R {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DurableFile.failure("open", path: path) }
        defer { _ = close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw DurableFile.failure("flock", path: path)
        }
        return try body()
    }

    /// The size of the file at `path`; `nil` when there is none.
    static func fileSize(atPath path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_size)
    }

    /// Whether a process with the given identifier exists.
    static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// The size, modification time and inode of a file, as ``status(atPath:)`` reads them.
    struct Status: Equatable {
        /// The size in bytes.
        var size: Int
        /// The modification time in seconds since 1970, to the nanosecond the file system keeps.
        var modificationTime: Double
        /// The inode number: a file replaced by a rename has another.
        var inode: UInt64
    }

    /// The status of the file at `path`, or `nil` when there is none (or it cannot be read).
    static func status(atPath path: String) -> Status? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return Status(
            size: Int(status.st_size),
            modificationTime: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9,
            inode: UInt64(status.st_ino)
        )
    }

    /// Sets the modification time of the file at `path` to `seconds` since 1970 (its access time
    /// is left alone); whether it could. A change of metadata only, never flushed to disk here.
    @discardableResult
    static func setModificationTime(atPath path: String, to seconds: Double) -> Bool {
        guard seconds.isFinite, seconds >= 0, seconds < 1e15 else { return false }
        let whole = seconds.rounded(.down)
        var times = [
            timespec(tv_sec: 0, tv_nsec: timeOmitted),
            timespec(tv_sec: time_t(whole), tv_nsec: Int(min(999_999_999, ((seconds - whole) * 1e9).rounded()))),
        ]
        return utimensat(AT_FDCWD, path, &times, 0) == 0
    }

    /// The modification time of the file at `path` in seconds since 1970, or `nil`.
    static func modificationTime(atPath path: String) -> Double? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        #if canImport(Darwin)
        return Double(status.st_mtimespec.tv_sec)
        #else
        return Double(status.st_mtim.tv_sec)
        #endif
    }
}

/// `UTIME_OMIT` from `<sys/stat.h>`, a macro Swift does not import: leaves a time unchanged.
#if canImport(Darwin)
private let timeOmitted = -2
#else
private let timeOmitted = (1 << 30) - 2
#endif
