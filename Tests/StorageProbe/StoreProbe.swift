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

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The ArchiveStore probes. Each opens the store named "store" in the directory DIR.

/// Argument errors of the store probes.
struct StoreProbeError: Error, CustomStringConvertible {
    var description: String
}

/// The value the crash probes write for `key` at step `sequence`: it names both, and its length and
/// filler vary with the step, so a torn or mixed file never passes ``crashValueSequence(_:key:)``.
func crashValue(key: String, sequence: Int) -> String {
    let digit = Character(String(sequence % 10))
    return "\(key)#\(sequence)#" + String(repeating: digit, count: 2000 + (sequence * 7919) % 6000)
}

/// The step a crash-probe value was written at, or `nil` when it is not exactly such a value.
func crashValueSequence(_ value: String, key: String) -> Int? {
    let fields = value.split(separator: "#", maxSplits: 2, omittingEmptySubsequences: false)
    guard fields.count == 3, fields[0] == key, let sequence = Int(fields[1]) else { return nil }
    return value == crashValue(key: key, sequence: sequence) ? sequence : nil
}

/// Writes `line` and a newline to standard output at once (unbuffered, so a killed probe loses
/// nothing it reported).
private func report(_ line: String) {
    let text = line + "\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(1, $0.baseAddress, $0.count - 1) }
}

/// Opens the store; a new one takes the backend named by `STORAGE_PROBE_BACKEND` (`files`, the
/// default, or `sqlite`), an existing one keeps its own.
private func openStore<Value>(_ directory: String, as _: Value.Type = Value.self) throws -> ArchiveStore<Value> {
    var configuration = ArchiveStoreConfiguration()
    switch getenv("STORAGE_PROBE_BACKEND").map({ String(cString: $0) }) ?? "files" {
    case "files":
        configuration.backend = .files
    #if SQLite
    case "sqlite":
        configuration.backend = .sqlite
    #endif
    case let other:
        throw StoreProbeError(description: "STORAGE_PROBE_BACKEND=\(other) is not a backend of this build")
    }
    return try ArchiveStore<Value>(name: "store", in: .path(directory), configuration: configuration)
}

private func integer(_ text: String, _ usage: String) throws -> Int {
    guard let value = Int(text) else { throw StoreProbeError(description: "usage: \(usage)") }
    return value
}

/// `store-write-loop DIR KEYS BASE`: saves ``crashValue(key:sequence:)`` values for the keys
/// `key0`…`key<KEYS-1>` forever, with steps BASE, BASE+1, …; every seventh step is a batch save of
/// three keys. After each save returns it prints `KEY STEP` for each key written.
func storeWriteLoop(_ arguments: [String]) throws {
    let usage = "store-write-loop DIR KEYS BASE"
    guard arguments.count == 3 else { throw StoreProbeError(description: "usage: \(usage)") }
    let store: ArchiveStore<String> = try openStore(arguments[0])
    let keyCount = try integer(arguments[1], usage)
    let base = try integer(arguments[2], usage)
    var step = base
    while true {
        if step % 7 == 0 {
            let keys = (0..<3).map { "key\((step + $0) % keyCount)" }
            var batch: [String: String] = [:]
            for key in keys { batch[key] = crashValue(key: key, sequence: step) }
            try store.save(batch)
            for key in Set(keys) { report("\(key) \(step)") }
        } else {
            let key = "key\(step % keyCount)"
            try store.save(crashValue(key: key, sequence: step), forKey: key)
            report("\(key) \(step)")
        }
        step += 1
    }
}

/// `store-verify DIR KEYS`: loads every key `key0`…`key<KEYS-1>` and prints `KEY STEP` for each
/// (`KEY -` when absent); fails on any error or on a value no crash probe writes.
func storeVerify(_ arguments: [String]) throws {
    let usage = "store-verify DIR KEYS"
    guard arguments.count == 2 else { throw StoreProbeError(description: "usage: \(usage)") }
    let store: ArchiveStore<String> = try openStore(arguments[0])
    for index in 0..<(try integer(arguments[1], usage)) {
        let key = "key\(index)"
        guard let value = try store.load(forKey: key) else {
            report("\(key) -")
            continue
        }
        guard let sequence = crashValueSequence(value, key: key) else {
            throw StoreProbeError(description: "\(key) holds a value no writer wrote (\(value.utf8.count) bytes)")
        }
        report("\(key) \(sequence)")
    }
}

