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

/// Writing JSON in chunks produces exactly the text of writing it in one piece.
@Suite struct ArchivedValueJSONWriterChunkTests {
    private struct SinkFailure: Error {}

    @Test(arguments: Fixtures.appleFixtureNames)
    func chunksConcatenateToTheWholeText(name: String) throws {
        let value = try PropertyListValue(parsing: try Fixtures.apple(name))
        for formatting: ArchivedValueJSONWriter.OutputFormatting in [[], [.prettyPrinted, .sortedKeys]] {
            let writer = ArchivedValueJSONWriter(outputFormatting: formatting)
            let whole: [UInt8]
            do {
                whole = try writer.write(propertyList: value)
            } catch {
                // An archive that does not resolve (the circular fixtures do) fails the same way in chunks.
                #expect(throws: KeyedArchiveError.self) { try writer.write(propertyList: value, chunkSize: 7) { _ in } }
                continue
            }
            for chunkSize in [1, 7, 4096] {
                var chunked: [UInt8] = []
                var calls = 0
                try writer.write(propertyList: value, chunkSize: chunkSize) { chunk in
                    chunked += chunk
                    calls += 1
                }
                #expect(chunked == whole)
                if chunkSize == 1, whole.count > 100 { #expect(calls > 1) }
            }
        }
    }

    @Test func aFailingSinkStopsTheWrite() throws {
        let value = try PropertyListValue(parsing: try Fixtures.apple("nsarray_runningprocesses.bplist"))
        var calls = 0
        #expect(throws: SinkFailure.self) {
            try ArchivedValueJSONWriter().write(propertyList: value, chunkSize: 16) { _ in
                calls += 1
                throw SinkFailure()
            }
        }
        #expect(calls == 1)
    }
}
