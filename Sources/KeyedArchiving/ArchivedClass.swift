//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import PropertyLists

/// A class description in a keyed archive: the `{$classname, $classes}` dictionary an object's
/// `$class` points to.
public struct ArchivedClass: Hashable, Sendable, CustomStringConvertible {
    /// The class name, such as `NSArray` or `Cat`.
    public var name: String
    /// The class and its superclasses, most specific first, such as `["NSMutableArray", "NSArray", "NSObject"]`.
    public var classes: [String]
    /// Alternative class names an unarchiver may use (`$classhints`), if any.
    public var hints: [String]?

    /// Creates a class description.
    /// - Parameters:
    ///   - name: The class name.
    ///   - classes: The class chain, most specific first. Defaults to `[name, "NSObject"]`.
    ///   - hints: Alternative class names.
    public init(name: String, classes: [String]? = nil, hints: [String]? = nil) {
        self.name = name
        self.classes = classes ?? (name == "NSObject" ? [name] : [name, "NSObject"])
        self.hints = hints
    }

    /// Reads a class dictionary.
    /// - Throws: ``KeyedArchiveError/Code/invalidClass`` if it lacks a string `$classname`, or its
    ///   `$classes` is not an array of strings.
    public init(propertyList: PropertyListValue, uid: UID? = nil) throws(KeyedArchiveError) {
        self = try ArchiveGraphReader<ArchiveTreeList>.archivedClass(in: propertyList, uid: uid, ArchiveTreeList())
    }

    /// The class dictionary as stored in `$objects`.
    public var propertyList: PropertyListValue {
        var dictionary: PropertyListDictionary = [
            ArchiveFormatKey.className.string: .string(self.name),
            ArchiveFormatKey.classes.string: .array(self.classes.map(PropertyListValue.string)),
        ]
        if let hints { dictionary[ArchiveFormatKey.classHints.string] = .array(hints.map(PropertyListValue.string)) }
        return .dictionary(dictionary)
    }

    /// Whether this class is `name` or inherits from it.
    public func isKind(of name: String) -> Bool {
        self.name == name || self.classes.contains(name)
    }

    /// The class name.
    public var description: String { self.name }
}
