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

private func backend(_ name: String) throws -> ArchiveStoreBackend {
    switch name {
    case "files": return .files
    #if SQLite
    case "sqlite": return .sqlite
    #endif
    default: throw StoreProbeError(description: "unknown backend \(name)")
    }
}

private func say(_ line: String) {
    let text = line + "\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(1, $0.baseAddress, $0.count - 1) }
}

/// `store-move DIR BACKEND [CRASH-AFTER-STEP]`: moves the store "store" in DIR to BACKEND, and
/// exits with status 86 right after the step named, as a crash would.
func storeMove(_ arguments: [String]) throws {
    let usage = "usage: store-move DIR BACKEND [CRASH-AFTER-STEP]"
    guard (2...3).contains(arguments.count) else { throw StoreProbeError(description: usage) }
    var observer: StoreMoveStepObserver?
    if arguments.count == 3 {
        guard let crashStep = StoreMoveStep(rawValue: arguments[2]) else {
            throw StoreProbeError(description: "unknown step \(arguments[2])")
        }
        observer = { step throws(ArchiveStorageError) in
            if step == crashStep { _exit(86) }
        }
    }
    say("moving")
    let result = try ArchiveStoreDirectory.path(arguments[0])
        .moveStore(named: "store", to: try backend(arguments[1]), stepObserver: observer)
    say("moved \(result.movedEntryCount) from \(result.previousBackend) to \(result.backend)")
}

/// `store-save-after-line DIR KEY VALUE`: opens the store "store" in DIR and loads KEY, says
/// "open", waits for a line on standard input, then saves VALUE under KEY and loads it again,
/// saying what each did ("saved" or the error's code, then the value or the error's code).
func storeSaveAfterLine(_ arguments: [String]) throws {
    guard arguments.count == 3 else { throw StoreProbeError(description: "usage: store-save-after-line DIR KEY VALUE") }
    let store = try ArchiveStore<String>(name: "store", in: .path(arguments[0]))
    _ = try store.load(forKey: arguments[1])
    say("open")
    _ = readLine()
    do {
        try store.save(arguments[2], forKey: arguments[1])
        say("saved")
    } catch {
        say("\(error.code)")
    }
    do {
        say(try store.load(forKey: arguments[1]) ?? "-")
    } catch {
        say("\(error.code)")
    }
}
