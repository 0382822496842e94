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
import Testing

@testable import ArchiveStorage

@Suite struct ArchiveStoreTests {
    @Test(arguments: testedBackends) func savesLoadsListsAndRemoves(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Profile> = try openStore(directory)
        #expect(try store.load(forKey: "ada") == nil)
        #expect(try !store.contains("ada"))
        try store.save(Profile(name: "Ada", visits: 1), forKey: "ada")
        try store.save(Profile(name: "Bob", visits: 2, tags: ["x"]), forKey: "bob")
        #expect(try store.load(forKey: "ada") == Profile(name: "Ada", visits: 1))
        #expect(try store.contains("bob"))
        #expect(try store.keys() == ["ada", "bob"])
        try store.save(Profile(name: "Ada", visits: 5), forKey: "ada")
        #expect(try store.load(forKey: "ada")?.visits == 5)
        try store.remove(forKey: "ada")
        try store.remove(forKey: "never-there")
        #expect(try store.load(forKey: "ada") == nil)
        #expect(try store.keys() == ["bob"])
        try store.removeAll()
        #expect(try store.keys().isEmpty)
        #expect(try store.load(forKey: "bob") == nil)
        store.waitForBackgroundMaintenance()
        #expect(directoryNames(directory.storePath) == storeFileNames(backend))
    }

    @Test(arguments: testedBackends) func unusualKeysRoundTripAndSurviveARelaunch(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let keys = [
            "", "/", "..", ".", "a/../b", "\u{0}", "NUL\u{0}inside", "🐱‍👤", "Case", "case", "CASE", "é", "e\u{301}",
            String(repeating: "long", count: 100), String(repeating: "🐱", count: 300), "%2f", "_a", "k-x", "h-y",
        ]
        do {
            let store: ArchiveStore<String> = try openStore(directory)
            for (index, key) in keys.enumerated() { try store.save("value \(index)", forKey: key) }
            for (index, key) in keys.enumerated() { #expect(try store.load(forKey: key) == "value \(index)") }
        }
        let reopened: ArchiveStore<String> = try openStore(directory)
        // Keys compare by their UTF-8 bytes: "é" and "e\u{301}" are two keys.
        let listed = try reopened.keys()
        #expect(
            listed.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
                == keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        )
        for (index, key) in keys.enumerated() {
            #expect(try reopened.load(forKey: key) == "value \(index)", "key \(key.debugDescription)")
        }
        // Every file name stays within the limit and apart when case is ignored.
        guard backend == .files else { return }
        let names = directoryNames(directory.storePath)
        #expect(names.allSatisfy { $0.utf8.count <= 255 })
        #expect(Set(names.map { $0.lowercased() }).count == names.count)
    }

