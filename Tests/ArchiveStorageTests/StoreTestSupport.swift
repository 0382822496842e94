//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import KeyedArchiving
import TestSupport
import Testing

@testable import ArchiveStorage

#if SQLite && (os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
import GRDB
#endif

/// A fresh directory for one test, removed by ``remove()``.
/// The backends the store-level tests run against.
let testedBackends: [ArchiveStoreBackend] = {
    #if SQLite
    [.files, .sqlite]
    #else
    [.files]
    #endif
}()

struct TemporaryDirectory: Sendable {
    let path: String
    /// The backend of the stores ``openStore(_:as:_:)`` creates here.
    let backend: ArchiveStoreBackend

    init(_ label: String = "ArchiveStoreTests", backend: ArchiveStoreBackend = .files) {
        self.path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString)"
        self.backend = backend
        try? FileManager.default.createDirectory(atPath: self.path, withIntermediateDirectories: true)
    }

    /// The directory at `path`, which exists.
    init(path: String, backend: ArchiveStoreBackend) {
        self.path = path
        self.backend = backend
    }

    /// The directory of the store named "store" inside, as the probes open it.
    var storePath: String { self.path + "/store" }

    func remove() {
        try? FileManager.default.removeItem(atPath: self.path)
    }
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_000_000)) {
        self.current = Locked(start)
    }

    var now: Date { self.current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        self.current.withLock { $0 += seconds }
    }

    var function: @Sendable () -> Date { { self.now } }
}

/// Counts the calls of a format's closures, to tell memory hits from disk reads.
final class CallCounter: Sendable {
    private let counts = Locked((encodes: 0, decodes: 0))

    var encodes: Int { self.counts.withLock { $0.encodes } }
    var decodes: Int { self.counts.withLock { $0.decodes } }

    /// JSON, counting its calls, under its own identifier.
    func format(identifier: String = "test.counting-json") -> ArchiveValueFormat {
        ArchiveValueFormat(
            identifier: identifier,
            encode: { value in
                self.counts.withLock { $0.encodes += 1 }
                return try JSONEncoder().encode(value)
            },
            decode: { type, data in
                self.counts.withLock { $0.decodes += 1 }
                return try JSONDecoder().decode(type, from: data)
            }
        )
    }
}

/// A value with some structure.
struct Profile: Codable, Sendable, Hashable {
    var name: String
    var visits: Int
    var tags: [String] = []
}

/// Opens the store named "store" in `directory` with `configure` applied to its configuration.
func openStore<Value>(
    _ directory: TemporaryDirectory,
    as _: Value.Type = Value.self,
    _ configure: (inout ArchiveStoreConfiguration) -> Void = { _ in }
) throws -> ArchiveStore<Value> {
    var configuration = ArchiveStoreConfiguration()
    configuration.backend = directory.backend
    configure(&configuration)
    return try ArchiveStore<Value>(name: "store", in: .path(directory.path), configuration: configuration)
}

/// The names in `path`, sorted.
/// The files a store on `backend` keeps besides its entries.
func storeFileNames(_ backend: ArchiveStoreBackend) -> [String] {
    backend == .files
        ? [".archive-store"] : [".archive-store", "entries.sqlite", "entries.sqlite-shm", "entries.sqlite-wal"]
}

/// Whether the store in `directory` keeps an entry (expired or not) for `key` on disk: its file,
/// or its row as the `sqlite3` command reads the database.
func isPhysicallyStored(_ key: String, in directory: TemporaryDirectory) throws -> Bool {
    if directory.backend == .files {
        return directoryNames(directory.storePath).contains(EntryFileName(key: key).name)
    }
    let hex = key.utf8.map { String(format: "%02x", $0) }.joined()
    return try sqlite3(directory.storePath + "/entries.sqlite", "SELECT count(*) FROM entry WHERE key = X'\(hex)';")
        == "1"
}

