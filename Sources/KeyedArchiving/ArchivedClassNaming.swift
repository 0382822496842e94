//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A type that chooses the class name it is archived under, and the class names it accepts when
/// decoded.
///
/// By default a type is archived under its unqualified Swift name with `$classes`
/// `[name, "NSObject"]`, and decodes from an object of any class whose keys match. Adopt this
/// protocol to match an existing `NSCoding` class, so Apple's `NSKeyedUnarchiver` finds it, and to
/// have ``KeyedArchiveDecoder`` check the class of every object it decodes the type from — at
/// every reference, including objects already decoded elsewhere as another type:
///
/// ```swift
/// struct Cat: Codable, ArchivedClassNaming {
///     static let archivedClassName = "MyApp.Cat"
///     // Archives written before the module was renamed still decode.
///     static let acceptedArchivedClassNames: Set<String> = ["MyApp.Cat", "OldApp.Cat"]
///     var name: String
/// }
/// ```
///
/// An object of another class fails with `DecodingError.typeMismatch` whose underlying error is
/// ``KeyedArchiveError/Code/classMismatch``. See <doc:SecureDecoding>.
///
/// The encoder reads ``archivedClassName`` and ``archivedClassChain`` once per type and process
/// and keeps them, so they should be constants; to choose a name per archive, use
/// ``KeyedArchiveEncoder/setClassName(_:for:)``.
public protocol ArchivedClassNaming {
    /// The class name written to `$classname`.
    static var archivedClassName: String { get }
    /// The class chain written to `$classes`, most specific first. Defaults to `[archivedClassName, "NSObject"]`.
    static var archivedClassChain: [String] { get }
    /// The class names an object may have to decode as this type; an object whose `$classes` chain
    /// holds one of them (a subclass) is accepted too. Defaults to `[archivedClassName]`.
    static var acceptedArchivedClassNames: Set<String> { get }
}

extension ArchivedClassNaming {
    /// `[archivedClassName, "NSObject"]`.
    public static var archivedClassChain: [String] { [Self.archivedClassName, "NSObject"] }

    /// `[archivedClassName]`.
    public static var acceptedArchivedClassNames: Set<String> { [Self.archivedClassName] }
}
