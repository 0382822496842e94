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
import KeyedArchivingMacros

// Stored properties inside `#if` (issue 34): one whose condition holds here, one that does not,
// one nested in another block, one declared in both clauses of a block. Each model has a twin
// with synthesized `Codable` and the same blocks.

/// Properties under conditions that hold and do not hold on every platform the tests run on.
@Archivable(className: "Conditional")
struct ConditionalMembers: Equatable {
    var name: String
    #if canImport(Foundation)
    var visits: Int
    #if os(Windows)
    var windowsPath: String = "C:"
    #else
    var tags: [String] = []
    #endif
    #endif
    #if os(Windows)
    var level = 1
    #else
    var level = 2
    #endif
    #if os(Windows) && !canImport(Foundation)
    var never: Double = 0
    #endif
}

/// ``ConditionalMembers`` with synthesized `Codable`.
struct ConditionalMembersTwin: Codable, Equatable, ArchivedClassNaming {
    static var archivedClassName: String { "Conditional" }
    var name: String
    #if canImport(Foundation)
    var visits: Int
    #if os(Windows)
    var windowsPath: String = "C:"
    #else
    var tags: [String] = []
    #endif
    #endif
    #if os(Windows)
    var level = 1
    #else
    var level = 2
    #endif
    #if os(Windows) && !canImport(Foundation)
    var never: Double = 0
    #endif
}

/// A type that has a `secret` everywhere, as one platform's build of an app would.
@Archivable(className: "Secretive")
struct SecretWriter: Equatable {
    var name: String
    var secret: Int
}

/// The same type as another platform's build has it: `secret` only on Windows, and the fields it
/// does not know kept.
@Archivable(className: "Secretive")
struct SecretReader: Equatable {
    var name: String
    #if os(Windows)
    var secret: Int = 0
    #endif
    var unknownFields = ArchiveUnknownFields()
}
