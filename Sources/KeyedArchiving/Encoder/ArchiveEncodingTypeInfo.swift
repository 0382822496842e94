//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PropertyLists

/// What one encoding session knows about a Swift type: how its values are archived and the class
/// dictionary its objects point to.
///
/// Made once per type and session, so conformance checks, `String(describing:)` and the class
/// chain are paid once rather than per object.
internal final class ArchiveEncodingTypeInfo {
    /// How values of the type are archived.
    enum Kind {
        /// Through `encode(to:)`, as a value: every occurrence is its own object.
        case value
        /// Through `encode(to:)`, as a class instance: every reference to one instance shares its UID.
        case instance
        /// As `NSArray`, element by element, as `Array.encode(to:)` would through an unkeyed container.
        case array
        /// As `NSSet`.
        case set
        /// As `NSDictionary`.
        case dictionary
    }

    let kind: Kind
    /// The class a keyed container of this type is archived under.
    let archivedClass: ArchivedClass
    /// The UID of the class dictionary once it has been appended to `$objects`.
    ///
    /// `NSKeyedArchiver` appends a class dictionary after the contents of the first object that
    /// uses it, so this stays `nil` until that object is complete.
    @exclusivity(unchecked) var classUID: UID?
    /// The class's number in the session's table (``ArchiveEncodingTable/classNumber(_:)``), once asked for.
    @exclusivity(unchecked) var classNumber: Int?
    /// The type as an array that ``ArchiveEncodingSession`` encodes without an encoder, if it is one.
    var arrayMarker: (any _ArchiveArrayEncodableMarker.Type)?
    /// The type as one that writes its object itself, unless the session goes through `Codable` only.
    var objectEncoder: (any ArchiveObjectEncodable.Type)?
    /// The type as an enum stored as its raw string, unless the session goes through `Codable` only.
    var rawValueEncoder: (any ArchiveRawValueCodable.Type)?
    /// The keys of ``objectEncoder``'s objects.
    var objectKeyNames: [StaticString] = []
    /// ``objectKeyNames`` as keys of the session's table, once resolved for the current archive.
    @exclusivity(unchecked) var objectKeys: [ArchiveEncodingTable.Key]?
    /// The run of ``objectKeys`` that this type's objects share in the current archive's table.
    @exclusivity(unchecked) var objectKeyRun: ArchiveEncodingTable.KeyRun?
    /// The start of the run of keys the last keyed object of this type that `encode(to:)` wrote
    /// has in the current archive's table, for the next ones with the same keys to share.
    @exclusivity(unchecked) var entryKeyRun: Int?
    /// The number of entries the last object of this type had, to size the next one.
    @exclusivity(unchecked) var entryCountHint: Int = 0

    init(kind: Kind, archivedClass: ArchivedClass) {
        self.kind = kind
        self.archivedClass = archivedClass
    }

    /// The description of one of Foundation's classes, such as `NSArray`.
    convenience init(foundationClass name: String) {
        self.init(kind: .value, archivedClass: ArchivedClass(name: name, classes: [name, "NSObject"]))
    }
}
