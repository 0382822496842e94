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

/// Several processes on one directory: the memory cache across processes, racing updates, and
/// crashes in the middle of writes. The second process is `storage-probe` (Tests/StorageProbe).
@Suite struct ArchiveStoreProcessTests {
    @Test(.enabled(if: ChildProcesses.areAvailable), arguments: testedBackends)
    func aValueSavedByAnotherProcessIsSeenByTheNextLoad(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let counter = CallCounter()
        let store: ArchiveStore<String> = try openStore(directory) { $0.format = counter.format() }
        try store.save("mine", forKey: "shared")
        for _ in 0..<5 { #expect(try store.load(forKey: "shared") == "mine") }
        #expect(counter.decodes == 1)  // hot reads come from memory
        for round in 0..<3 {
            let saved = try StorageProbe.run(["store-save", directory.path, "shared", "theirs \(round)"])
            #expect(saved.status == 0, "\(saved.stderr)")
            #expect(try store.load(forKey: "shared") == "theirs \(round)")
            #expect(try store.load(forKey: "shared") == "theirs \(round)")
        }
        // Another key's write leaves this one cached unless they share a generation slot.
        #expect(try StorageProbe.run(["store-save", directory.path, "unrelated", "x"]).status == 0)
        #expect(try store.load(forKey: "shared") == "theirs 2")
        // A removal by another instance (a separate mapping, as in another process) is seen too.
        let other: ArchiveStore<String> = try openStore(directory)
        try other.remove(forKey: "shared")
        #expect(try store.load(forKey: "shared") == nil)
        try store.save("back", forKey: "shared")
        #expect(try store.load(forKey: "shared") == "back")
        // The probe does not know this test's format, and says so.
        let loaded = try StorageProbe.run(["store-load", directory.path, "shared"])
        #expect(loaded.status == 1)
        #expect(loaded.stderr.contains("unrecognizedFormat"))
    }

    @Test(.enabled(if: ChildProcesses.areAvailable), arguments: testedBackends)
    func racingUpdatesFromThreadsAndProcessesLoseNothing(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let keys = 3
        let perProcess = 60
        let threads = 4
        let perThread = 30
        let store: ArchiveStore<Int> = try openStore(directory)
        let probes = try (0..<2).map { _ in
            try StorageProbe.start(["store-increment", directory.path, "\(keys)", "\(perProcess)"])
        }
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            do {
                // Every other thread uses an instance of its own: instances in one process must
                // exclude one another as processes do.
                let own: ArchiveStore<Int> = thread.isMultiple(of: 2) ? store : try openStore(directory)
                for index in 0..<perThread {
                    try own.update(forKey: "counter\((index + thread) % keys)") { $0 = ($0 ?? 0) + 1 }
                }
            } catch {
                failures.withLock { $0.append("thread \(thread): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        for probe in probes {
            let output = probe.output.fileHandleForReading.readDataToEndOfFile()
            let error = probe.error.fileHandleForReading.readDataToEndOfFile()
            probe.process.waitUntilExit()
            #expect(probe.process.terminationStatus == 0, "\(String(decoding: error, as: UTF8.self))")
            #expect(String(decoding: output, as: UTF8.self) == "done\n")
        }
        var total = 0
        for key in 0..<keys {
            total += try store.load(forKey: "counter\(key)") ?? 0
        }
        #expect(total == 2 * perProcess + threads * perThread)
        // Each key's count is exact too.
        var expected = [Int](repeating: 0, count: keys)
        for index in 0..<perProcess { expected[index % keys] += 2 }
        for thread in 0..<threads { for index in 0..<perThread { expected[(index + thread) % keys] += 1 } }
        for key in 0..<keys { #expect(try store.load(forKey: "counter\(key)") == expected[key]) }
    }

    @Test(.enabled(if: ChildProcesses.areAvailable), arguments: testedBackends) func killedWritersLeaveOnlyWholeValues(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        let keys = 5
        var acknowledged: [String: Int] = [:]
        var kills = 0
        // Created here, so that the probes open it on the backend under test.
        _ = try openStore(directory, as: String.self)
        for run in 0..<24 {
            // Steps grow from run to run; the first key written rotates (1,000,003 is 3 modulo 5).
            let base = run * 1_000_003
            let probe = try StorageProbe.start(["store-write-loop", directory.path, "\(keys)", "\(base)"])
            // Wait for the probe's first completed save, however slow its start, then kill it at a
            // random instant of its write loop.
            var data = probe.output.fileHandleForReading.availableData
            usleep(UInt32.random(in: 0...40_000))
            kill(probe.process.processIdentifier, SIGKILL)
            probe.process.waitUntilExit()
            if probe.process.terminationReason == .uncaughtSignal { kills += 1 }
            data += probe.output.fileHandleForReading.readDataToEndOfFile()
            let output = String(decoding: data, as: UTF8.self)
            for line in output.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count == 2, let step = Int(fields[1]) else { continue }
                acknowledged[String(fields[0])] = max(acknowledged[String(fields[0])] ?? -1, step)
            }
            // Every key holds one whole value a writer wrote, at least as new as the last save
            // that returned, and never a corrupt entry.
            let store: ArchiveStore<String> = try openStore(directory)
            for index in 0..<keys {
                let key = "key\(index)"
                let value: String?
                do {
                    value = try store.load(forKey: key)
                } catch {
                    Issue.record("run \(run), \(key): \(error)")
                    continue
                }
                guard let value else {
                    #expect(acknowledged[key] == nil, "run \(run), \(key) lost its value")
                    continue
                }
                let fields = value.split(separator: "#", maxSplits: 2)
                let step = fields.count == 3 ? Int(fields[1]) : nil
                guard let step, value == crashValue(key: key, sequence: step) else {
                    Issue.record("run \(run), \(key) holds a torn value")
                    continue
                }
                #expect(step >= acknowledged[key] ?? -1, "run \(run), \(key) went back to \(step)")
                #expect(step < base + 1_000_003)
            }
            // Nothing damaged anywhere: the database file (SQLite's integrity check) and every entry.
            do {
                let report = try store.verifyIntegrity()
                #expect(report.isIntact, "run \(run): \(report.damagedEntries)")
                #expect((acknowledged.count...keys).contains(report.checkedEntryCount))
            } catch {
                Issue.record("run \(run): \(error)")
            }
        }
        #expect(kills >= 20)
        #expect(acknowledged.count == keys)
        let store: ArchiveStore<String> = try openStore(directory)
        store.waitForBackgroundMaintenance()
        #expect(!directoryNames(directory.storePath).contains { $0.hasPrefix(".tmp-") })
    }

    /// A full disk, as a file size limit (`RLIMIT_FSIZE`) in a second process: SQLite's database
    /// or WAL outgrows it, or on the files backend an entry file larger than it is written. A
    /// save that fails throws ``ArchiveStorageError/Code/database`` on SQLite (SQLite's
    /// `SQLITE_FULL` or I/O error) and ``ArchiveStorageError/Code/fileSystem`` on files (`EFBIG`),
    /// and changes nothing; every save that returned is kept.
    @Test(.enabled(if: ChildProcesses.areAvailable), arguments: testedBackends)
    func savesPastAFileSizeLimitFailWithATypedErrorAndKeepTheRest(
        backend: ArchiveStoreBackend
    ) throws {
        let directory = TemporaryDirectory(backend: backend)
        defer { directory.remove() }
        // Created here, so that the probe opens it on the backend under test.
        _ = try openStore(directory, as: String.self)
        // 256 KiB: SQLite's WAL outgrows it after 9 saves of 4 KiB (each commit, with
        // `synchronous = FULL`, adds about 29 KB to the WAL here); on files, only the entry of
        // 1 MB does.
        let probe = try StorageProbe.run([
            "store-fill-limited", directory.path, "\(256 * 1024)", "100x4096", "1x1000000", "5x4096",
        ])
        #expect(probe.status == 0, "\(probe.stderr)")
        var saved: [String: String] = [:]
        var failed: [String: String] = [:]
        var sizes = [Int](repeating: 4096, count: 106)
        sizes[100] = 1_000_000
        for line in probe.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, fields[0].hasPrefix("fill"), let index = Int(fields[0].dropFirst(4)) else {
                Issue.record("unexpected line \(line)")
                continue
            }
            let key = String(fields[0])
            if fields[1] == "saved" {
                saved[key] = fillValue(key: key, size: sizes[index])
            } else {
                failed[key] = String(fields[1])
            }
        }
        #expect(saved.count + failed.count == sizes.count)
        #expect(saved.count >= 8)
        #expect(failed["fill100"] != nil)
        let code = backend == .files ? ArchiveStorageError.Code.fileSystem : .database
        #expect(Set(failed.values) == ["\(code)"], "\(probe.stderr)")
        if backend == .files {
            #expect(probe.stderr.contains("write: File too large"), "\(probe.stderr)")
            // The failed write removed its temporary file.
            #expect(!directoryNames(directory.storePath).contains { $0.hasPrefix(".tmp-") })
        }

        // Without the limit: what was saved is there, exactly; what failed is not; nothing is damaged.
        let store: ArchiveStore<String> = try openStore(directory)
        for (key, value) in saved { #expect(try store.load(forKey: key) == value, "\(key)") }
        for key in failed.keys { #expect(try store.load(forKey: key) == nil, "\(key)") }
        let report = try store.verifyIntegrity()
        #expect(report == ArchiveIntegrityReport(checkedEntryCount: saved.count, damagedEntries: []))
        try store.save("after", forKey: "fill100")
        #expect(try store.load(forKey: "fill100") == "after")
    }
}
