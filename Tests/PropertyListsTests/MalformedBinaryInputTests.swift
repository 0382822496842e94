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

/// Hostile binary input: each case must throw the expected error, never trap, never hang.
@Suite struct MalformedBinaryInputTests {
    static let binaryFixtures = Fixtures.appleFixtureNames.filter { name in
        (try? Fixtures.apple(name).starts(with: Array("bplist00".utf8))) == true
    }

    private func expectError(
        _ code: PropertyListError.Code,
        _ bytes: [UInt8],
        limits: PropertyListLimits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(throws: PropertyListError(code), sourceLocation: sourceLocation) {
            try PropertyListValue(parsing: bytes, limits: limits)
        }
    }

    /// A valid file: an array of two integers 1 and 2, one-byte offsets and references.
    private static let valid = BinaryPropertyListAssembler.assemble([[0xA2, 1, 2], [0x10, 1], [0x10, 2]], top: 0)
    private static var trailerStart: Int { valid.count - 32 }

    @Test func theBaselineIsValid() throws {
        #expect(try PropertyListValue(parsing: Self.valid) == [1, 2])
    }

    @Test(arguments: binaryFixtures)
    func everyTruncationThrows(fixture: String) throws {
        let bytes = [UInt8](try Fixtures.apple(fixture))
        for length in 0..<bytes.count {
            #expect(throws: PropertyListError.self) { try PropertyListValue(parsing: bytes[0..<length]) }
        }
    }

