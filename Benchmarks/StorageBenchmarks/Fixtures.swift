//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArchiveStorage
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stores and baseline tables of N entries that benchmarks read, built once and kept between
/// benchmark processes and runs.
///
/// ordo-one/benchmark runs every benchmark in a process of its own, and a store of a million
/// entries takes from seconds (SQLite) to minutes (files) to build, so a fixture is built by the
/// first benchmark that needs it, in `STORAGE_BENCHMARKS_FIXTURES` or else
/// `$TMPDIR/StorageBenchmarks-fixtures-v1`, and reused by later ones. It is built non-durably (the
/// content is the same) under a lock, and counts only once its folder holds the file `.complete`.
/// The benchmarks only read fixtures. Delete the folder to rebuild them, for example after a change
/// of the store's layout; change the `-v1` of its name when what the fixtures hold changes.
enum Fixture {
    /// The folder holding the fixtures.
    static let root: String = {
        if let path = ProcessInfo.processInfo.environment["STORAGE_BENCHMARKS_FIXTURES"] { return path }
        let temporary = NSTemporaryDirectory()
        return (temporary.hasSuffix("/") ? temporary : temporary + "/") + "StorageBenchmarks-fixtures-v1"
    }()

    /// The folder holding the store `store` with `entries` entries of `Value` on `backend`.
    static func store<Value: StoredValue>(
        _ backend: ArchiveStoreBackend,
        entries: Int,
        of _: Value.Type = Profile.self
    ) throws -> String {
        try self.prepared("ArchiveStore-\(backend)-\(entries)\(Value.label)") { folder in
            _ = try Workload.fill(
                Workload.batches(entries, of: Value.self),
                in: folder,
                backend: backend,
                isDurable: false
            )
        }
    }

    /// The path of the baseline database with `entries` rows holding the payload of `Value`.
    static func baseline<Value: StoredValue>(entries: Int, of _: Value.Type = Profile.self) throws -> String {
        let folder = try self.prepared("GRDB-\(entries)\(Value.label)") { folder in
            _ = try BaselineTable.fill(entries: entries, of: Value.self, path: folder + "/" + BaselineTable.fileName)
        }
        return folder + "/" + BaselineTable.fileName
    }

    /// The folder `name` in ``root``, which `build` fills when it is not complete.
    private static func prepared(_ name: String, build: (String) throws -> Void) throws -> String {
        let manager = FileManager.default
        try manager.createDirectory(atPath: self.root, withIntermediateDirectories: true)
        let folder = self.root + "/" + name
        let marker = folder + "/.complete"
        // Benchmarks run one after the other, but two runs (two checkouts) may share the folder.
        let lock = open(self.root + "/.lock", O_CREAT | O_RDWR, 0o644)
        guard lock >= 0 else { throw BenchmarkFailure("cannot open \(self.root)/.lock: errno \(errno)") }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { throw BenchmarkFailure("cannot lock \(self.root)/.lock") }
        if manager.fileExists(atPath: marker) { return folder }
        try? manager.removeItem(atPath: folder)
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        FileHandle.standardError.write(Data("StorageBenchmarks: building \(folder)\n".utf8))
        let clock = ContinuousClock()
        let start = clock.now
        try build(folder)
        FileHandle.standardError.write(
            Data("StorageBenchmarks: built \(folder) in \(start.duration(to: clock.now))\n".utf8)
        )
        guard manager.createFile(atPath: marker, contents: Data()) else {
            throw BenchmarkFailure("cannot write \(marker)")
        }
        return folder
    }
}

/// A fresh folder in the temporary directory.
struct ScratchFolder {
    let path = NSTemporaryDirectory() + "StorageBenchmarks-\(UUID().uuidString)"

    func remove() {
        try? FileManager.default.removeItem(atPath: self.path)
    }
}

/// The disk space of a folder.
enum DiskUsage {
    /// The bytes allocated on disk to `path` and, for a folder, to everything in it (as `du`
    /// counts them: whole blocks, the folders' own included).
    static func allocatedBytes(atPath path: String) -> Int {
        var status = stat()
        guard lstat(path, &status) == 0 else { return 0 }
        var total = Int(status.st_blocks) * 512
        if (status.st_mode & S_IFMT) == S_IFDIR {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                total += self.allocatedBytes(atPath: path + "/" + name)
            }
        }
        return total
    }
}

/// A value made on first use and kept until ``reset()``: what a benchmark's setup prepares for
/// its iterations, which run in the same process.
final class Lazy<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private let make: () throws -> Value
    private var value: Value?

    init(_ make: @escaping () throws -> Value) {
        self.make = make
    }

    /// The value, made now if it was not yet.
    func get() throws -> Value {
        try self.lock.withLock {
            if let value { return value }
            let value = try self.make()
            self.value = value
            return value
        }
    }

    /// Drops the value (a store or database is closed when nothing else holds it).
    func reset() {
        self.lock.withLock { self.value = nil }
    }
}

/// A benchmark that found something other than what it set up.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
