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
import Testing

/// What decoding a binary archive in place changes, and what it keeps: only the objects a value
/// reaches are read, and a fault anywhere in the archive reports what reading it whole reports.
@Suite struct InPlaceDecodingTests {
    struct Named: Codable, Equatable {
        var name: String

        enum CodingKeys: String, CodingKey {
            case name
        }
    }

    /// A binary archive of `Named(name: "Tom")` whose `$objects` also holds the string `extra`,
    /// reachable from nothing, with the marker of the string `corrupted` ("Tom" or `extra`)
    /// replaced by a byte that is no marker.
    private func archive(corrupting corrupted: String, extra: String = "UNREACHABLE!") throws -> Data {
        var model = try KeyedArchiveEncoder().encodeArchive(Named(name: "Tom"))
        model.objects.append(.string(extra))
        var bytes = [UInt8](model.serialized(as: .binary))
        let target = Array(corrupted.utf8)
        let start = try #require(
            (0...(bytes.count - target.count)).first { bytes[$0..<($0 + target.count)].elementsEqual(target) }
        )
        // The marker before an ASCII string of fewer than 15 bytes; 0x70 is no marker at all.
        #expect(bytes[start - 1] == 0x50 | UInt8(target.count))
        bytes[start - 1] = 0x70
        return Data(bytes)
    }

    /// Keeps the container it was decoded from, as `init(from:)` may.
    final class ContainerKeeper: Decodable {
        let container: KeyedDecodingContainer<Named.CodingKeys>

        init(from decoder: any Decoder) throws {
            self.container = try decoder.container(keyedBy: Named.CodingKeys.self)
        }
    }

    /// The decoder reads the caller's bytes in place, without a copy; a container that outlives the
    /// call still reads the archive after the caller's buffer is overwritten and freed.
    @Test func aContainerKeptPastTheCallReadsItsOwnCopy() throws {
        let name = "Tom, a cat with a name longer than a short string"
        var bytes = [UInt8](try KeyedArchiveEncoder().encode(Named(name: name)))
        let keeper = try KeyedArchiveDecoder().decode(ContainerKeeper.self, from: bytes)
        for index in bytes.indices { bytes[index] = 0 }
        bytes = []
        #expect(try keeper.container.decode(String.self, forKey: .name) == name)
    }

    @Test func anUnreachableMalformedObjectDoesNotStopDecoding() throws {
        let bytes = try self.archive(corrupting: "UNREACHABLE!")
        #expect(try KeyedArchiveDecoder().decode(Named.self, from: bytes) == Named(name: "Tom"))
        // Reading the whole archive meets the object, and fails.
        #expect(throws: KeyedArchiveError(.malformedPropertyList)) { try KeyedArchive(parsing: bytes) }
    }

    @Test func aReachableMalformedObjectReportsWhatReadingTheWholeArchiveReports() throws {
        let bytes = try self.archive(corrupting: "Tom")
        let whole = #expect(throws: KeyedArchiveError.self) { try KeyedArchive(parsing: bytes) }
        let error = #expect(throws: DecodingError.self) { try KeyedArchiveDecoder().decode(Named.self, from: bytes) }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        let underlying = try #require(context.underlyingError as? KeyedArchiveError)
        #expect(underlying == whole)
        #expect(underlying.code == .malformedPropertyList)
        #expect((underlying.underlying?.code) == .invalidMarker)
    }

    /// Decodes two strings from an array, keeping what decoding the second one threw.
    struct SecondStringProbe: Decodable {
        var first: String
        var caught: (any Error)?

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            self.first = try container.decode(String.self)
            do {
                _ = try container.decode(String.self)
            } catch {
                self.caught = error
            }
        }
    }

    @Test func aMalformedObjectMetInsideInitFromIsADecodingErrorAtItsPath() throws {
        let model = try KeyedArchiveEncoder().encodeArchive(["Tom", "Zoë-free"])
        var bytes = [UInt8](model.serialized(as: .binary))
        let target = Array("Zoë-free".utf8)
        // Stored as UTF-16 ("ë" is not ASCII): corrupt its marker, 0x68 for eight units.
        let unit = Array("Z".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let start = try #require((0..<(bytes.count - 2)).first { bytes[$0..<($0 + 2)].elementsEqual(unit) })
        #expect(bytes[start - 1] == 0x60 | UInt8(target.count - 1))
        bytes[start - 1] = 0x70
        let probe = try KeyedArchiveDecoder().decode(SecondStringProbe.self, from: Data(bytes))
        #expect(probe.first == "Tom")
        let caught = try #require(probe.caught as? DecodingError)
        guard case .dataCorrupted(let context) = caught else {
            Issue.record("expected dataCorrupted, got \(caught)")
            return
        }
        #expect(context.codingPath.map(\.intValue) == [1])
        #expect((context.underlyingError as? KeyedArchiveError)?.code == .malformedPropertyList)
    }

    @Test func binaryAndXMLArchivesDecodeAlike() throws {
        struct Record: Codable, Equatable {
            var name: String
            var nickname: String?
            var tags: [String]
            var scores: [String: Double]
            var born: Date
            var photo: Data
            var id: UUID
            var home: URL
        }
        let record = Record(
            name: "Zoë — a name longer than fifteen bytes",
            nickname: nil,
            tags: ["a", "b", "a"],
            scores: ["x": 1.5, "$y": -2],
            born: Date(timeIntervalSinceReferenceDate: 1_000),
            photo: Data([1, 2, 3]),
            id: UUID(),
            home: try #require(URL(string: "https://example.com/a?b=c"))
        )
        var encoder = KeyedArchiveEncoder()
        for format in [PropertyListFormat.binary, .xml] {
            encoder.outputFormat = format
            let bytes = try encoder.encode([record, record])
            #expect(try KeyedArchiveDecoder().decode([Record].self, from: bytes) == [record, record], "\(format)")
        }
    }

    @Test func anUnarchiverOverAnInvalidModelThrowsWhenDecoding() throws {
        // `$objects` must start with `$null`; the model is built by hand without it.
        let model = KeyedArchive(top: [("root", UID(0))], objects: ["not $null"])
        let unarchiver = KeyedUnarchiver(archive: model)
        #expect(unarchiver.allKeys == ["root"])
        let error = #expect(throws: DecodingError.self) { try unarchiver.decodeRootObject(String.self) }
        guard case .dataCorrupted(let context)? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect((context.underlyingError as? KeyedArchiveError)?.code == .invalidObjects)
    }
}