    /// Binary and XML fixtures alike.
    @Test(arguments: Fixtures.appleFixtureNames)
    func seededByteFlipsThrowOrParseButNeverTrap(fixture: String) throws {
        let original = [UInt8](try Fixtures.apple(fixture))
        var rng = SplitMix64(seed: UInt64(fixture.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        var failures = 0
        for _ in 0..<400 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            do {
                let value = try PropertyListValue(parsing: bytes)
                // Whatever parses must write and read back to itself.
                #expect(try PropertyListValue(parsing: value.serialized()) == value)
            } catch {
                failures += 1
            }
        }
        #expect(failures > 0)
    }

    @Test func wrongHeaderIsRejected() {
        var bytes = Self.valid
        bytes[7] = UInt8(ascii: "1")
        expectError(.unknownFormat, bytes)
        #expect(throws: PropertyListError(.invalidHeader)) { try BinaryPropertyListReader(bytes: bytes) }
    }

    @Test func tooShortForATrailer() {
        expectError(.truncated, Array("bplist00".utf8) + [UInt8](repeating: 0, count: 32))
    }

    @Test(arguments: [0, 3, 9, 255])
    func offsetSizeOutOfRange(size: UInt8) {
        var bytes = Self.valid
        bytes[Self.trailerStart + 6] = size
        // Three-byte offsets are legal, but three of them run into the trailer.
        expectError(.invalidTrailer, bytes)
    }

    @Test(arguments: [0, 9, 200])
    func referenceSizeOutOfRange(size: UInt8) {
        var bytes = Self.valid
        bytes[Self.trailerStart + 7] = size
        expectError(.invalidTrailer, bytes)
    }

    @Test(arguments: [UInt64(0), 4, 1 << 40, UInt64.max])
    func objectCountInconsistent(count: UInt64) {
        var bytes = Self.valid
        bytes.replaceSubrange((Self.trailerStart + 8)..<(Self.trailerStart + 16), with: Self.bigEndian(count))
        expectError(.invalidTrailer, bytes)
    }

    @Test(arguments: [UInt64(3), 1 << 63, UInt64.max])
    func topObjectOutOfRange(top: UInt64) {
        var bytes = Self.valid
        bytes.replaceSubrange((Self.trailerStart + 16)..<(Self.trailerStart + 24), with: Self.bigEndian(top))
        expectError(.invalidTrailer, bytes)
    }

    @Test(arguments: [UInt64(0), 8, 20, 1 << 62, UInt64.max])
    func offsetTableOffsetOutOfRange(offset: UInt64) {
        var bytes = Self.valid
        bytes.replaceSubrange((Self.trailerStart + 24)..<(Self.trailerStart + 32), with: Self.bigEndian(offset))
        expectError(.invalidTrailer, bytes)
    }

    @Test func tooManyObjectsForTheReferenceWidth() {
        // 257 objects cannot be referenced with one byte.
        var objects: [[UInt8]] = [[0xA0]]
        objects += (0..<256).map { _ in [0x08] }
        var bytes = BinaryPropertyListAssembler.assemble(objects, top: 0)
        #expect(bytes[bytes.count - 32 + 7] == 1)
        bytes[bytes.count - 32 + 6] = 2
        expectError(.invalidTrailer, bytes)
    }

    @Test(arguments: [0, 3, 15, 255])
    func offsetOutsideTheObjectArea(offset: UInt8) {
        var bytes = Self.valid
        let table = bytes.count - 32 - 3
        bytes[table + 1] = offset
        expectError(.invalidOffset, bytes)
    }

    @Test(arguments: [UInt8(0x00), 0x0F, 0x15, 0x20, 0x24, 0x30, 0x70, 0x90, 0xB0, 0xC0, 0xE0, 0xF0])
    func unknownMarkers(marker: UInt8) {
        let bytes = BinaryPropertyListAssembler.assemble([[marker, 0, 0, 0, 0, 0, 0, 0, 0]], top: 0)
        expectError(.invalidMarker, bytes)
    }

    @Test func referenceBeyondTheObjectCount() {
        let bytes = BinaryPropertyListAssembler.assemble([[0xA1, 7]], top: 0)
        expectError(.invalidReference, bytes)
    }

    @Test(arguments: [
        [UInt8]([0x5F, 0x10, 0x7F]), [0x4F, 0x11, 0xFF, 0xFF], [0x6F, 0x12, 0x7F, 0xFF, 0xFF, 0xFF],
        [0xAF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        [0xDF, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x55],
    ])
    func declaredCountsBeyondTheBytesLeft(object: [UInt8]) {
        let bytes = BinaryPropertyListAssembler.assemble([object], top: 0)
        expectError(.invalidLength, bytes)
    }

    @Test(arguments: [[UInt8]([0x5F, 0x50]), [0x5F, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]])
    func countMarkerThatIsNotASmallInteger(object: [UInt8]) {
        let bytes = BinaryPropertyListAssembler.assemble([object], top: 0)
        expectError(.invalidLength, bytes)
    }

    @Test(arguments: [
        [UInt8]([0x13, 0, 0, 0]), [0x23, 0, 0], [0x33, 0], [0x22, 1], [0x81, 1], [0x14, 0, 0, 0, 0],
    ])
    func scalarsRunningPastTheObjectArea(object: [UInt8]) {
        let bytes = BinaryPropertyListAssembler.assemble([object], top: 0)
        expectError(.truncated, bytes)
    }

    @Test func sixteenByteIntegerOutOfRange() throws {
        let object: [UInt8] = [0x14, 0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
        expectError(.invalidInteger, BinaryPropertyListAssembler.assemble([object], top: 0))
        let negative: [UInt8] =
            [0x14] + [UInt8](repeating: 0xFF, count: 8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]
        #expect(try PropertyListValue(parsing: BinaryPropertyListAssembler.assemble([negative], top: 0)) == -2)
    }

    @Test func uidWiderThanEightBytes() {
        let object: [UInt8] = [0x8F] + [UInt8](repeating: 1, count: 16)
        expectError(.invalidUID, BinaryPropertyListAssembler.assemble([object], top: 0))
    }

    @Test func nonASCIIByteInAnASCIIString() {
        expectError(.invalidString, BinaryPropertyListAssembler.assemble([[0x52, 0x41, 0xC3]], top: 0))
    }

    @Test func nonStringDictionaryKey() {
        let bytes = BinaryPropertyListAssembler.assemble([[0xD1, 1, 1], [0x10, 1]], top: 0)
        expectError(.invalidDictionaryKey, bytes)
    }

    @Test func arrayContainingItself() {
        expectError(.cyclicReference, BinaryPropertyListAssembler.assemble([[0xA1, 0]], top: 0))
    }

    @Test func cycleThroughSeveralContainers() {
        let bytes = BinaryPropertyListAssembler.assemble(
            [[0xA1, 1], [0xD1, 2, 3], [0x51, 0x6B], [0xA2, 2, 0]],
            top: 0
        )
        expectError(.cyclicReference, bytes)
    }

    @Test func nestingBeyondTheDepthLimit() {
        // 600 arrays, each holding the next.
        var objects = (0..<599).map { [UInt8(0xA1), 0, 0].withReference($0 + 1) }
        objects.append([0xA0])
        let bytes = BinaryPropertyListAssembler.assemble(objects, top: 0, offsetSize: 2, referenceSize: 2)
        expectError(.depthLimitExceeded, bytes)
        expectError(.depthLimitExceeded, bytes, limits: PropertyListLimits(maximumDepth: 10))
        #expect((try? PropertyListValue(parsing: bytes, limits: PropertyListLimits(maximumDepth: 600))) != nil)
    }

    @Test func inputLargerThanTheLimit() {
        expectError(.sizeLimitExceeded, Self.valid, limits: PropertyListLimits(maximumInputSize: 40))
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian, Array.init)
    }
}

extension [UInt8] {
    /// A one-element array marker with a two-byte reference to `index`.
    fileprivate func withReference(_ index: Int) -> [UInt8] {
        [self[0], UInt8(index >> 8), UInt8(index & 0xFF)]
    }
}
