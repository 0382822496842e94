//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import KeyedArchiving
import PropertyLists
import TestSupport
import Testing

/// Archives whose objects nest deeply, read on the smallest stack a reader meets (512 KiB, Apple's
/// secondary threads): every reader either finishes or throws `depthLimitExceeded`, and never
/// overflows the stack. These run in debug builds, whose frames are the largest.
@Suite struct DeepArchiveTests {
    final class Link: Decodable, Sendable {
        let next: Link?
    }

    struct ManualLink: ArchiveCoding, Sendable {
        let next: [ManualLink]

        init?(coder: ArchiveCoder) {
            guard let next = coder.decode([ManualLink].self, forKey: "next") else { return nil }
            self.next = next
        }

        func encode(with coder: ArchiveCoder) {
            coder.encode(self.next, forKey: "next")
        }
    }

    static let linkClass: PropertyListValue = ["$classname": "Link", "$classes": ["Link", "NSObject"]]
    static let arrayClass: PropertyListValue = ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]

    /// `count` objects of class `Link`, each holding the next under `next`.
    static func links(_ count: Int) -> KeyedArchive {
        var objects: [PropertyListValue] = ["$null", Self.linkClass]
        for index in 0..<count {
            let next = index == count - 1 ? UID(0) : UID(UInt64(index + 3))
            objects.append(["$class": .uid(1), "next": .uid(next)])
        }
        return KeyedArchive(top: [("root", UID(2))], objects: objects)
    }

    /// `count` `NSArray`s, each holding the next; the last holds a string.
    static func arrays(_ count: Int) -> KeyedArchive {
        var objects: [PropertyListValue] = ["$null", Self.arrayClass]
        for index in 0..<count {
            objects.append(["$class": .uid(1), "NS.objects": [.uid(UID(UInt64(index + 3)))]])
        }
        objects.append("end")
        return KeyedArchive(top: [("root", UID(2))], objects: objects)
    }

    /// Limits under which only the thread's stack stops the readers.
    static let unlimitedDepth = PropertyListLimits(maximumDepth: 1_000_000)

    /// The archive error inside a decoding error (however deeply wrapped), or the error itself.
    static func archiveError(_ error: (any Error)?) -> KeyedArchiveError? {
        var error = error
        while let current = error {
            switch current {
            case let archiveError as KeyedArchiveError: return archiveError
            case DecodingError.dataCorrupted(let context): error = context.underlyingError
            default: return nil
            }
        }
        return nil
    }

    /// Runs `body` on a small stack and returns the archive error it threw.
    static func failure(
        size: Int = SmallStack.secondaryThreadSize,
        _ body: @escaping @Sendable () throws -> Void
    ) -> KeyedArchiveError? {
        let error = #expect(throws: (any Error).self) { try SmallStack.run(size: size, body) }
        return Self.archiveError(error)
    }

    @Test(arguments: [600, 20_000])
    func codableDecoderStops(depth: Int) {
        var decoder = KeyedArchiveDecoder()
        if depth > 600 { decoder.limits = Self.unlimitedDepth }
        let archive = Self.links(depth)
        let error = Self.failure { [decoder] in _ = try decoder.decode(Link.self, from: archive) }
        #expect(error?.code == .depthLimitExceeded)
        // At the default limit, a debug build's frames may fill the stack first.
        if depth > 600 { #expect(error?.reason.contains("stack") == true) }
    }

    @Test func codableDecoderStopsInNestedArrays() {
        var decoder = KeyedArchiveDecoder()
        decoder.limits = Self.unlimitedDepth
        let archive = Self.arrays(20_000)
        let error = Self.failure { [decoder] in _ = try decoder.decode(StringTree.self, from: archive) }
        #expect(error?.code == .depthLimitExceeded)
    }

    @Test func manualDecoderStops() throws {
        var decoder = KeyedArchiveDecoder()
        decoder.limits = Self.unlimitedDepth
        var objects: [PropertyListValue] = [
            "$null", Self.arrayClass, ["$classname": "ManualLink", "$classes": ["ManualLink"]],
        ]
        for index in 0..<10_000 {
            let base = UInt64(3 + 2 * index)
            objects.append(["$class": .uid(2), "next": .uid(UID(base + 1))])
            objects.append(["$class": .uid(1), "NS.objects": index == 9_999 ? [] : [.uid(UID(base + 2))]])
        }
        let archive = KeyedArchive(top: [("root", UID(3))], objects: objects)
        let error = Self.failure { [decoder] in _ = try decoder.decode(ManualLink.self, from: archive) }
        #expect(error?.code == .depthLimitExceeded)
    }

    /// The unarchiver is made on the test's thread and used on another, as its guard must allow.
    @Test func unarchiverStops() {
        var decoder = KeyedArchiveDecoder()
        decoder.limits = Self.unlimitedDepth
        nonisolated(unsafe) let unarchiver = KeyedUnarchiver(archive: Self.links(20_000), decoder: decoder)
        let error = Self.failure { _ = try unarchiver.decodeRootObject(Link.self) }
        #expect(error?.code == .depthLimitExceeded)
    }

    @Test func resolverStops() {
        let archive = Self.arrays(20_000)
        let error = Self.failure { _ = try ArchivedValue(archive: archive, limits: Self.unlimitedDepth) }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.reason.contains("stack") == true)
        let graphError = Self.failure { _ = try ArchivedObjectGraph(archive: archive, limits: Self.unlimitedDepth) }
        #expect(graphError?.code == .depthLimitExceeded)
    }

    @Test func urlBaseChainStops() {
        var objects: [PropertyListValue] = [
            "$null", ["$classname": "NSURL", "$classes": ["NSURL", "NSObject"]], "a/",
        ]
        for index in 0..<20_000 {
            objects.append(["$class": .uid(1), "NS.relative": .uid(2), "NS.base": .uid(UID(UInt64(index + 4)))])
        }
        objects.append(["$class": .uid(1), "NS.relative": "https://example.com/", "NS.base": .uid(0)])
        let archive = KeyedArchive(top: [("root", UID(3))], objects: objects)
        var decoder = KeyedArchiveDecoder()
        decoder.limits = Self.unlimitedDepth
        let error = Self.failure { [decoder] in _ = try decoder.decode(URL.self, from: archive) }
        #expect(error?.code == .depthLimitExceeded)
    }

    /// The deepest value the default limits let through is printed and written on a small stack,
    /// whole or, where the stack runs short, with the deepest contents marked as left out.
    @Test func printersHandleTheDeepestDefaultValue() throws {
        let depth = PropertyListLimits.default.maximumDepth - 1
        let value = try ArchivedValue(archive: Self.arrays(depth))
        let tree = try SmallStack.run { ArchivedValueTreePrinter().string(from: value) }
        #expect(tree.hasSuffix("\"end\"") || tree.hasSuffix("[contents nested too deep to print]"))
        let json = Result { try SmallStack.run { try ArchivedValueJSONWriter().write(value) } }
        switch json {
        case .success(let bytes): #expect(String(decoding: bytes, as: UTF8.self).contains("\"end\""))
        case .failure(let error): #expect(Self.archiveError(error)?.code == .depthLimitExceeded)
        }
    }

    /// On a stack too small for the whole value, the tree printer marks what it leaves out and the
    /// JSON writer throws.
    @Test func printersStopBeforeTheStackRunsOut() throws {
        let value = try ArchivedValue(archive: Self.arrays(500))
        let smallStack = 128 << 10
        let tree = try SmallStack.run(size: smallStack) { ArchivedValueTreePrinter().string(from: value) }
        #expect(tree.hasSuffix("NSArray (1 element) [contents nested too deep to print]"))
        let error = Self.failure(size: smallStack) { _ = try ArchivedValueJSONWriter().write(value) }
        #expect(error?.code == .depthLimitExceeded)
    }
}
