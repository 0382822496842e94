//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A property list object reference: the `CF$UID` value that keyed archives use to point into `$objects`.
///
/// Binary property lists store a UID with its own marker (`0x8n`); XML property lists spell it as a
/// one-entry dictionary `<dict><key>CF$UID</key><integer>N</integer></dict>`. Foundation's property list
/// coders drop UIDs; this package keeps them as a first-class value.
public struct UID: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The index the UID refers to.
    public var rawValue: UInt64

    /// Creates a UID with the given index.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Creates a UID with the given index.
    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Creates a UID from an integer literal.
    public init(integerLiteral value: UInt64) {
        self.rawValue = value
    }

    public static func < (lhs: UID, rhs: UID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The UID in the form `UID(7)`.
    public var description: String {
        "UID(\(self.rawValue))"
    }
}
