//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A collection the archive decoder reads itself rather than through its `init(from:)`.
///
/// `Dictionary.init(from:)` reads keyed or alternating unkeyed containers, neither of which is
/// the `NSDictionary` form, so dictionaries must be read here: from an `NSDictionary` (keys of any
/// type, decoded from their objects) or from an object's own keys. Arrays and sets would decode
/// correctly through an unkeyed container; reading them here reserves their capacity once and
/// skips the container's per-element dispatch.
internal protocol ArchiveDecodableCollection {
    /// Decodes the collection from the decoder's current object.
    init(archiveDecoder decoder: _ArchiveDecoder) throws
}

extension ArchiveDecodableCollection {
    /// Decodes the collection from the decoder's current object, as `T`, which is `Self` when the
    /// caller found this conformance as `T`'s: then a bit cast spares a dynamic cast.
    @inline(__always)
    static func decode<T>(from decoder: _ArchiveDecoder, as type: T.Type) throws -> T {
        let value = try Self(archiveDecoder: decoder)
        // `DecodedTypeInfo` finds this conformance by casting `T`'s own metatype, and only the
        // standard library's value types conform, so `Self` is `T` and the bit cast below is taken.
        // The cast here guards a programmer error (a caller passing an unrelated `T`); no input
        // reaches it.
        guard T.self == Self.self else { return value as! T }
        return _ArchiveDecoder.exactly(value, as: type)
    }
}

extension Dictionary: ArchiveDecodableCollection where Key: Decodable, Value: Decodable {
    init(archiveDecoder decoder: _ArchiveDecoder) throws {
        self = try decoder.decodeDictionary(Key.self, Value.self)
    }
}

extension Array: ArchiveDecodableCollection where Element: Decodable {
    init(archiveDecoder decoder: _ArchiveDecoder) throws {
        // Arrays of strings, the commonest, get a loop specialized for them. The types are equal,
        // so the bit cast is exact; `as!` would cast element by element at run time.
        if Element.self == String.self {
            self = _ArchiveDecoder.exactly(try decoder.decodeStringArray(), as: Self.self)
            return
        }
        // Arrays of values that read their own objects look the element type up once.
        let elementInfo = decoder.session.typeInfo(Element.self)
        if elementInfo.readsObjectDirectly, let direct = elementInfo.objectDecoder {
            self = try direct.decodeArchiveArray(as: Self.self, from: decoder, typeInfo: elementInfo)
            return
        }
        // The loop is written here, not in a helper taking closures: in unspecialized code, only
        // `Self` carries the array's metadata without a runtime lookup per element.
        let elements = try decoder.currentElements()
        // Each element is moved into place; on a throw, the array deinitializes those made.
        self = try Array(unsafeUninitializedCapacity: elements.count) { buffer, initializedCount in
            for index in 0..<elements.count {
                // Decoded straight into its place: a local `let` costs a generic temporary.
                buffer.initializeElement(
                    at: index,
                    to: try decoder.decodeElement(Element.self, at: index, of: elements)
                )
                initializedCount = index &+ 1
            }
        }
    }
}

extension Set: ArchiveDecodableCollection where Element: Decodable {
    init(archiveDecoder decoder: _ArchiveDecoder) throws {
        let elements = try decoder.currentElements()
        self.init(minimumCapacity: elements.count)
        for index in 0..<elements.count {
            self.insert(try decoder.decodeElement(Element.self, at: index, of: elements))
        }
    }
}

/// The coding key of a dictionary value: its key as a string, and as an integer when it is one.
internal struct ArchiveDictionaryDecodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
