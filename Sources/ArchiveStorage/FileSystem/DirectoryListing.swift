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

    /// Whether something exists at `path`.
    static func fileExists(atPath path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether a process with the given identifier exists.
    static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
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
