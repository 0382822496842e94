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

/// The value the preferences and migration probes store and read.
struct ProbeCat: Codable, Equatable {
    var name: String
    var lives: Int
}

/// Argument errors of the preferences and migration probes.
struct ProbeUsageError: Error, CustomStringConvertible {
    var description: String
}

/// The suite named `name`, or an error when Foundation refuses the name.
private func suite(_ name: String) throws -> UserDefaults {
    guard let defaults = UserDefaults(suiteName: name) else {
        throw ProbeUsageError(description: "UserDefaults refused the suite name \(name)")
    }
    return defaults
}

/// `prefs-set SUITE KEY NAME LIVES [SCHEMA-VERSION]`: archives a ``ProbeCat`` under `KEY` in the
/// suite and synchronises, so the suite's property list file is written before the process exits.
func preferencesSet(_ arguments: [String]) throws {
    guard arguments.count == 4 || arguments.count == 5, let lives = Int(arguments[3]) else {
        throw ProbeUsageError(description: "usage: prefs-set SUITE KEY NAME LIVES [SCHEMA-VERSION]")
    }
    let version = arguments.count == 5 ? Int(arguments[4]) : nil
    let defaults = try suite(arguments[0])
    try defaults.set(
        archiving: ProbeCat(name: arguments[2], lives: lives),
        forKey: arguments[1],
        schemaVersion: version
    )
    guard defaults.synchronize() else { throw ProbeUsageError(description: "synchronize() failed") }
}

/// `prefs-get SUITE KEY`: prints the ``ProbeCat`` archived under `KEY` as `NAME LIVES`.
func preferencesGet(_ arguments: [String]) throws {
    guard arguments.count == 2 else { throw ProbeUsageError(description: "usage: prefs-get SUITE KEY") }
    let cat = try suite(arguments[0]).archivedValue(ProbeCat.self, forKey: arguments[1])
    print(cat.name, cat.lives)
}
