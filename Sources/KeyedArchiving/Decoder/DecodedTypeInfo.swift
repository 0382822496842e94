//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What the decoder needs to know about a type that decodes itself, worked out once per type
/// rather than with a dynamic cast per value.
///
/// It holds no references, so handing it out costs no reference counting.
internal struct DecodedTypeInfo {
    /// Whether the type has an archive form of its own (a string, number, date, data, UUID or URL).
    let hasArchiveForm: Bool
    /// Whether the type is a class, whose instances are shared by UID.
    let isClass: Bool
    /// The type as a collection the decoder reads itself, if it is one.
    let collectionType: (any ArchiveDecodableCollection.Type)?
    /// Whether the type declares the class names it accepts with ``ArchivedClassNaming``.
    let declaresClassNames: Bool
    /// The type as one that reads its object itself, unless the session goes through `Codable` only.
    let objectDecoder: (any ArchiveObjectDecodable.Type)?
    /// The index of the type's ``ArchiveObjectKeyTable`` in its session, if it has an ``objectDecoder``.
    let keyTable: Int
    /// The type as an enum read from its raw string, unless the session goes through `Codable` only.
    let rawValueDecoder: (any ArchiveRawValueCodable.Type)?
    /// Whether values of the type are read through ``objectDecoder`` without the general path's
    /// dispatch (``_ArchiveDecoder/decodeDirect(_:typeInfo:object:uid:at:)``): a value type with
    /// that conformance and no archive form or collection form of its own.
    let readsObjectDirectly: Bool

    /// - Parameters:
    ///   - facts: The type's facts.
    ///   - keyTable: The index of the type's key table, if it reads its object itself.
    ///   - direct: Whether the session uses direct conformances.
    init(_ facts: DecodedTypeFacts, keyTable: Int?, direct: Bool) {
        self.hasArchiveForm = facts.hasArchiveForm
        self.isClass = facts.isClass
        self.collectionType = facts.collectionType
        self.declaresClassNames = facts.declaresClassNames
        let objectDecoder = keyTable == nil ? nil : facts.objectDecoder
        self.objectDecoder = objectDecoder
        self.keyTable = objectDecoder == nil ? -1 : keyTable ?? -1
        self.rawValueDecoder = direct ? facts.rawValueDecoder : nil
        self.readsObjectDirectly =
            objectDecoder != nil && !self.isClass && !self.hasArchiveForm && self.collectionType == nil
    }
}
