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

// The rules of classes: an object dictionary's `$class`, and the class dictionary it leads to.
// Reading is lenient where Apple's unarchiver is (a missing `$classes` is the class alone, a
// malformed `$classhints` is ignored); the validator asks for the strict form.

extension ArchiveGraphReader {
    /// The UID of an object dictionary's class.
    /// - Parameter uid: The object's UID, for the error.
    /// - Throws: ``KeyedArchiveError/Code/missingClass`` if it has no `$class`,
    ///   ``KeyedArchiveError/Code/invalidClass`` if `$class` is not a UID.
    func classUID(of object: List.Dictionary, uid: UID?) throws(KeyedArchiveError) -> UID {
        try Self.classUID(self.list.value(forKey: ArchiveFormatKey.`class`, in: object), of: uid)
    }

    /// The UID of an object dictionary's class, from the value of its `$class` key.
    /// - Parameters:
    ///   - reference: The value of `$class`, or `nil` if the object has none.
    ///   - uid: The object's UID, for the error.
    /// - Throws: ``KeyedArchiveError/Code/missingClass`` if `reference` is `nil`,
    ///   ``KeyedArchiveError/Code/invalidClass`` if it is not a UID.
    @inline(__always)
    static func classUID(_ reference: List.Value?, of uid: UID?) throws(KeyedArchiveError) -> UID {
        guard let reference, let classUID = List.uid(reference) else {
            throw Self.classReferenceError(reference, of: uid)
        }
        return classUID
    }

    @inline(never)
    private static func classReferenceError(_ reference: List.Value?, of uid: UID?) -> KeyedArchiveError {
        guard let reference else {
            return KeyedArchiveError(.missingClass, uid: uid, reason: "an object dictionary without $class")
        }
        let kind = PropertyListValue.withArticle(List.kindName(of: reference))
        return KeyedArchiveError(.invalidClass, uid: uid, reason: "$class is \(kind), not a UID")
    }

    /// The class of an object dictionary.
    /// - Throws: ``KeyedArchiveError`` if `$class` is missing, is not a UID, refers to no object
    ///   or to one that is not a valid class dictionary.
    func archivedClass(of object: List.Dictionary, uid: UID?) throws(KeyedArchiveError) -> ArchivedClass {
        try self.archivedClass(ofClass: self.classUID(of: object, uid: uid))
    }

    /// The class whose class dictionary has `classUID`.
    /// - Throws: ``KeyedArchiveError/Code/invalidReference`` if `classUID` refers to no object,
    ///   ``KeyedArchiveError/Code/invalidClass`` if the object is not a valid class dictionary.
    func archivedClass(ofClass classUID: UID) throws(KeyedArchiveError) -> ArchivedClass {
        try Self.archivedClass(in: self.object(for: classUID), uid: classUID, self.list)
    }

    /// Reads a class dictionary: `$classname`, `$classes` and `$classhints`, leniently.
    /// - Parameter uid: The class dictionary's UID, for the error.
    /// - Throws: ``KeyedArchiveError/Code/invalidClass`` if it is not a class dictionary.
    static func archivedClass(in value: List.Value, uid: UID?, _ list: List) throws(KeyedArchiveError) -> ArchivedClass
    {
        guard let dictionary = List.dictionary(value) else {
            throw Self.notAClassDictionary(uid)
        }
        let name = try Self.className(in: dictionary, uid: uid, list)
        return ArchivedClass(
            name: name,
            classes: try Self.classChain(in: dictionary, strict: false, uid: uid, list) ?? [name],
            hints: try Self.classHints(in: dictionary, strict: false, uid: uid, list)
        )
    }

    /// Whether a dictionary of `$objects` is a class dictionary: it has `$classname` and no `$class`.
    static func isClassDictionary(_ dictionary: List.Dictionary, _ list: List) -> Bool {
        list.hasKey(ArchiveFormatKey.className, in: dictionary)
            && !list.hasKey(ArchiveFormatKey.`class`, in: dictionary)
    }

    /// The error for a `$class` that leads to something other than a class dictionary.
    @inline(never)
    static func notAClassDictionary(_ classUID: UID?) -> KeyedArchiveError {
        KeyedArchiveError(
            .invalidClass,
            uid: classUID,
            reason: classUID.map { "$class refers to UID \($0.rawValue), which is not a class dictionary" }
                ?? "not a class dictionary"
        )
    }

    /// A class dictionary's `$classname`.
    /// - Throws: ``KeyedArchiveError/Code/invalidClass`` if it is missing or not a string.
    static func className(in dictionary: List.Dictionary, uid: UID?, _ list: List) throws(KeyedArchiveError) -> String {
        guard let value = try list.value(forKey: ArchiveFormatKey.className, in: dictionary),
            let name = try list.string(value)
        else {
            throw KeyedArchiveError(.invalidClass, uid: uid, reason: "$classname is not a string")
        }
        return name
    }

    /// A class dictionary's `$classes`, or `nil` where reading allows it to be missing.
    /// - Parameter strict: Whether `$classes` must be present and not empty.
    /// - Throws: ``KeyedArchiveError/Code/invalidClass`` if it is not an array of strings, or
    ///   (when `strict`) is missing or empty.
    static func classChain(
        in dictionary: List.Dictionary,
        strict: Bool,
        uid: UID?,
        _ list: List
    ) throws(KeyedArchiveError) -> [String]? {
        guard let value = try list.value(forKey: ArchiveFormatKey.classes, in: dictionary) else {
            if strict { throw KeyedArchiveError(.invalidClass, uid: uid, reason: "no $classes array") }
            return nil
        }
        guard let names = try Self.strings(in: value, list), !strict || !names.isEmpty else {
            throw KeyedArchiveError(
                .invalidClass,
                uid: uid,
                reason: strict ? "$classes is not a non-empty array of strings" : "$classes is not an array of strings"
            )
        }
        return names
    }

    /// A class dictionary's `$classhints`, if it has them.
    /// - Parameter strict: Whether they must be an array of strings; otherwise anything else is
    ///   ignored, and so are elements that are not strings.
    /// - Throws: ``KeyedArchiveError/Code/invalidClass`` if `strict` and they are not an array of strings.
    static func classHints(
        in dictionary: List.Dictionary,
        strict: Bool,
        uid: UID?,
        _ list: List
    ) throws(KeyedArchiveError) -> [String]? {
        guard let value = try list.value(forKey: ArchiveFormatKey.classHints, in: dictionary) else { return nil }
        guard strict else {
            guard let array = List.array(value) else { return nil }
            return (0..<list.count(of: array)).compactMap { position in
                (try? list.element(at: position, of: array)).flatMap { try? list.string($0) }
            }
        }
        guard let names = try Self.strings(in: value, list) else {
            throw KeyedArchiveError(.invalidClass, uid: uid, reason: "$classhints is not an array of strings")
        }
        return names
    }

    /// The strings of an array, or `nil` if the value is not an array of strings.
    private static func strings(in value: List.Value, _ list: List) throws(KeyedArchiveError) -> [String]? {
        guard let array = List.array(value) else { return nil }
        var names: [String] = []
        names.reserveCapacity(min(list.count(of: array), 16))
        for position in 0..<list.count(of: array) {
            guard let name = try list.string(list.element(at: position, of: array)) else { return nil }
            names.append(name)
        }
        return names
    }
}
