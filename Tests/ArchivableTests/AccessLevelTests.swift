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
public import KeyedArchivingMacros
import Testing

// The generated members take the access level of their type: these compile warning-free in
// Swift 6 mode at every level, and round-trip. A public type's conformances are public, so a module
// with `InternalImportsByDefault` (as this one) imports the macros with `public import`.

@Archivable
public struct PublicRecord: Equatable {
    public var name: String
    public var count = 1

    public init(name: String, count: Int = 1) {
        self.name = name
        self.count = count
    }
}

@Archivable
package struct PackageRecord: Equatable {
    package var name: String
    package var tags: [String] = []
}

@Archivable
private struct PrivateRecord: Equatable {
    var name: String
    var count = 1
}

@Archivable
private struct FilePrivateRecord: Equatable {
    var name: String
}

/// A namespace for a `fileprivate` type (a file-scoped one is written `private`).
enum AccessLevelModels {
    @Archivable
    fileprivate struct Nested: Equatable {
        var name: String
        fileprivate var count = 1
    }
}

/// A type available from given OS versions (the package's own minimums, so that it builds
/// everywhere), and one that is deprecated: their conformances carry the same availability.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, visionOS 1, *)
@Archivable
struct AvailableRecord: Equatable {
    var name: String
    var count = 1
}

@available(*, deprecated, message: "a deprecated model still archives without warnings")
@Archivable
struct DeprecatedRecord: Equatable {
    var name: String
}

@Archivable(version: 2)
public final class PublicBox {
    public var value: Int
    public var label: String? = "box"

    public init(value: Int) {
        self.value = value
    }
}

@Archivable
public enum PublicSignal: Equatable {
    case on(level: Int)
    case off
}

@Archivable
package enum PackageLevel: Int {
    case low = 1
    case high = 2
}

@Suite struct AccessLevelTests {
    private static func roundTrip<T: Codable>(_ value: T) throws -> T {
        try KeyedArchiveDecoder().decode(T.self, from: KeyedArchiveEncoder().encode(value))
    }

    @Test func typesOfEveryAccessLevelRoundTrip() throws {
        #expect(try Self.roundTrip(PublicRecord(name: "a", count: 2)) == PublicRecord(name: "a", count: 2))
        #expect(try Self.roundTrip(PackageRecord(name: "b", tags: ["x"])) == PackageRecord(name: "b", tags: ["x"]))
        #expect(try Self.roundTrip(PrivateRecord(name: "c")) == PrivateRecord(name: "c"))
        #expect(try Self.roundTrip(FilePrivateRecord(name: "d")) == FilePrivateRecord(name: "d"))
        #expect(try Self.roundTrip(PublicBox(value: 3)).value == 3)
        #expect(try Self.roundTrip([PublicSignal.on(level: 2), .off]) == [.on(level: 2), .off])
        #expect(try Self.roundTrip([PackageLevel.high]) == [.high])
        #expect(try Self.roundTrip(AvailableRecord(name: "e", count: 4)) == AvailableRecord(name: "e", count: 4))
        let nested = AccessLevelModels.Nested(name: "g", count: 5)
        #expect(try Self.roundTrip(nested) == nested)
    }

    @available(*, deprecated)
    @Test func aDeprecatedTypeRoundTrips() throws {
        #expect(try Self.roundTrip(DeprecatedRecord(name: "f")) == DeprecatedRecord(name: "f"))
    }
}
