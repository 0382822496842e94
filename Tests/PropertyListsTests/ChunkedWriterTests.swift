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
import PropertyLists
import TestSupport
import Testing

/// Writing in chunks produces exactly the bytes of writing in one piece.
@Suite struct ChunkedWriterTests {
    private struct SinkFailure: Error {}

    @Test(arguments: [1, 7, 100, 4096, 1 << 20])
    func chunksConcatenateToTheWholeOutput(chunkSize: Int) throws {
        for seed in UInt64(0)..<40 {
            let value = RandomPropertyList.value(seed: seed)
            var binary: [UInt8] = []
            var chunks = 0
            try BinaryPropertyListWriter().write(value, chunkSize: chunkSize) { chunk in
                binary += chunk
                chunks += 1
            }
            #expect(binary == BinaryPropertyListWriter().write(value))
            var xml: [UInt8] = []
            try XMLPropertyListWriter().write(value, chunkSize: chunkSize) { xml += $0 }
            #expect(xml == XMLPropertyListWriter().write(value))
            if chunkSize == 1 { #expect(chunks > 1) }
        }
    }

    /// A chunk exceeds its size by at most one element (XML) or one object (binary).
    @Test func chunksStayNearTheirSize() throws {
        let value: PropertyListValue = .array(
            (0..<300).map { outer in .array((0..<10).map { .string("element \(outer)-\($0)") }) }
        )
        var largest = 0
        try XMLPropertyListWriter().write(value, chunkSize: 1_000) { largest = max(largest, $0.count) }
        #expect(largest < 2_000)
        largest = 0
        try BinaryPropertyListWriter().write(value, chunkSize: 1_000) { largest = max(largest, $0.count) }
        #expect(largest < 2_000)
    }

    @Test func theSinksFirstErrorIsThrownAndWritingStops() {
        let value: PropertyListValue = .array((0..<1_000).map { .integer(PropertyListInteger(Int64($0))) })
        var calls = 0
        #expect(throws: SinkFailure.self) {
            try BinaryPropertyListWriter().write(value, chunkSize: 16) { _ in
                calls += 1
                throw SinkFailure()
            }
        }
        #expect(calls == 1)
        calls = 0
        #expect(throws: SinkFailure.self) {
            try XMLPropertyListWriter().write(value, chunkSize: 16) { _ in
                calls += 1
                throw SinkFailure()
            }
        }
        #expect(calls == 1)
    }
}
