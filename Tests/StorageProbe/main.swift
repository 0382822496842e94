//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// `storage-probe COMMAND ARGUMENTS...`: the other process in the ArchiveStorage tests. Each
// command lives in its own file as a function taking the remaining arguments; it prints results on
// standard output and exits 0, or prints one line on standard error and exits 1.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `line` and a newline to standard error.
func printError(_ line: String) {
    let text = line + "\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
}

/// The commands, by name.
let commands: [String: ([String]) throws -> Void] = [
    "echo": { arguments in print(arguments.joined(separator: " ")) },
    "prefs-set": preferencesSet,
    "prefs-get": preferencesGet,
    "migrate-file": migrateFile,
    "store-write-loop": storeWriteLoop,
    "store-verify": storeVerify,
    "store-increment": storeIncrement,
    "store-save": storeSave,
    "store-load": storeLoad,
    "store-fill-limited": storeFillLimited,
    "store-move": storeMove,
    "store-save-after-line": storeSaveAfterLine,
    "store-save-capped": storeSaveCapped,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let command = commands[name] else {
    let known = commands.keys.sorted().joined(separator: ", ")
    printError("usage: storage-probe COMMAND [ARGUMENTS...]; commands: \(known)")
    exit(2)
}
do {
    try command(Array(arguments.dropFirst()))
} catch {
    printError("storage-probe \(name): \(error)")
    exit(1)
}
