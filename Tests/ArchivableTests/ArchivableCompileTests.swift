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
public import KeyedArchiving
import KeyedArchivingMacros
import Testing

// Types covering every rule of `@Archivable`: that they compile warning-free is half the test.

/// A public struct with defaults, optionals, renamed keys, an ignored, a fallback and unknown fields.
@Archivable
public struct CompileCat: Equatable {
    /// Required.
    public var name: String
    /// Defaulted.
    public var lives = 9
    /// Optional, renamed, with a former key.
    @ArchiveKey("color", "colour") public var color: String?
    /// Optional with a non-nil initial value.
    public var nickname: String? = "Kitty"
    /// Not archived.
    @ArchiveIgnored public var cache: [Int] = []
    /// Falls back to its initial value.
    @ArchiveFallback public var mood = 1
    /// Kept unknown fields.
    public var unknownFields = ArchiveUnknownFields()

    /// Creates a cat.
    public init(name: String) { self.name = name }
}

/// An internal struct with synthesized-equivalent coding.
@Archivable
struct CompilePoint: Equatable {
    var x: Int
    var y: Double?
    let label: String
}

/// Its twin with synthesized `Codable`.
struct SynthesizedPoint: Codable, Equatable {
    var x: Int
    var y: Double?
    let label: String
}

/// A final class without an initializer.
@Archivable
final class CompileBox {
    var width = 1
    var title: String?
}

/// A final class with an initializer.
@Archivable
final class CompileNamedBox {
    var name: String
    var size = 2
    init(name: String) { self.name = name }
}

/// A generic struct.
@Archivable
struct Page<Element>: Equatable where Element: Equatable {
    var items: [Element]
    var next: Int?
}

/// A generic final class.
@Archivable
final class Holder<Value> {
    var value: Value
    init(value: Value) { self.value = value }
}

/// A raw-value enum with an unknown case.
@Archivable
enum CompileMood: String, Equatable {
    case calm
    case grumpy
    @ArchiveUnknownCase case unknown
}

/// An enum with associated values and an unknown case.
@Archivable
enum CompileShape: Equatable {
    case dot
    case line(Int, label: String)
    case maybe(x: Int?)
    @ArchiveKey("square", "box") case square
    @ArchiveUnknownCase case unknown
}

/// Its twin with synthesized `Codable`.
enum SynthesizedShape: Codable, Equatable {
    case dot
    case line(Int, label: String)
    case maybe(x: Int?)
    case square
    case unknown
}

/// Version 1 of a versioned type.
@Archivable
struct TrackV1: Equatable {
    var title: String
}

/// Version 2.
@Archivable(version: 2, previousVersion: TrackV1.self)
struct TrackV2: Equatable {
    var name: String
    init(name: String) { self.name = name }
    init(migratingFrom previous: TrackV1) { self.name = previous.title }
}

/// Version 3, with a class name.
@Archivable(version: 3, previousVersion: TrackV2.self, className: "App.Track", formerClassNames: ["Old.Track"])
struct Track: Equatable {
    var name: String
    var seconds = 0
    init(name: String, seconds: Int) {
        self.name = name
        self.seconds = seconds
    }
    init(migratingFrom previous: TrackV2) { self.name = previous.name }
}

/// A versioned final class with a migration.
@Archivable(version: 2, previousVersion: TrackV1.self)
final class TrackBox {
    var name: String
    let id: Int
    init(name: String, id: Int) {
        self.name = name
        self.id = id
    }
    init(migratingFrom previous: TrackV1) {
        self.name = previous.title
        self.id = 0
    }
}

/// An empty struct.
@Archivable
struct Nothing: Equatable {}

/// A type that also declares `Codable` itself: the conformance is its own, the members
/// `@Archivable`'s, with its rules.
@Archivable
struct AlsoCodable: Codable, Equatable {
    var name: String
    var count = 1
}

@Suite struct ArchivableCompileTests {
    /// Encodes with sorted keys, as text.
    func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Where the fallbacks of ``decode(_:_:)`` go, so that the tests can check them.
    let recorder = ArchiveFallbackRecorder()

