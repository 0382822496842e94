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
import KeyedArchivingMacros
import PropertyLists
import TestSupport
import Testing

/// UIDs read from an archive that refer to no object: past `Int.max` (negative once truncated to
/// an `Int`), past the object count, or equal to an object's index in their low 32 bits. Every
/// reader must report them, on both paths and through every entry point, as a `DecodingError`
/// with the path of the value that held them; none may trap or read another object.
@Suite struct HostileReferenceTests {
    /// The fuzz finding (`FuzzTesting/FailCases/FuzzArchivableDecoder/`): the archive of
    /// `FuzzArchivableDecoder`'s model whose `cover.items`, an array of strings read by the
    /// `Codable` path's quick form, is UID 9825816866292317267, above `Int.max`.
    static func fuzzFinding() throws -> Data {
        try Fixtures.failCase("codable-quick-string-array-index-out-of-range.bplist", of: "FuzzArchivableDecoder")
    }

    /// UIDs that refer to no object of an archive of `count` objects.
    static func hostileUIDs(objectCount count: Int) -> [(String, UID)] {
        [
            ("the object count", UID(UInt64(count))),
            ("past the object count", UID(UInt64(count) + 7)),
            ("UInt32.max", UID(UInt64(UInt32.max))),
            ("object 1 plus 2^32", UID(1 << 32 | 1)),
            ("Int.max", UID(UInt64(Int.max))),
            ("2^63, Int.min once truncated", UID(1 << 63)),
            ("2^63 + 1", UID(1 << 63 | 1)),
            ("UInt64.max, -1 once truncated", UID(UInt64.max)),
            ("the fuzz finding's", UID(9_825_816_866_292_317_267)),
        ]
    }

