//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The keys of the `NSKeyedArchiver` format, and its `$null`: every `$` and `NS.` literal of the
/// format is spelled here and nowhere else in the package's code.
///
/// They are `StaticString`s, which the decoder compares with an archive's bytes as they are;
/// ``Swift/StaticString/string`` gives the `String` that trees (`[String: PropertyListValue]`)
/// are keyed by.
package enum ArchiveFormatKey {
    // MARK: The top level

    /// The archiver's class name (`NSKeyedArchiver`).
    package static var archiver: StaticString { "$archiver" }
    /// The format's version (100000).
    package static var version: StaticString { "$version" }
    /// The dictionary of the root objects' UIDs, by key.
    package static var top: StaticString { "$top" }
    /// The array of every object, by UID.
    package static var objects: StaticString { "$objects" }
    /// The string at UID 0, which stands for `nil`.
    package static var null: StaticString { "$null" }

    // MARK: Classes

    /// An object's reference to its class dictionary.
    package static var `class`: StaticString { "$class" }
    /// A class dictionary's class name.
    package static var className: StaticString { "$classname" }
    /// A class dictionary's chain of class names, the class first.
    package static var classes: StaticString { "$classes" }
    /// A class dictionary's names of classes to try when its own is unknown.
    package static var classHints: StaticString { "$classhints" }

    // MARK: Foundation's objects

    /// The elements of an array or set, the values of a dictionary.
    package static var nsObjects: StaticString { "NS.objects" }
    /// The keys of a dictionary.
    package static var nsKeys: StaticString { "NS.keys" }
    /// The count of each element of a counted set.
    package static var nsCount: StaticString { "NS.count" }
    /// A date's seconds since 2001.
    package static var nsTime: StaticString { "NS.time" }
    /// A UUID's 16 bytes.
    package static var nsUUIDBytes: StaticString { "NS.uuidbytes" }
    /// A URL's base URL.
    package static var nsBase: StaticString { "NS.base" }
    /// A URL's string, relative to its base.
    package static var nsRelative: StaticString { "NS.relative" }
    /// A string's characters, as a string.
    package static var nsString: StaticString { "NS.string" }
    /// A string's characters, as UTF-8 bytes.
    package static var nsBytes: StaticString { "NS.bytes" }
    /// A data object's bytes.
    package static var nsData: StaticString { "NS.data" }

    /// The top-level key of the `index`th value archived without a key (`$0`, `$1`, …), as
    /// `NSKeyedArchiver`'s `encode(_:)` names them.
    package static func generatedKey(at index: Int) -> String { "$\(index)" }

    /// The element at `index` of an ordered set (`NS.object.0`, `NS.object.1`, …).
    package static func nsObject(at index: Int) -> String { "NS.object.\(index)" }

    /// The element at `index` of a counted set (`NS.object0`, `NS.object1`, …: no dot, as
    /// Apple's `NSCountedSet` writes them).
    package static func nsCountedObject(at index: Int) -> String { "NS.object\(index)" }
}

extension StaticString {
    /// The same characters as a `String` (a format key has at most 15 bytes, so it is stored
    /// inline, without an allocation).
    package var string: String {
        self.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    }
}
