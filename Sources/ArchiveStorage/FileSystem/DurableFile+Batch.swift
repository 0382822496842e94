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

extension DurableFile {
    /// Writes each of `contents` to a new temporary file in `directory` and returns their paths,
    /// in order; when `durable`, every file is on stable storage when this returns.
    ///
    /// All files are written before any is flushed, so the kernel can schedule their writeback
    /// together. Each is then flushed with `fsync`: that flushes exactly these files (where
    /// `syncfs` would also flush every other process's dirty data on the file system, which made
    /// it no faster here and unbounded on a busy machine). On Apple platforms each file gets a
    /// plain `fsync` and only the last an `F_FULLFSYNC`, which flushes the drive's cache for all
    /// of them at once: the drive-cache flush is the expensive part there.
    ///
    /// On failure, every temporary file already made is removed.
    static func writeTemporaries(
        inDirectory directory: String,
        contents: [[UInt8]],
        durable: Bool
    ) throws(ArchiveStorageError) -> [String] {
        var paths: [String] = []
        var descriptors: [Int32] = []
        paths.reserveCapacity(contents.count)
        descriptors.reserveCapacity(contents.count)
        func abandon() {
            for descriptor in descriptors { _ = close(descriptor) }
            for path in paths { _ = unlink(path) }
        }
        do throws(ArchiveStorageError) {
            for bytes in contents {
                let path = directory + "/.tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
                let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else { throw failure("open", path: path) }
                paths.append(path)
                descriptors.append(descriptor)
                try writeAll(bytes, to: descriptor, path: path)
            }
            if durable {
                for (index, descriptor) in descriptors.enumerated() {
                    #if canImport(Darwin)
                    if index == descriptors.count - 1 {
                        try sync(descriptor, path: paths[index])
                    } else if fsync(descriptor) != 0 {
                        throw failure("fsync", path: paths[index])
                    }
                    #else
                    try sync(descriptor, path: paths[index])
                    #endif
                }
            }
        } catch {
            abandon()
            throw error
        }
        var firstFailure: ArchiveStorageError?
        for (index, descriptor) in descriptors.enumerated() where close(descriptor) != 0 {
            firstFailure = firstFailure ?? failure("close", path: paths[index])
        }
        if let firstFailure {
            for path in paths { _ = unlink(path) }
            throw firstFailure
        }
        return paths
    }
}