    /// Decodes `text`, reporting fallbacks to ``recorder``.
    func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.userInfo[.archiveFallbackRecorder] = self.recorder
        return try decoder.decode(type, from: Data(text.utf8))
    }

    @Test func structRoundTripsAndKeepsUnknownFields() throws {
        var cat = CompileCat(name: "Tom")
        cat.color = "red"
        let text = try self.json(cat)
        #expect(text == #"{"color":"red","lives":9,"mood":1,"name":"Tom","nickname":"Kitty"}"#)
        #expect(try self.decode(CompileCat.self, text) == cat)
        let old = try self.decode(
            CompileCat.self,
            #"{"name":"Tom","colour":"blue","mood":"x","extra":5,"nickname":null}"#
        )
        #expect(old.color == "blue")
        #expect(old.mood == 1)
        #expect(old.nickname == nil)
        #expect(old.unknownFields.keys == ["extra"])
        #expect(try self.json(old).contains(#""extra":5"#))
        #expect(self.recorder.fallbacks.map(\.key) == ["mood"])
    }

    @Test func structMatchesSynthesized() throws {
        let point = CompilePoint(x: 1, y: nil, label: "a")
        let twin = SynthesizedPoint(x: 1, y: nil, label: "a")
        #expect(try self.json(point) == self.json(twin))
        #expect(try self.decode(CompilePoint.self, self.json(twin)) == point)
        #expect(throws: DecodingError.self) { try self.decode(CompilePoint.self, #"{"label":"a"}"#) }
        #expect(try self.json(Nothing()) == "{}")
        #expect(try self.decode(Nothing.self, "{}") == Nothing())
    }

    @Test func aTypeThatAlsoDeclaresCodableFollowsTheRules() throws {
        #expect(try self.json(AlsoCodable(name: "a", count: 2)) == #"{"count":2,"name":"a"}"#)
        // An absent key keeps the initial value, which synthesized `Codable` would not allow.
        #expect(try self.decode(AlsoCodable.self, #"{"name":"a"}"#) == AlsoCodable(name: "a", count: 1))
        let archive = try KeyedArchiveEncoder().encode(AlsoCodable(name: "b", count: 3))
        #expect(try KeyedArchiveDecoder().decode(AlsoCodable.self, from: archive) == AlsoCodable(name: "b", count: 3))
    }

    @Test func classesRoundTrip() throws {
        let box = CompileBox()
        box.title = "t"
        let decoded = try self.decode(CompileBox.self, self.json(box))
        #expect(decoded.width == 1 && decoded.title == "t")
        let named = try self.decode(CompileNamedBox.self, #"{"name":"n"}"#)
        #expect(named.name == "n" && named.size == 2)
        let holder = try self.decode(Holder<Int>.self, self.json(Holder(value: 4)))
        #expect(holder.value == 4)
    }

    @Test func genericStructRoundTrips() throws {
        let page = Page(items: ["a", "b"], next: 2)
        #expect(try self.decode(Page<String>.self, self.json(page)) == page)
    }

    @Test func enumsMatchSynthesized() throws {
        let pairs: [(CompileShape, SynthesizedShape)] = [
            (.dot, .dot), (.line(1, label: "l"), .line(1, label: "l")), (.maybe(x: nil), .maybe(x: nil)),
            (.maybe(x: 3), .maybe(x: 3)), (.square, .square),
        ]
        for (shape, twin) in pairs {
            #expect(try self.json(shape) == self.json(twin))
            #expect(try self.decode(CompileShape.self, self.json(twin)) == shape)
        }
        #expect(try self.decode(CompileShape.self, #"{"box":{}}"#) == .square)
        #expect(try self.decode(CompileShape.self, #"{"circle":{}}"#) == .unknown)
        #expect(throws: DecodingError.self) { try self.decode(CompileShape.self, #"{"dot":{},"square":{}}"#) }
        #expect(try self.json(CompileMood.grumpy) == #""grumpy""#)
        #expect(try self.decode(CompileMood.self, #""sleepy""#) == .unknown)
        #expect(self.recorder.fallbacks.map(\.key) == ["circle", "sleepy"])
        #expect(self.recorder.fallbacks.allSatisfy { $0.kind == .unknownCase })
    }

    @Test func versionsMigrateStepByStep() throws {
        #expect(Track.archiveVersion == 3 && Track.archivedClassName == "App.Track")
        #expect(Track.acceptedArchivedClassNames == ["App.Track", "Old.Track"])
        let track = Track(name: "n", seconds: 5)
        let text = try self.json(track)
        #expect(text == #"{"archiveVersion":3,"name":"n","seconds":5}"#)
        #expect(try self.decode(Track.self, text) == track)
        #expect(try self.decode(Track.self, #"{"title":"old"}"#) == Track(name: "old", seconds: 0))
        #expect(try self.decode(Track.self, #"{"archiveVersion":2,"name":"two"}"#) == Track(name: "two", seconds: 0))
        #expect(throws: DecodingError.self) { try self.decode(Track.self, #"{"archiveVersion":4,"name":"n"}"#) }
        let box = try self.decode(TrackBox.self, #"{"title":"old"}"#)
        #expect(box.name == "old" && box.id == 0)
        let current = try self.decode(TrackBox.self, self.json(TrackBox(name: "b", id: 7)))
        #expect(current.name == "b" && current.id == 7)
    }
}