    /// Decoding meets the UID while reading in place; the archive read whole then fails first (a
    /// dictionary key elsewhere that is not a string), and that is the error reported.
    @Test func theFuzzFindingIsADecodingErrorOnBothPaths() throws {
        let data = try Self.fuzzFinding()
        let outcomes = BothPaths.modes.map { BothPaths.outcome(FuzzReplayModel.self, from: data, $0) }
        #expect(outcomes[0] == outcomes[1])
        for mode in BothPaths.modes {
            let error = #expect(throws: DecodingError.self, "\(mode)") {
                try BothPaths.decoder(mode).decode(FuzzReplayModel.self, from: data)
            }
            #expect(error.map(Self.codingPath) == [], "\(mode)")
            #expect(error.flatMap(Self.archiveErrorCode) == .malformedPropertyList, "\(mode)")
        }
    }

    /// The unarchiver reads the archive whole before it decodes anything.
    @Test func theFuzzFindingIsADecodingErrorThroughTheUnarchiver() throws {
        let data = try Self.fuzzFinding()
        for mode in BothPaths.modes {
            let error = #expect(throws: DecodingError.self, "\(mode)") {
                try KeyedUnarchiver(data: data, decoder: BothPaths.decoder(mode)).decodeRootObject(FuzzReplayModel.self)
            }
            #expect(error.map(Self.codingPath) == [], "\(mode)")
            #expect(error.flatMap(Self.archiveErrorCode) == .malformedPropertyList, "\(mode)")
        }
    }

    /// Each field form a reader has a quick way to read, pointed at each hostile UID: the same
    /// error on both paths, at the field's path, naming the bad reference.
    @Test func hostileUIDsInEveryFieldFailAlikeWithTheirPath() throws {
        let value = HostileTarget(
            tags: ["a", "b"],
            name: "n",
            when: Date(timeIntervalSinceReferenceDate: 5),
            flavor: .sour,
            page: Page(items: ["p"], next: 1),
            pages: [Page(items: ["q"], next: nil)],
            number: 3
        )
        let data = try KeyedArchiveEncoder().encode(value)
        let archive = try KeyedArchive(parsing: data)
        let root = try #require(archive.topUID(forKey: "root")?.index(below: archive.objects.count))
        let page = try #require(archive.objects[root]["page"]?.uidValue?.index(below: archive.objects.count))
        for (name, uid) in Self.hostileUIDs(objectCount: archive.objects.count) {
            for key in ["tags", "name", "when", "flavor", "page", "pages", "number"] {
                var edited = archive
                edited.objects[root] = try Self.replacing(key, with: .uid(uid), in: edited.objects[root])
                try Self.expectSameFailure(edited, at: [key], "\(key) = \(name)")
            }
            // Inside a nested value, and as the class of the root and of a nested value.
            var nested = archive
            nested.objects[page] = try Self.replacing("items", with: .uid(uid), in: nested.objects[page])
            try Self.expectSameFailure(nested, at: ["page", "items"], "page.items = \(name)")
            var rootClass = archive
            rootClass.objects[root] = try Self.replacing("$class", with: .uid(uid), in: rootClass.objects[root])
            try Self.expectSameFailure(rootClass, at: [], "root $class = \(name)")
            var pageClass = archive
            pageClass.objects[page] = try Self.replacing("$class", with: .uid(uid), in: pageClass.objects[page])
            try Self.expectSameFailure(pageClass, at: ["page"], "page $class = \(name)")
            // An element of an array of strings.
            let tags = try #require(archive.objects[root]["tags"]?.uidValue?.index(below: archive.objects.count))
            var element = archive
            element.objects[tags] = try Self.replacing("NS.objects", with: [.uid(uid)], in: element.objects[tags])
            try Self.expectSameFailure(element, at: ["tags", "[0]"], "tags[0] = \(name)")
            // The root itself.
            var top = archive
            top.top[0].value = .uid(uid)
            try Self.expectSameFailure(top, at: [], "root = \(name)")
        }
    }

    // MARK: - Helpers

    static func replacing(
        _ key: String,
        with value: PropertyListValue,
        in object: PropertyListValue
    ) throws -> PropertyListValue {
        var dictionary = try #require(object.dictionaryValue)
        dictionary[key] = value
        return .dictionary(dictionary)
    }

    /// Decodes `archive` as a ``HostileTarget`` on both paths and through the unarchiver: each must
    /// fail alike, with a `DecodingError` at `path` (indices as `[n]`).
    static func expectSameFailure(
        _ archive: KeyedArchive,
        at path: [String],
        _ comment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        // Binary archives are read in place, XML ones as a tree first.
        for (format, data) in [("binary", archive.serialized()), ("XML", archive.serialized(as: .xml))] {
            try Self.expectSameFailure(data, at: path, "\(comment), \(format)", sourceLocation: sourceLocation)
        }
    }

    static func expectSameFailure(
        _ data: Data,
        at path: [String],
        _ comment: String,
        sourceLocation: SourceLocation
    ) throws {
        let outcomes = BothPaths.modes.map { BothPaths.outcome(HostileTarget.self, from: data, $0) }
        #expect(outcomes[0] == outcomes[1], "\(comment)", sourceLocation: sourceLocation)
        for mode in BothPaths.modes {
            let error = #expect(throws: DecodingError.self, "\(comment), \(mode)", sourceLocation: sourceLocation) {
                try BothPaths.decoder(mode).decode(HostileTarget.self, from: data)
            }
            #expect(error.map(Self.codingPath) == path, "\(comment), \(mode)", sourceLocation: sourceLocation)
            let unarchived = #expect(throws: DecodingError.self, "\(comment), \(mode)", sourceLocation: sourceLocation)
            {
                try KeyedUnarchiver(data: data, decoder: BothPaths.decoder(mode)).decodeRootObject(HostileTarget.self)
            }
            #expect(
                unarchived.map(Self.codingPath) == ["root"] + path,
                "\(comment), \(mode)",
                sourceLocation: sourceLocation
            )
        }
    }

    static func codingPath(of error: DecodingError) -> [String] {
        let context: DecodingError.Context
        switch error {
        case .keyNotFound(_, let found), .typeMismatch(_, let found), .valueNotFound(_, let found),
            .dataCorrupted(let found):
            context = found
        @unknown default:
            return ["unknown"]
        }
        return context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
    }

    static func archiveErrorCode(of error: DecodingError) -> KeyedArchiveError.Code? {
        guard case .dataCorrupted(let context) = error else { return nil }
        return (context.underlyingError as? KeyedArchiveError)?.code
    }
}

/// The part of `FuzzArchivableDecoder`'s model (class `Fuzz.Model`) that leads to the fuzz
/// finding: the fields before `cover` are read first and hold values the finding decodes.
@Archivable(version: 3, className: "Fuzz.Model")
struct FuzzReplayModel: Equatable {
    var name: String
    var count = 0
    var nickname: String?
    var tags: [String] = []
    var page = Page<Int>(items: [])
    var shelf: [Page<Int>] = []
    var cover: Page<String>?
}

/// A field of every form the readers read quickly: strings, an array of strings, a date, a
/// raw-value enum, a nested generic value, an array of them and an integer.
@Archivable
struct HostileTarget: Equatable {
    var tags: [String]
    var name: String
    var when: Date
    var flavor: Flavor
    var page: Page<String>
    var pages: [Page<String>]
    var number: Int
}
