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

/// A store on a read-only file system: a tmpfs mounted here and remounted read-only, which stops
/// root too (file modes do not). Needs the privilege to mount; skipped without it.
@Suite struct ReadOnlyStoreTests {
    @Test(.enabled(if: ReadOnlyMount.isAvailable), arguments: testedBackends)
    func aStoreOnAReadOnlyFileSystemOpensAndReadsAndRefusesWrites(backend: ArchiveStoreBackend) throws {
        let mount = try ReadOnlyMount()
        defer { mount.remove() }
        let directory = TemporaryDirectory(path: mount.path, backend: backend)
        do {
            let store: ArchiveStore<String> = try openStore(directory)
            try store.save(["a": "value a", "b": "value b"])
            store.waitForBackgroundMaintenance()
        }
        let names = directoryNames(directory.storePath)
        try mount.makeReadOnly()

        let store: ArchiveStore<String> = try openStore(directory)
        #expect(store.backend == backend)
        #expect(try store.load(forKey: "a") == "value a")
        #expect(try store.contains("b"))
        #expect(try store.keys() == ["a", "b"])
        #expect(try store.verifyIntegrity().isIntact)
        let saveError = #expect(throws: ArchiveStorageError.self) { try store.save("new", forKey: "a") }
        #expect(saveError?.code == .readOnly, "\(String(describing: saveError))")
        let removeError = #expect(throws: ArchiveStorageError.self) { try store.remove(forKey: "b") }
        #expect(removeError?.code == .readOnly, "\(String(describing: removeError))")
        #expect(try store.load(forKey: "a") == "value a")
        #expect(directoryNames(directory.storePath) == names)

        // Opened with a limit it is above: reads work, and eviction reports why it cannot run.
        let capped: ArchiveStore<String> = try openStore(directory) { $0.diskByteLimit = 1 }
        #expect(try capped.keys() == ["a", "b"])
        let evictError = #expect(throws: ArchiveStorageError.self) { try capped.evictToDiskByteLimit() }
        #expect(evictError?.code == .readOnly, "\(String(describing: evictError))")
        #expect(directoryNames(directory.storePath) == names)
    }
}

/// A tmpfs mounted at a fresh directory, which a test can remount read-only.
struct ReadOnlyMount {
    let path: String

    /// Whether this process may mount file systems (root, and a `mount` command).
    static let isAvailable: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount") else { return false }
        guard let probe = try? ReadOnlyMount() else { return false }
        probe.remove()
        return true
    }()

    init() throws {
        self.path = NSTemporaryDirectory() + "ReadOnlyMount-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: self.path, withIntermediateDirectories: true)
        try Self.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", self.path])
    }

    func makeReadOnly() throws {
        try Self.run(["mount", "-o", "remount,ro", self.path])
    }

    func remove() {
        try? Self.run(["umount", self.path])
        try? FileManager.default.removeItem(atPath: self.path)
    }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ArchiveStorageError(.fileSystem, reason: "\(arguments.joined(separator: " ")) failed")
        }
    }
}
