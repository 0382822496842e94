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

/// Each limit of `PropertyListLimits` is enforced by both readers, with `sizeLimitExceeded`.
@Suite struct PropertyListLimitsTests {
    private static let value: PropertyListValue = [
        "name": "Tom", "photo": .data(Data(repeating: 7, count: 40)), "tags": ["a", "b", "c", "d"],
        "nested": ["x": 1, "y": 2],
    ]

    private func expectLimit(
        _ adjust: (inout PropertyListLimits) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var limits = PropertyListLimits.default
        adjust(&limits)
        for format in PropertyListFormat.allCases {
            let bytes = Self.value.serialized(as: format)
            #expect(throws: PropertyListError(.sizeLimitExceeded), sourceLocation: sourceLocation) {
                try PropertyListValue(parsing: bytes, limits: limits)
            }
            #expect(try PropertyListValue(parsing: bytes) == Self.value, sourceLocation: sourceLocation)
        }
    }

    @Test func objectCount() throws { try self.expectLimit { $0.maximumObjectCount = 5 } }
    @Test func collectionCount() throws { try self.expectLimit { $0.maximumCollectionCount = 3 } }
    @Test func stringLength() throws { try self.expectLimit { $0.maximumStringLength = 2 } }
    @Test func dataLength() throws { try self.expectLimit { $0.maximumDataLength = 39 } }
    @Test func inputSize() throws { try self.expectLimit { $0.maximumInputSize = 20 } }

    @Test func limitsExactlyAtTheSizeAreAccepted() throws {
        var limits = PropertyListLimits.default
        limits.maximumCollectionCount = 4
        limits.maximumStringLength = 6
        limits.maximumDataLength = 40
        for format in PropertyListFormat.allCases {
            #expect(try PropertyListValue(parsing: Self.value.serialized(as: format), limits: limits) == Self.value)
        }
    }

    @Test func utf16StringsCountTheirStoredBytes() throws {
        let bytes = PropertyListValue.string("ééé").serialized(as: .binary)
        var limits = PropertyListLimits.default
        limits.maximumStringLength = 5
        #expect(throws: PropertyListError(.sizeLimitExceeded)) { try PropertyListValue(parsing: bytes, limits: limits) }
        limits.maximumStringLength = 6
        #expect(try PropertyListValue(parsing: bytes, limits: limits) == "ééé")
    }

    @Test func sharedValuesCountAtEveryReference() throws {
        // One 1,000-byte string referenced 2,000 times: 2 MB decoded from 5 KB.
        let string = PropertyListValue.string(String(repeating: "x", count: 1000))
        let bytes = PropertyListValue.array(Array(repeating: string, count: 2000)).serialized(as: .binary)
        #expect(bytes.count < 6000)
        var limits = PropertyListLimits.default
        limits.decodedSizeAllowance = 1 << 20
        #expect(throws: PropertyListError(.decodedSizeLimitExceeded)) {
            try PropertyListValue(parsing: bytes, limits: limits)
        }
        limits.decodedSizeAllowance = 4 << 20
        #expect(try PropertyListValue(parsing: bytes, limits: limits).arrayValue?.count == 2000)
        // With the default allowance of 64 MiB it reads, and the printers then write 2 MB, not more.
        let value = try PropertyListValue(parsing: bytes)
        #expect(PropertyListJSONWriter().write(value).count < 2_100_000)
    }

    @Test func everyFixtureReadsWithinTheDefaultLimits() throws {
        for name in Fixtures.appleFixtureNames {
            _ = try PropertyListValue(parsing: Fixtures.apple(name))
        }
    }
}
