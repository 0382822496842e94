//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A property list dictionary: string keys, each once, in the order they were read or inserted.
///
/// Lookups are linear for small dictionaries and hashed for larger ones. Equality ignores order,
/// as property list dictionaries are unordered; iteration, encoding and ``keys`` keep it.
public struct PropertyListDictionary: Sendable {
    /// One key and its value.
    public typealias Element = (key: String, value: PropertyListValue)

    @usableFromInline
    internal var entries: ContiguousArray<StoredEntry>
    /// A key-to-position index, kept only when the dictionary is larger than ``hashThreshold``.
    @usableFromInline
    internal var positions: [String: Int]?

    @usableFromInline
    internal static var hashThreshold: Int { 12 }

    /// Creates an empty dictionary.
    @inlinable
    public init() {
        self.entries = []
        self.positions = nil
    }

    /// Creates a dictionary from key-value pairs; a repeated key keeps its first position and its last value.
    public init(_ pairs: some Sequence<(String, PropertyListValue)>) {
        self.init()
        for (key, value) in pairs {
            self[key] = value
        }
    }

    /// Reserves space for `capacity` entries.
    public mutating func reserveCapacity(_ capacity: Int) {
        self.entries.reserveCapacity(capacity)
    }

    /// The number of entries.
    @inlinable
    public var count: Int { self.entries.count }

    /// Whether the dictionary has no entries.
    @inlinable
    public var isEmpty: Bool { self.entries.isEmpty }

    /// The keys, in order.
    public var keys: [String] { self.entries.map(\.key) }

    /// The values, in key order.
    public var values: [PropertyListValue] { self.entries.map(\.value) }

    /// The position of `key`, or `nil` if it is absent.
    /// - Complexity: O(1) on average for large dictionaries, O(*n*) for small ones.
    @inlinable
    public func index(forKey key: String) -> Int? {
        if let positions { return positions[key] }
        return self.entries.firstIndex { $0.key == key }
    }

    /// The value for `key`; setting `nil` removes the entry.
    public subscript(key: String) -> PropertyListValue? {
        get {
            guard let index = self.index(forKey: key) else { return nil }
            return self.entries[index].value
        }
        set {
            if let newValue {
                self.updateValue(newValue, forKey: key)
            } else {
                self.removeValue(forKey: key)
            }
        }
    }

    /// Sets the value for `key`, appending the key if it is new.
    /// - Returns: The value that was replaced, or `nil` if the key is new.
    @discardableResult
    public mutating func updateValue(_ value: PropertyListValue, forKey key: String) -> PropertyListValue? {
        if let index = self.index(forKey: key) {
            let old = self.entries[index].value
            self.entries[index].value = value
            return old
        }
        self.entries.append(StoredEntry(key: key, value: value))
        if self.positions != nil {
            self.positions?[key] = self.entries.count - 1
        } else if self.entries.count > Self.hashThreshold {
            self.rebuildPositions()
        }
        return nil
    }

    /// Removes the entry for `key`, keeping the order of the others.
    /// - Returns: The removed value, or `nil` if the key was absent.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> PropertyListValue? {
        guard let index = self.index(forKey: key) else { return nil }
        let old = self.entries.remove(at: index).value
        if self.positions != nil { self.rebuildPositions() }
        return old
    }

    private mutating func rebuildPositions() {
        guard self.entries.count > Self.hashThreshold else {
            self.positions = nil
            return
        }
        var positions = [String: Int](minimumCapacity: self.entries.count)
        for (index, entry) in self.entries.enumerated() {
            positions[entry.key] = index
        }
        self.positions = positions
    }
}

extension PropertyListDictionary: RandomAccessCollection {
    /// The position of the first entry.
    @inlinable
    public var startIndex: Int { 0 }
    /// The position after the last entry.
    @inlinable
    public var endIndex: Int { self.entries.count }
    /// The entry at `position`.
    @inlinable
    public subscript(position: Int) -> Element {
        let entry = self.entries[position]
        return (entry.key, entry.value)
    }
}

extension PropertyListDictionary: ExpressibleByDictionaryLiteral {
    /// Creates a dictionary from a literal; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self.init(elements)
    }
}

extension PropertyListDictionary: Hashable {
    /// Dictionaries are equal when they hold the same keys with equal values, in any order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for entry in lhs.entries {
            guard let other = rhs[entry.key], other == entry.value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine per-entry hashes commutatively.
        var combined = 0
        for entry in self.entries {
            var entryHasher = Hasher()
            entryHasher.combine(entry.key)
            entryHasher.combine(entry.value)
            combined ^= entryHasher.finalize()
        }
        hasher.combine(self.count)
        hasher.combine(combined)
    }
}

extension PropertyListDictionary {
    /// Builds a dictionary from entries read from input. A repeated key keeps its first position and
    /// its last value, as CoreFoundation's readers do. A reader that has already seen that no two
    /// keys are equal passes `keysAreDistinct` to skip the check.
    @usableFromInline
    internal init(readEntries: ContiguousArray<StoredEntry>, keysAreDistinct: Bool = false) {
        if readEntries.count <= Self.hashThreshold {
            if keysAreDistinct {
                self.entries = readEntries
                self.positions = nil
                return
            }
            // Small: a pairwise check is cheaper than hashing, and the usual case has no repeats.
            var hasRepeats = false
            outer: for index in readEntries.indices {
                for earlier in 0..<index where readEntries[earlier].key == readEntries[index].key {
                    hasRepeats = true
                    break outer
                }
            }
            if !hasRepeats {
                self.entries = readEntries
                self.positions = nil
                return
            }
        }
        var positions = [String: Int](minimumCapacity: readEntries.count)
        var entries = ContiguousArray<StoredEntry>()
        entries.reserveCapacity(readEntries.count)
        for entry in readEntries {
            if let index = positions[entry.key] {
                entries[index].value = entry.value
            } else {
                positions[entry.key] = entries.count
                entries.append(entry)
            }
        }
        self.entries = entries
        self.positions = entries.count > Self.hashThreshold ? positions : nil
    }
}

extension PropertyListDictionary {
    /// One stored entry. A struct, not a tuple: the compiler gives a struct its own copy and destroy
    /// code, where an array of tuples is destroyed element by element through the runtime's generic
    /// tuple witnesses (callgrind: 2.5% fewer instructions to parse and free a 4.75 MB file).
    @usableFromInline
    internal struct StoredEntry: Sendable {
        @usableFromInline
        internal var key: String
        @usableFromInline
        internal var value: PropertyListValue

        @inlinable
        internal init(key: String, value: PropertyListValue) {
            self.key = key
            self.value = value
        }
    }
}
