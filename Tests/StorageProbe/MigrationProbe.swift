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

/// `migrate-file PATH [BACKUP-SUFFIX|-] [CRASH-AFTER-STEP]`: migrates a ``ProbeCat`` file to schema
/// version 1 and prints `FORMAT REWRITTEN`; with a step name (such as `replacementWritten`), the
/// process dies with `_exit(86)` right after that step, as a crash would stop it.
func migrateFile(_ arguments: [String]) throws {
    guard (1...3).contains(arguments.count) else {
        throw ProbeUsageError(description: "usage: migrate-file PATH [BACKUP-SUFFIX|-] [CRASH-AFTER-STEP]")
    }
    var migrator = ArchiveMigrator(ProbeCat.self, schemaVersion: 1)
    if arguments.count >= 2, arguments[1] != "-" { migrator.backupSuffix = arguments[1] }
    if arguments.count == 3 {
        guard let crashStep = FileMigrationStep(rawValue: arguments[2]) else {
            throw ProbeUsageError(description: "unknown step \(arguments[2])")
        }
        migrator.stepObserver = { step throws(ArchiveStorageError) in
            if step == crashStep { _exit(86) }
        }
    }
    let result = try migrator.migrateFile(atPath: arguments[0])
    print(result.sourceFormat, result.didRewrite)
}
