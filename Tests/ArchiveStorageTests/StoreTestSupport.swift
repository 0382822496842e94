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

@testable import ArchiveStorage

/// A fresh directory for one test, removed by ``remove()``.
struct TemporaryDirectory: Sendable {
    let path: String

    init(_ label: String = "ArchiveStoreTests") {
        self.path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: self.path, withIntermediateDirectories: true)
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
    configure(&configuration)
    return try ArchiveStore<Value>(name: "store", in: .path(directory.path), configuration: configuration)
}

/// The names in `path`, sorted.
func directoryNames(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

/// The value the crash probe writes (a copy of `crashValue` in Tests/StorageProbe/StoreProbe.swift).
func crashValue(key: String, sequence: Int) -> String {
    let digit = Character(String(sequence % 10))
    return "\(key)#\(sequence)#" + String(repeating: digit, count: 2000 + (sequence * 7919) % 6000)
}
