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
import TestSupport
import Testing

/// Deep nesting on the smallest stack a reader meets (512 KiB, Apple's secondary threads): every
/// recursive reader, writer and printer either finishes or throws `depthLimitExceeded`, and
/// never overflows the stack. These run in debug builds, whose frames are the largest.
@Suite struct DeepNestingTests {
    /// `count` binary arrays, each holding the next with a four-byte reference; the last is empty.
    static func nestedBinaryArrays(_ count: Int) -> [UInt8] {
        let objects: [[UInt8]] = (0..<count).map { index in
            index == count - 1 ? [0xA0] : [0xA1] + withUnsafeBytes(of: UInt32(index + 1).bigEndian, Array.init)
        }
        return BinaryPropertyListAssembler.assemble(objects, top: 0, offsetSize: 4, referenceSize: 4)
    }

    /// `count` XML arrays, each holding the next.
    static func nestedXMLArrays(_ count: Int) -> [UInt8] {
        Array(
            ("<plist>" + String(repeating: "<array>", count: count) + String(repeating: "</array>", count: count)
                + "</plist>").utf8
        )
    }

    /// Limits that leave only the thread's stack to stop the readers.
    static let unlimitedDepth = PropertyListLimits(maximumDepth: 1_000_000)

    @Test func binaryReaderStopsAtTheDefaultDepth() throws {
        let bytes = Self.nestedBinaryArrays(600)
        let error = #expect(throws: PropertyListError.self) {
            try SmallStack.run { try PropertyListValue(parsing: bytes) }
        }
        #expect(error?.code == .depthLimitExceeded)
    }

    @Test func binaryReaderStopsBeforeTheStackRunsOut() throws {
        let bytes = Self.nestedBinaryArrays(20_000)
        let error = #expect(throws: PropertyListError.self) {
            try SmallStack.run { try PropertyListValue(parsing: bytes, limits: Self.unlimitedDepth) }
        }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.reason.contains("stack") == true)
    }

    @Test(arguments: [false, true])
    func transcoderStopsBeforeTheStackRunsOut(toXML: Bool) throws {
        let reader = try BinaryPropertyListReader(bytes: Self.nestedBinaryArrays(20_000), limits: Self.unlimitedDepth)
        let error = #expect(throws: PropertyListError.self) {
            try SmallStack.run {
                if toXML { try reader.writeXML { _ in } } else { try reader.writeBinary { _ in } }
            }
        }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.reason.contains("stack") == true)
    }

    /// The ways a tree is written or printed, each as the byte count of its output.
    static let writers: [String: @Sendable (PropertyListValue) -> Int] = [
        "binary": { BinaryPropertyListWriter().write($0).count },
        "xml": { XMLPropertyListWriter().write($0).count },
        "tree": { PropertyListTreePrinter().string(from: $0).utf8.count },
        "json": { PropertyListJSONWriter().write($0).count },
        "description": { $0.description.utf8.count },
        "equality": { $0 == $0 ? 1 : 0 },
        "hash": { $0.hashValue == 0 ? 2 : 1 },
    ]

    /// The writers, `==` and `hash(into:)` recurse once per level with no guard, as they cannot
    /// fail: optimized builds handle the deepest tree the default limits let through in under half
    /// of 512 KiB (measured: 1,000 to 4,000 levels fit), but debug builds take up to four times
    /// that (the JSON writer fills 512 KiB at about 550 levels). The tree printer, which is
    /// guarded, gets the small stack in every build.
    #if DEBUG
    static let unguardedStackSize = 4 * SmallStack.secondaryThreadSize
    #else
    static let unguardedStackSize = SmallStack.secondaryThreadSize
    #endif

    /// A tree as deep as the default limits let through, from the XML reader (which keeps an
    /// explicit stack), goes through every writer and printer on a small stack.
    @Test(arguments: ["binary", "xml", "tree", "json", "description", "equality", "hash"])
    func writersHandleTheDeepestDefaultTree(writer: String) throws {
        let value = try PropertyListValue(parsing: Self.nestedXMLArrays(PropertyListLimits.default.maximumDepth))
        let write = try #require(Self.writers[writer])
        let isGuarded = writer == "tree" || writer == "description"
        let size = try SmallStack.run(size: isGuarded ? SmallStack.secondaryThreadSize : Self.unguardedStackSize) {
            write(value)
        }
        #expect(size > 0)
    }

    /// Where the stack runs short, the printer leaves a container's contents out, and says so.
    @Test func treePrinterMarksWhatNestsTooDeepForTheStack() throws {
        let value = try PropertyListValue(parsing: Self.nestedXMLArrays(3_000), limits: Self.unlimitedDepth)
        let tree = try SmallStack.run { PropertyListTreePrinter().string(from: value) }
        #expect(tree.hasSuffix("array (1 element) [contents nested too deep to print]"))
        #expect(!tree.contains("array (0 elements)"))
    }
}