    @Test(arguments: testedBackends) func updateReadsModifiesWritesAndRemoves(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        let first = try store.update(forKey: "n") { value -> Int in
            #expect(value == nil)
            value = 1
            return 10
        }
        #expect(first == 10)
        try store.update(forKey: "n") { $0 = ($0 ?? 0) + 41 }
        #expect(try store.load(forKey: "n") == 42)
        struct Refusal: Error {}
        #expect(throws: Refusal.self) {
            try store.update(forKey: "n") { value in
                value = 0
                throw Refusal()
            }
        }
        #expect(try store.load(forKey: "n") == 42)
        try store.update(forKey: "n") { $0 = nil }
        #expect(try !store.contains("n"))
    }

    /// After `close()` every call throws `storeClosed`, and no file of the store is open; another
    /// instance goes on.
    @Test(arguments: testedBackends) func closeReleasesTheStoresFilesAndLaterCallsThrow(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory) { $0.memoryCountLimit = 0 }
        let other: ArchiveStore<Int> = try openStore(directory)
        try store.save(1, forKey: "a")
        #expect(try store.load(forKey: "a") == 1)
        #expect(try store.keys() == ["a"])
        // The other instance's maintenance opens connections of its own: let it finish first, or
        // the files it opens after this count would hide the ones closing this instance releases.
        store.waitForBackgroundMaintenance()
        other.waitForBackgroundMaintenance()
        let opened = openFiles(under: directory.storePath)
        store.close()
        store.close()
        let calls: [() throws -> Void] = [
            { _ = try store.load(forKey: "a") }, { try store.save(2, forKey: "a") }, { _ = try store.keys() },
        ]
        for call in calls {
            let error = #expect(throws: ArchiveStorageError.self, performing: call)
            #expect(error?.code == .storeClosed, "\(String(describing: error))")
        }
        let left = openFiles(under: directory.storePath)
        if backend == .sqlite { #expect(opened.count > left.count, "\(opened) before, \(left) after") }
        // The other instance's connections are all that is left.
        other.close()
        #expect(openFiles(under: directory.storePath) == [])
        let reopened: ArchiveStore<Int> = try openStore(directory)
        #expect(try reopened.load(forKey: "a") == 1)
    }

    /// A batch of pairs keeps keys that are canonically equivalent but byte-different apart, as
    /// single saves do; a key repeated byte for byte keeps its last value.
    @Test(arguments: testedBackends) func batchSaveKeepsByteDifferentKeysApart(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory) { $0.memoryCountLimit = 0 }
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        try store.save([(composed, 1), (decomposed, 2), ("x", 3), ("x", 4)])
        #expect(try store.load(forKey: composed) == 1)
        #expect(try store.load(forKey: decomposed) == 2)
        #expect(try store.load(forKey: "x") == 4)
        #expect(try store.keys().count == 3)
    }

    /// A write from an update body of the same store throws, on the update's own key (which
    /// would wait for itself) and on another (which, on the SQLite backend, entered GRDB's
    /// transaction again: a trap); the update then writes its own value.
    @Test(arguments: testedBackends) func aWriteFromAnUpdateBodyThrowsNestedWrite(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        let other: ArchiveStore<Int> = try openStore(directory)
        for (writer, key) in [(store, "a"), (store, "b"), (other, "a"), (other, "b")] {
            try store.update(forKey: "a") { (value: inout Int?) throws in
                let error = #expect(throws: ArchiveStorageError.self) { try writer.save(1, forKey: key) }
                #expect(error?.code == .nestedWrite, "\(String(describing: error))")
                #expect(try writer.load(forKey: "b") == nil)
                value = (value ?? 0) + 10
            }
        }
        #expect(try store.load(forKey: "a") == 40)
        #expect(try store.load(forKey: "b") == nil)
    }

    @Test(arguments: testedBackends) func batchSaveWritesEveryEntryAndLeavesNoTemporaryFiles(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Profile> = try openStore(directory)
        try store.save(Profile(name: "old", visits: 0), forKey: "p7")
        var batch: [String: Profile] = [:]
        for index in 0..<150 { batch["p\(index)"] = Profile(name: "P\(index)", visits: index) }
        try store.save(batch)
        try store.save([:])
        #expect(try store.keys().count == 150)
        for index in 0..<150 {
            #expect(try store.load(forKey: "p\(index)") == Profile(name: "P\(index)", visits: index))
        }
        store.waitForBackgroundMaintenance()
        #expect(!directoryNames(directory.storePath).contains { $0.hasPrefix(".tmp-") })
    }

    @Test(arguments: testedBackends) func everyBuiltInAndCustomFormatRoundTrips(backend: ArchiveStoreBackend) throws {
        let counter = CallCounter()
        for format in ArchiveValueFormat.builtIn + [counter.format()] {
            let directory = TemporaryDirectory(backend: backend)
            defer { directory.remove() }
            let store: ArchiveStore<Profile> = try openStore(directory) { $0.format = format }
            let value = Profile(name: "Ada ✓", visits: 3, tags: ["a", "b"])
            try store.save(value, forKey: "k")
            #expect(try store.load(forKey: "k") == value, "\(format.identifier)")
            #expect(try store.info(forKey: "k")?.formatIdentifier == format.identifier)
        }
        #expect(counter.encodes == 1)
        #expect(counter.decodes == 1)
    }

    @Test(arguments: testedBackends) func entriesOfAnotherKnownFormatStayReadableAndUnknownOnesAreReported(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let counter = CallCounter()
        let custom: ArchiveStore<Profile> = try openStore(directory) { $0.format = counter.format() }
        try custom.save(Profile(name: "custom", visits: 1), forKey: "custom")
        let json: ArchiveStore<Profile> = try openStore(directory) { $0.format = .json }
        try json.save(Profile(name: "json", visits: 2), forKey: "json")
        let binary: ArchiveStore<Profile> = try openStore(directory)
        #expect(try binary.load(forKey: "json")?.name == "json")
        let error = #expect(throws: ArchiveStorageError.self) { try binary.load(forKey: "custom") }
        #expect(error?.code == .unrecognizedFormat)
        #expect(error?.key == "custom")
        let knowing: ArchiveStore<Profile> = try openStore(directory) { $0.additionalFormats = [counter.format()] }
        #expect(try knowing.load(forKey: "custom")?.name == "custom")
    }

    @Test(arguments: testedBackends) func schemaVersionIsRecordedPerEntry(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let version1: ArchiveStore<Profile> = try openStore(directory) { $0.schemaVersion = 1 }
        try version1.save(Profile(name: "old", visits: 1), forKey: "old")
        let version2: ArchiveStore<Profile> = try openStore(directory) { $0.schemaVersion = 2 }
        try version2.save(Profile(name: "new", visits: 1), forKey: "new")
        #expect(try version2.info(forKey: "old")?.schemaVersion == 1)
        let info = try #require(try version2.info(forKey: "new"))
        #expect(info.schemaVersion == 2)
        #expect(info.key == "new")
        #expect(info.expirationDate == nil)
        #expect(info.formatIdentifier == "keyed-archive.binary")
        #expect(try version2.info(forKey: "missing") == nil)
        // The entry file's size; on SQLite, the payload's, as the database holds it.
        if backend == .files {
            let size = try FileManager.default.attributesOfItem(atPath: directory.storePath + "/k-new")[.size] as? Int
            #expect(info.byteCount == size)
        } else {
            let size = try sqlite3(
                directory.storePath + "/entries.sqlite",
                "SELECT length(payload) FROM entry WHERE key = X'6e6577';"
            )
            #expect(info.byteCount == Int(size))
        }
    }

    @Test(arguments: testedBackends) func wrongValueTypesAndEncodingFailuresAreTypedErrors(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let strings: ArchiveStore<String> = try openStore(directory) { $0.format = .json }
        try strings.save("text", forKey: "k")
        let profiles: ArchiveStore<Profile> = try openStore(directory) { $0.format = .json }
        let decoding = #expect(throws: ArchiveStorageError.self) { try profiles.load(forKey: "k") }
        #expect(decoding?.code == .decodingFailed)
        let doubles: ArchiveStore<Double> = try openStore(directory) { $0.format = .json }
        let encoding = #expect(throws: ArchiveStorageError.self) { try doubles.save(.nan, forKey: "nan") }
        #expect(encoding?.code == .encodingFailed)
        #expect(try !doubles.contains("nan"))
    }

    @Test(arguments: testedBackends) func invalidNamesAndFormatsAreRejected(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        for name in ["", ".", "..", "a/b", "nul\u{0}", String(repeating: "n", count: 256)] {
            let error = #expect(throws: ArchiveStorageError.self) {
                try ArchiveStore<Int>(name: name, in: .path(directory.path))
            }
            #expect(error?.code == .invalidConfiguration)
        }
        var configuration = ArchiveStoreConfiguration()
        configuration.format = ArchiveValueFormat(identifier: "", encode: { _ in Data() }, decode: { _, _ in 0 })
        let error = #expect(throws: ArchiveStorageError.self) {
            try ArchiveStore<Int>(name: "s", in: .path(directory.path), configuration: configuration)
        }
        #expect(error?.code == .invalidConfiguration)
        let file = directory.path + "/file"
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        let notDirectory = #expect(throws: ArchiveStorageError.self) {
            try ArchiveStore<Int>(name: "s", in: .path(file))
        }
        #expect(notDirectory?.code == .fileSystem)
    }

    @Test(arguments: testedBackends) func memoryLimitsBoundWhatStaysDecoded(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let counter = CallCounter()
        let store: ArchiveStore<String> = try openStore(directory) {
            $0.format = counter.format()
            $0.memoryCountLimit = 2
        }
        for key in ["a", "b", "c"] { try store.save(key, forKey: key) }
        for key in ["a", "b", "a", "b"] { _ = try store.load(forKey: key) }
        #expect(counter.decodes == 2)
        _ = try store.load(forKey: "c")  // evicts "a", the least recently used
        _ = try store.load(forKey: "b")
        #expect(counter.decodes == 3)
        _ = try store.load(forKey: "a")
        #expect(counter.decodes == 4)
        // A save drops the cached value: the next load decodes what the file holds.
        try store.save("new", forKey: "a")
        #expect(try store.load(forKey: "a") == "new")
        #expect(counter.decodes == 5)

        let small: ArchiveStore<String> = try openStore(directory) {
            $0.format = counter.format()
            $0.memoryCostLimit = 2  // smaller than any entry file or payload
        }
        _ = try small.load(forKey: "b")
        _ = try small.load(forKey: "b")
        #expect(counter.decodes == 7)
    }

    @Test(arguments: testedBackends) func asyncFormsMatchTheSynchronousOnes(backend: ArchiveStoreBackend) async throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<Int> = try openStore(directory)
        try await store.save(1, forKey: "a")
        try await store.save(["b": 2, "c": 3])
        #expect(try await store.load(forKey: "a") == 1)
        #expect(try await store.load(forKey: "a") == 1)
        #expect(try await store.contains("b"))
        #expect(try await store.keys() == ["a", "b", "c"])
        #expect(try await store.info(forKey: "c")?.key == "c")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask { try await store.update(forKey: "a") { $0 = ($0 ?? 0) + 1 } }
            }
            try await group.waitForAll()
        }
        #expect(try await store.load(forKey: "a") == 21)
        try await store.remove(forKey: "a")
        #expect(try await store.purgeExpired() == 0)
        #expect(try await store.moveCorruptEntriesAside().isEmpty)
        await store.waitForBackgroundMaintenance()
        try await store.removeAll()
        #expect(try await store.keys().isEmpty)
    }

    @Test(arguments: testedBackends) func nonDurableStoresStillReplaceAtomically(backend: ArchiveStoreBackend) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let store: ArchiveStore<[Int]> = try openStore(directory) { $0.isDurable = false }
        try store.save([1, 2, 3], forKey: "k")
        try store.save(["a": [1], "b": [2]])
        try store.update(forKey: "k") { $0?.append(4) }
        #expect(try store.load(forKey: "k") == [1, 2, 3, 4])
        #expect(try store.keys() == ["a", "b", "k"])
    }
}