#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
/// What the `sqlite3` command would print for `sql` on the database at `path`: where there is no
/// command to run, the same SQL through GRDB, each row's columns joined by `|`.
func sqlite3(_ path: String, _ sql: String) throws -> String {
    #if SQLite
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    return try queue.writeWithoutTransaction { db in
        var lines: [String] = []
        let statements = try db.allStatements(sql: sql)
        while let statement = try statements.next() {
            // As the command does, parameters left unbound are null.
            statement.setUncheckedArguments(StatementArguments())
            guard statement.columnCount > 0 else {
                try statement.execute()
                continue
            }
            for row in try Row.fetchAll(statement) {
                lines.append(
                    row.databaseValues.map { value in
                        switch value.storage {
                        case .null: ""
                        case .int64(let integer): String(integer)
                        case .double(let double): String(double)
                        case .string(let string): string
                        case .blob(let data): String(decoding: data, as: UTF8.self)
                        }
                    }.joined(separator: "|")
                )
            }
        }
        return lines.joined(separator: "\n")
    }
    #else
    throw Process.Unavailable()
    #endif
}
#else
/// What the `sqlite3` command prints for `sql` on the database at `path`, trimmed.
func sqlite3(_ path: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // A store opening in the test may still hold SQLite's write lock for a moment (its background
    // purge): wait for it as the store's own connections do, rather than fail with SQLITE_BUSY.
    process.arguments = ["sqlite3", "-cmd", ".timeout 5000", path, sql]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
#endif

func directoryNames(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

/// The value the crash probe writes (a copy of `crashValue` in Tests/StorageProbe/StoreProbe.swift).
func crashValue(key: String, sequence: Int) -> String {
    let digit = Character(String(sequence % 10))
    return "\(key)#\(sequence)#" + String(repeating: digit, count: 2000 + (sequence * 7919) % 6000)
}

/// The value `storage-probe store-fill-limited` saves (a copy of `fillValue` in
/// Tests/StorageProbe/StoreProbe.swift).
func fillValue(key: String, size: Int) -> String {
    "\(key)#" + String(repeating: Character(String(key.utf8.count % 10)), count: size)
}

/// How ``damageEntry(_:in:_:)`` damages an entry.
enum EntryDamage: Sendable {
    /// The payload's last byte changes; the checksum stays.
    case flippedPayloadByte
    /// The entry loses its last three bytes (on SQLite, its payload's).
    case truncated
}

/// Damages the stored entry of `key` in the store of `directory`, as a failing disk would: on the
/// files backend in its file, on SQLite in its row's payload, through the `sqlite3` command
/// (the checksum column stays as it was).
func damageEntry(_ key: String, in directory: TemporaryDirectory, _ damage: EntryDamage = .flippedPayloadByte) throws {
    if directory.backend == .files {
        let url = URL(fileURLWithPath: directory.storePath + "/" + EntryFileName(key: key).name)
        var bytes = [UInt8](try Data(contentsOf: url))
        switch damage {
        case .flippedPayloadByte: bytes[bytes.count - 5] ^= 0x01  // before the 4-byte CRC
        case .truncated: bytes.removeLast(3)
        }
        try Data(bytes).write(to: url)
        return
    }
    let hex = key.utf8.map { String(format: "%02x", $0) }.joined()
    let change =
        switch damage {
        case .flippedPayloadByte:
            """
            CAST(substr(payload, 1, length(payload) - 1)
                || CASE WHEN substr(payload, -1) = X'00' THEN X'01' ELSE X'00' END AS BLOB)
            """
        case .truncated:
            "substr(payload, 1, length(payload) - 3)"
        }
    let database = directory.storePath + "/entries.sqlite"
    let changed = try sqlite3(database, "UPDATE entry SET payload = \(change) WHERE key = X'\(hex)'; SELECT changes();")
    try #require(changed == "1", "no row of \(key.debugDescription) to damage")
}

/// How many damaged entries the store of `directory` moved aside: files in its `Corrupt` folder,
/// or rows of its `quarantine` table.
func movedAsideCount(in directory: TemporaryDirectory) throws -> Int {
    if directory.backend == .files { return directoryNames(directory.storePath + "/Corrupt").count }
    return Int(try sqlite3(directory.storePath + "/entries.sqlite", "SELECT count(*) FROM quarantine;")) ?? -1
}

/// The contents of the files of the store in `directory` that hold entries (every file but the
/// control file and SQLite's shared-memory index, which readers write), by name.
func storedFiles(in directory: TemporaryDirectory) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in directoryNames(directory.storePath) where name != ".archive-store" && !name.hasSuffix("-shm") {
        var isDirectory: ObjCBool = false
        let path = directory.storePath + "/" + name
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            continue
        }
        files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
    }
    return files
}

/// The files under `path` that this process holds open, as `/proc/self/fd` lists them (Linux);
/// sorted, one entry per descriptor.
func openFiles(under path: String) -> [String] {
    #if canImport(Darwin)
    // No `/proc` here: ask each descriptor its path (`F_GETPATH`); paths come back with symbolic
    // links resolved (`/private/var` for `/var`).
    let prefixes = [path + "/", URL(fileURLWithPath: path).resolvingSymlinksInPath().path + "/"]
    var paths: [String] = []
    for descriptor in 0..<getdtablesize() {
        var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
        guard fcntl(descriptor, F_GETPATH, &buffer) != -1 else { continue }
        let target = String(cString: buffer)
        if prefixes.contains(where: target.hasPrefix) { paths.append(target) }
    }
    return paths.sorted()
    #else
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return descriptors.compactMap { descriptor in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + descriptor),
            target.hasPrefix(path + "/")
        else { return nil }
        return target
    }.sorted()
    #endif
}
