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

extension ArchiveGraphReader {
    /// The decoded size (see `PropertyListLimits`) of the archive's own objects, each counted once,
    /// with every UID in them counted as one value: the baseline that the decoded size of a
    /// resolved or decoded archive is compared against.
    ///
    /// A value the property list shares (an in-place list's object that several containers refer
    /// to) is counted where it stands, as in a tree, and computed once. Nesting is bounded, so that
    /// a container that contains itself ends: a container nested deeper than `maximumDepth` or the
    /// thread's stack allows counts as one value, which makes the baseline smaller and the budget
    /// tighter, and so does an object that cannot be read.
    /// - Complexity: O(*n*) in the number of values in `$objects`.
    func distinctDecodedSize(maximumDepth: Int) -> Int {
        var sizes: [Int: Int] = [:]
        var stack = StackGuard()
        var size = 0
        for position in 0..<self.objectCount {
            let object = try? self.list.element(at: position, of: self.objects)
            let objectSize = object.map {
                self.decodedSize(of: $0, depth: 0, maximumDepth: maximumDepth, sizes: &sizes, stack: &stack)
            }
            size = Self.add(size, objectSize ?? PropertyListLimits.decodedValueSize)
        }
        return size
    }

    /// The decoded size of one value with what it contains.
    private func decodedSize(
        of value: List.Value,
        depth: Int,
        maximumDepth: Int,
        sizes: inout [Int: Int],
        stack: inout StackGuard
    ) -> Int {
        let unit = PropertyListLimits.decodedValueSize
        let identity = self.list.objectIdentity(of: value)
        if let identity, let known = sizes[identity] { return known }
        guard depth <= maximumDepth, stack.hasRoom() else { return unit }
        // A value that cannot be read counts as one.
        func childSize(_ read: () throws(KeyedArchiveError) -> List.Value) -> Int {
            guard let child = try? read() else { return unit }
            return self.decodedSize(
                of: child,
                depth: depth + 1,
                maximumDepth: maximumDepth,
                sizes: &sizes,
                stack: &stack
            )
        }
        var size = unit
        if let length = self.list.storedLength(of: value) {
            size = unit &+ length
        } else if let array = List.array(value) {
            for position in 0..<self.list.count(of: array) {
                size = Self.add(
                    size,
                    childSize { () throws(KeyedArchiveError) in try self.list.element(at: position, of: array) }
                )
            }
        } else if let dictionary = List.dictionary(value) {
            for position in 0..<self.list.entryCount(of: dictionary) {
                let key = childSize { () throws(KeyedArchiveError) in
                    try self.list.entryKeyValue(at: position, of: dictionary)
                }
                let value = childSize { () throws(KeyedArchiveError) in
                    try self.list.entryValue(at: position, of: dictionary)
                }
                size = Self.add(size, key &+ value)
            }
        }
        if let identity { sizes[identity] = size }
        return size
    }

    /// Adds decoded sizes, saturating far above any budget instead of overflowing.
    private static func add(_ lhs: Int, _ rhs: Int) -> Int {
        min(lhs &+ rhs, Int.max / 4)
    }
}
