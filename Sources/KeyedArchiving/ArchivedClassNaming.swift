//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A type that chooses the class name it is archived under.
///
/// By default a type is archived under its unqualified Swift name with `$classes`
/// `[name, "NSObject"]`. Adopt this protocol to match an existing `NSCoding` class, so Apple's
/// `NSKeyedUnarchiver` finds it, and to have decoding check the name:
///
/// ```swift
/// struct Cat: Codable, ArchivedClassNaming {
///     static let archivedClassName = "MyApp.Cat"
///     var name: String
/// }
/// ```
public protocol ArchivedClassNaming {
    /// The class name written to `$classname`.
    static var archivedClassName: String { get }
    /// The class chain written to `$classes`, most specific first. Defaults to `[archivedClassName, "NSObject"]`.
    static var archivedClassChain: [String] { get }
}

extension ArchivedClassNaming {
    /// `[archivedClassName, "NSObject"]`.
    public static var archivedClassChain: [String] { [Self.archivedClassName, "NSObject"] }
}
