//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A type that archives itself by hand, the way an `NSCoding` class does, without being an `NSObject`.
///
/// Existing `init?(coder:)` / `encode(with:)` bodies port almost line for line:
///
/// ```swift
/// struct Cat: ArchiveCoding {
///     var name: String
///     var lives: Int
///     var owner: Person?
///
///     init?(coder: ArchiveCoder) {
///         guard let name: String = coder.decode(forKey: "name") else { return nil }
///         self.name = name
///         self.lives = coder.decodeInteger(forKey: "lives")
///         self.owner = coder.decode(forKey: "owner")
///     }
///
///     func encode(with coder: ArchiveCoder) {
///         coder.encode(name, forKey: "name")
///         coder.encode(lives, forKey: "lives")
///         coder.encode(owner, forKey: "owner")
///     }
/// }
/// ```
///
/// Conforming types are `Codable` through these two methods, so they archive with
/// ``KeyedArchiveEncoder`` and decode with ``KeyedArchiveDecoder`` — and with `JSONEncoder` and
/// `JSONDecoder` too, as the Dekoter library's `Koting` types did. Nested values, arrays and
/// optionals of `Codable` or `ArchiveCoding` types work with type inference.
public protocol ArchiveCoding: Codable {
    /// Creates a value from an archive, or returns `nil` if what is there is unusable.
    init?(coder: ArchiveCoder)
    /// Writes the value's fields.
    func encode(with coder: ArchiveCoder)
}

extension ArchiveCoding {
    /// Decodes through ``init(coder:)``.
    /// - Throws: `DecodingError.dataCorrupted` if `init?(coder:)` returns `nil`, with the first
    ///   failure the coder met as the underlying error.
    public init(from decoder: any Decoder) throws {
        let coder = try ArchiveCoder(decoder: decoder)
        guard let value = Self(coder: coder) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "init?(coder:) of \(Self.self) returned nil",
                    underlyingError: coder.firstError
                )
            )
        }
        self = value
    }

    /// Encodes through ``encode(with:)``.
    /// - Throws: The first error an `encode(_:forKey:)` call met.
    public func encode(to encoder: any Encoder) throws {
        let coder = ArchiveCoder(encoder: encoder)
        self.encode(with: coder)
        if let error = coder.firstError { throw error }
    }
}
