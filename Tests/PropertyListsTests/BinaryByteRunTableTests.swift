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
import Testing

/// The table names runs of bytes by their contents, in the order they first arrive, and keeps its
/// first runs with their ids when emptied.
@Suite struct BinaryByteRunTableTests {
    /// Runs that differ only in length or in one byte past the first eight, with zeros.
    static let lookalikes: [[UInt8]] = [
        [], [0], [0, 0], Array(repeating: 0, count: 8), Array(repeating: 0, count: 9),
        Array(0..<16), Array(0..<15) + [16], Array(0..<17), [0xFF],
    ]

    private static func id(_ bytes: [UInt8], in table: inout BinaryByteRunTable) -> (id: UInt32, isNew: Bool) {
        bytes.withUnsafeBytes { table.id(for: $0) }
    }

    private static func bytes(_ id: UInt32, in table: BinaryByteRunTable) -> [UInt8] {
        table.withBytes(of: id) { Array($0) }
    }

    @Test func equalBytesGetOneIdAndNewBytesTheNext() {
        var table = BinaryByteRunTable()
        for (index, run) in Self.lookalikes.enumerated() {
            #expect(Self.id(run, in: &table) == (UInt32(index), true))
        }
        for (index, run) in Self.lookalikes.enumerated().reversed() {
            #expect(Self.id(run, in: &table) == (UInt32(index), false))
            #expect(Self.bytes(UInt32(index), in: table) == run)
            #expect(table.byteCount(of: UInt32(index)) == run.count)
        }
        #expect(table.count == Self.lookalikes.count)
    }

    @Test(arguments: [0, 5, 2_000])
    func theFirstRunsStayWithTheirIdsWhenTheTableIsEmptied(extra: Int) {
        var table = BinaryByteRunTable()
        for run in Self.lookalikes { _ = Self.id(run, in: &table) }
        // Enough runs to grow the slots several times past the kept ones.
        for index in 0..<extra { _ = Self.id(Array("run \(index)".utf8), in: &table) }
        table.removeAll(keepingFirst: 4)
        #expect(table.count == 4)
        for (index, run) in Self.lookalikes.prefix(4).enumerated() {
            #expect(Self.id(run, in: &table) == (UInt32(index), false))
        }
        #expect(Self.id(Self.lookalikes[4], in: &table) == (4, true))
        #expect(Self.id(Array("run 1".utf8), in: &table) == (5, true))
        table.removeAll()
        #expect(table.isEmpty)
        #expect(Self.id(Self.lookalikes[3], in: &table) == (0, true))
    }
}
