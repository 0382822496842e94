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

/// A property list as ``ArchiveGraphReader`` reads an archive's graph from it: a tree of values
/// (``ArchiveTreeList``) or a binary property list read in place (``ArchiveInPlaceList``).
///
/// It answers only what the format's rules ask (what kind a value is, what a dictionary holds
/// under a key, what an array holds at a position); the rules are the reader's, written once for
/// both. The questions about a value's kind need no state, so they are static: the decoder asks
/// them on every object without holding a list.
internal protocol ArchivePropertyList {
    /// A value of the property list.
    associatedtype Value
    /// A dictionary of the property list.
    associatedtype Dictionary
    /// An array of the property list.
    associatedtype Array

    /// The dictionary a value is, or `nil`.
    static func dictionary(_ value: Value) -> Dictionary?
    /// The array a value is, or `nil`.
    static func array(_ value: Value) -> Array?
    /// The UID a value is, or `nil`.
    static func uid(_ value: Value) -> UID?
    /// The integer a value is, if it is one that fits an `Int`.
    static func integer(_ value: Value) -> Int?
    /// The name of a value's kind, as `PropertyListValue.kindName` gives it.
    static func kindName(of value: Value) -> String

    /// The string a value is, or `nil`.
    /// - Throws: ``KeyedArchiveError/Code/malformedPropertyList`` if its bytes are not a string.
    func string(_ value: Value) throws(KeyedArchiveError) -> String?
    /// The value under a string key of a dictionary, if it has the key.
    /// - Throws: ``KeyedArchiveError/Code/malformedPropertyList`` if the value is not a valid object.
    func value(forKey key: StaticString, in dictionary: Dictionary) throws(KeyedArchiveError) -> Value?
    /// Whether a dictionary has a string key.
    func hasKey(_ key: StaticString, in dictionary: Dictionary) -> Bool
    /// The number of elements of an array.
    func count(of array: Array) -> Int
    /// The element at a position of an array, which the caller has checked is below its count.
    /// - Throws: ``KeyedArchiveError/Code/malformedPropertyList`` if it is not a valid object.
    func element(at position: Int, of array: Array) throws(KeyedArchiveError) -> Value
    /// The number of entries of a dictionary.
    func entryCount(of dictionary: Dictionary) -> Int
    /// The value of the entry at a position of a dictionary, below its entry count.
    /// - Throws: ``KeyedArchiveError/Code/malformedPropertyList`` if it is not a valid object.
    func entryValue(at position: Int, of dictionary: Dictionary) throws(KeyedArchiveError) -> Value
    /// The key of the entry at a position of a dictionary, or `nil` if it is not a readable string.
    func entryKey(at position: Int, of dictionary: Dictionary) -> String?
    /// The key of the entry at a position of a dictionary, below its entry count, as a value.
    /// - Throws: ``KeyedArchiveError/Code/malformedPropertyList`` if it is not a valid object.
    func entryKeyValue(at position: Int, of dictionary: Dictionary) throws(KeyedArchiveError) -> Value
    /// The value as a tree, a few levels deep, for messages; `nil` if it cannot be read.
    func tree(_ value: Value) -> PropertyListValue?
    /// The length of a string or data value as its decoded size counts it (the bytes it holds),
    /// or `nil` for any other value.
    func storedLength(of value: Value) -> Int?
    /// The object a value is, where values can be shared (an object of a binary property list
    /// that several containers refer to), so that its size is computed once; `nil` otherwise.
    func objectIdentity(of value: Value) -> Int?
}