/// `store-increment DIR KEYS COUNT`: runs COUNT updates, each adding 1 to the `Int` under
/// `counter<i % KEYS>`, then prints `done`.
func storeIncrement(_ arguments: [String]) throws {
    let usage = "store-increment DIR KEYS COUNT"
    guard arguments.count == 3 else { throw StoreProbeError(description: "usage: \(usage)") }
    let store: ArchiveStore<Int> = try openStore(arguments[0])
    let keyCount = try integer(arguments[1], usage)
    for index in 0..<(try integer(arguments[2], usage)) {
        try store.update(forKey: "counter\(index % keyCount)") { $0 = ($0 ?? 0) + 1 }
    }
    report("done")
}

/// `store-save DIR KEY VALUE`: saves the string VALUE under KEY.
func storeSave(_ arguments: [String]) throws {
    guard arguments.count == 3 else { throw StoreProbeError(description: "usage: store-save DIR KEY VALUE") }
    let store: ArchiveStore<String> = try openStore(arguments[0])
    try store.save(arguments[2], forKey: arguments[1])
}

/// `store-load DIR KEY`: prints the string under KEY, or `-` when there is none.
func storeLoad(_ arguments: [String]) throws {
    guard arguments.count == 2 else { throw StoreProbeError(description: "usage: store-load DIR KEY") }
    let store: ArchiveStore<String> = try openStore(arguments[0])
    report(try store.load(forKey: arguments[1]) ?? "-")
}

/// The value ``storeFillLimited(_:)`` saves under `key`: the key, then `size` copies of a digit.
func fillValue(key: String, size: Int) -> String {
    "\(key)#" + String(repeating: Character(String(key.utf8.count % 10)), count: size)
}

/// `store-fill-limited DIR LIMIT COUNTxSIZE...`: lowers the file size limit (`RLIMIT_FSIZE`) to
/// LIMIT bytes and ignores `SIGXFSZ`, so that a write past it fails with `EFBIG` as on a full
/// disk; then, for each `COUNTxSIZE` in turn, saves COUNT values ``fillValue(key:size:)`` of SIZE
/// bytes under the keys `fill0`, `fill1`, …, going on after failures. Prints `KEY saved` after
/// each save that returns, or `KEY CODE` with the code of the ``ArchiveStorageError`` it threw
/// (its description on standard error).
func storeFillLimited(_ arguments: [String]) throws {
    let usage = "store-fill-limited DIR LIMIT COUNTxSIZE..."
    guard arguments.count >= 3 else { throw StoreProbeError(description: "usage: \(usage)") }
    var sizes: [Int] = []
    for spec in arguments.dropFirst(2) {
        let fields = spec.split(separator: "x")
        guard fields.count == 2 else { throw StoreProbeError(description: "usage: \(usage)") }
        let count = try integer(String(fields[0]), usage)
        sizes += repeatElement(try integer(String(fields[1]), usage), count: count)
    }
    var limit = rlimit()
    #if os(Linux)
    let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
    #else
    let resource = RLIMIT_FSIZE
    #endif
    guard getrlimit(resource, &limit) == 0 else { throw StoreProbeError(description: "getrlimit failed") }
    limit.rlim_cur = rlim_t(try integer(arguments[1], usage))
    guard setrlimit(resource, &limit) == 0 else { throw StoreProbeError(description: "setrlimit failed") }
    signal(SIGXFSZ, SIG_IGN)
    let store: ArchiveStore<String> = try openStore(arguments[0])
    for (index, size) in sizes.enumerated() {
        let key = "fill\(index)"
        do {
            try store.save(fillValue(key: key, size: size), forKey: key)
            report("\(key) saved")
        } catch {
            report("\(key) \(error.code)")
            printError("\(key): \(error)")
        }
    }
}
