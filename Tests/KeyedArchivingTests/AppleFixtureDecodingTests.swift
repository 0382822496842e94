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

/// Archives made by Apple's `NSKeyedArchiver` decode into Codable types to the values
/// `Fixtures/apple/SOURCES.md` lists.
@Suite struct AppleFixtureDecodingTests {
    let decoder = KeyedArchiveDecoder()

    // MARK: - Custom classes

    struct Foo: Decodable, Equatable {
        var title: String
        var count: Int
        var active: Bool
        var categories: [String]
        var metadata: [String: String]
    }

    @Test func decodesCustomObjectWithArrayAndDictionary() throws {
        let foo = try decoder.decode(Foo.self, from: Fixtures.apple("complex_archive.plist"))
        #expect(
            foo
                == Foo(
                    title: "yo",
                    count: 42,
                    active: true,
                    categories: ["banana", "apple"],
                    metadata: ["fruit": "kiwi", "veg": "asparagus"]
                )
        )
    }

    struct Stamped: Decodable {
        var title: String
        var stamp: Date
    }

    @Test func decodesNSDateField() throws {
        let value = try decoder.decode(Stamped.self, from: Fixtures.apple("date_archive.plist"))
        #expect(value.title == "hello")
        #expect(value.stamp == Date(timeIntervalSinceReferenceDate: 509_523_358.684097))
    }

    final class Node: Decodable {
        let title: String
        let recursive: Node?
    }

    @Test func circularArchiveThrowsCyclicReference() throws {
        let data = try Fixtures.apple("circular_archive.plist")
        let error = try #require(throws: DecodingError.self) { try decoder.decode(Node.self, from: data) }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        let underlying = try #require(context.underlyingError as? KeyedArchiveError)
        #expect(underlying.code == .cyclicReference)
        #expect(underlying.uid == UID(1))
        #expect(context.codingPath.map(\.stringValue) == ["recursive"])
        #expect(context.debugDescription.contains("UID(1)"))
        #expect(context.debugDescription.contains("crap.Foo"))
    }

    struct StreamTable: Decodable {
        var tableID: String
        var rowHeader: UInt8
        var replyHeader: Int
        var replyColumns: [Column]?
        var columns: [Column]
    }

    final class Column: Decodable {
        let keyPath: String
        let stopValue: String?
        let keyColumn: Column?
        let valueColumn: Column?
    }

    @Test func decodesNestedCustomObjectsWithNull() throws {
        let table = try decoder.decode(StreamTable.self, from: Fixtures.apple("fullChangeLog.bplist"))
        #expect(table.tableID == "fullChangeLog")
        #expect(table.rowHeader == 2)
        #expect(table.replyHeader == 0)
        #expect(table.replyColumns == nil)
        #expect(
            table.columns.map(\.keyPath)
                == ["changeType", "syncID", "changeLogID", "className", "primaryKey", "unneeded", "changeData"]
        )
        #expect(table.columns.prefix(6).allSatisfy { $0.stopValue == nil && $0.keyColumn == nil })
        let dictionaryColumn = try #require(table.columns.last)
        #expect(dictionaryColumn.keyColumn?.keyPath == "key")
        #expect(dictionaryColumn.keyColumn?.stopValue == "")
        #expect(dictionaryColumn.valueColumn?.keyPath == "value")
        #expect(dictionaryColumn.valueColumn?.stopValue == nil)
    }

    // MARK: - Foundation collections and values

    @Test func decodesArrayWithSharedElement() throws {
        let array = try decoder.decode([String].self, from: Fixtures.apple("NSKeyedUnarchiver-ArrayTest.plist"))
        #expect(array == ["baa", "baa", "black", "sheep"])
    }

    struct ComplexRoot: Decodable {
        var uuid: UUID
        var url: URL
        var string: String
        var array: Mixed

        /// `[NSNull, "hello", 34545, {"key": "val"}]`.
        struct Mixed: Decodable {
            var null: Bool
            var string: String
            var number: Int
            var dictionary: [String: String]

            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                self.null = try container.decodeNil()
                self.string = try container.decode(String.self)
                self.number = try container.decode(Int.self)
                self.dictionary = try container.decode([String: String].self)
                #expect(container.isAtEnd)
            }
        }
    }

    @Test func decodesDictionaryWithNullURLAndUUID() throws {
        let root = try decoder.decode(ComplexRoot.self, from: Fixtures.apple("NSKeyedUnarchiver-ComplexTest.plist"))
        #expect(root.uuid == UUID(uuidString: "71DC068E-3420-45FF-919E-3A267D55EC22"))
        #expect(root.url.absoluteString == "https://www.swift.org/index.xml")
        #expect(root.url.relativeString == "index.xml")
        #expect(root.url.baseURL?.absoluteString == "https://www.swift.org")
        #expect(root.string == "hello")
        #expect(root.array.null)
        #expect(root.array.string == "hello")
        #expect(root.array.number == 34545)
        #expect(root.array.dictionary == ["key": "val"])
    }

    @Test func decodesOrderedSetInOrder() throws {
        let strings = try decoder.decode([String].self, from: Fixtures.apple("NSKeyedUnarchiver-OrderedSetTest.plist"))
        #expect(strings == ["valgeir", "nico", "puzzle"])
        let numbers = try decoder.decode([Int].self, from: Fixtures.apple("NSOrderedSet-Numbers.archive"))
        #expect(numbers == [1, 2, 3, 4, 5])
    }

    @Test func decodesRelativeURL() throws {
        let url = try decoder.decode(URL.self, from: Fixtures.apple("NSKeyedUnarchiver-URLTest.plist"))
        #expect(url.absoluteString == "https://www.example.com/foo.xml")
        #expect(url.relativeString == "foo.xml")
    }

    @Test func decodesUUID() throws {
        let uuid = try decoder.decode(UUID.self, from: Fixtures.apple("NSKeyedUnarchiver-UUIDTest.plist"))
        #expect(uuid == UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34"))
    }

    @Test(arguments: [
        "NSSet-Numbers.archive", "NSMutableSet-Numbers.archive", "NSCountedSet-NumbersAppearingSeveralTimes.archive",
        "NSOrderedSet-Numbers.archive",
    ])
    func decodesSetsOfNumbers(name: String) throws {
        #expect(try decoder.decode(Set<Int>.self, from: Fixtures.apple(name)) == [1, 2, 3, 4, 5])
    }

    @Test func decodesEmptySet() throws {
        #expect(try decoder.decode(Set<Int>.self, from: Fixtures.apple("NSSet-Empty.archive")).isEmpty)
    }

    @Test func decodesSetOfStrings() throws {
        let set = try decoder.decode(Set<String>.self, from: Fixtures.apple("nsset_energy.bplist"))
        #expect(
            set == [
                "energy.cost", "energy.CPU", "energy.networking", "energy.location", "energy.GPU", "energy.appstate",
                "energy.overhead",
            ]
        )
    }

    @Test func decodesBareNumberRoot() throws {
        let data = try Fixtures.apple("integer_10.bplist")
        #expect(try decoder.decode(Int.self, from: data) == 10)
        #expect(try decoder.decode(UInt8.self, from: data) == 10)
        #expect(try decoder.decode(Double.self, from: data) == 10)
        #expect(try decoder.decode(Int?.self, from: data) == 10)
    }

    /// `[1, [Data, Data, 10, -2, 131072, 0, 4, 1]]`.
    struct Networking: Decodable {
        var first: Int
        var addresses: [Data]
        var numbers: [Int]

        init(from decoder: any Decoder) throws {
            var outer = try decoder.unkeyedContainer()
            self.first = try outer.decode(Int.self)
            var inner = try outer.nestedUnkeyedContainer()
            self.addresses = [try inner.decode(Data.self), try inner.decode(Data.self)]
            self.numbers = []
            while !inner.isAtEnd { self.numbers.append(try inner.decode(Int.self)) }
        }
    }

    @Test func decodesNestedArrayWithDataAndNegativeNumber() throws {
        let value = try decoder.decode(Networking.self, from: Fixtures.apple("nsarray_networking.bplist"))
        #expect(value.first == 1)
        #expect(value.addresses[0] == Data(hex: "1c1ec675000000002408855622004847140be2b05335fd5900000000"))
        #expect(value.addresses[1] == Data([0x1c, 0x1e] + [UInt8](repeating: 0, count: 26)))
        #expect(value.numbers == [10, -2, 131072, 0, 4, 1])
    }

    struct GPUInfo: Decodable {
        var deviceName: String
        var acceleratorID: UInt64
        var workingSetSize: Int
        var displays: [Display]
        var supportedCounterProfiles: [UInt8]
        var vendorName: String
        var mobile: Bool
        var perfState: PerfState

        enum CodingKeys: String, CodingKey {
            case deviceName = "device-name"
            case acceleratorID = "accelerator-id"
            case workingSetSize = "recommended-max-working-set-size"
            case displays
            case supportedCounterProfiles = "supported-counter-profiles"
            case vendorName = "vendor-name"
            case mobile
            case perfState = "perf-state"
        }

        struct Display: Decodable {
            var resolution: [Double]
            var pixelWidth: Int
            var builtIn: Bool

            enum CodingKeys: String, CodingKey {
                case resolution
                case pixelWidth = "pixel-width"
                case builtIn = "built-in"
            }
        }

        struct PerfState: Decodable {
            var available: Bool
            var level: Int
            var mapping: UInt32
        }
    }

    @Test func decodesArrayOfDictionariesIntoStructs() throws {
        let infos = try decoder.decode([GPUInfo].self, from: Fixtures.apple("nsarray_gpuinfo.bplist"))
        let info = try #require(infos.first)
        #expect(infos.count == 1)
        #expect(info.deviceName == "A13")
        #expect(info.acceleratorID == 4_294_967_998)
        #expect(info.workingSetSize == 2_620_473_344)
        #expect(info.displays.first?.resolution == [1242.0, 2688.0])
        #expect(info.displays.first?.pixelWidth == 1242)
        #expect(info.displays.first?.builtIn == true)
        #expect(info.supportedCounterProfiles == [0, 3, 4, 1])
        #expect(info.vendorName == "Apple")
        #expect(info.mobile)
        #expect(info.perfState.available && info.perfState.level == 0 && info.perfState.mapping == 16_975_360)
    }

    @Test func dictionaryWithHyphenatedKeysDecodesAsSwiftDictionary() throws {
        let infos = try decoder.decode(
            [[String: Bool]].self,
            from: Fixtures.apple("nsarray_gpuinfo.bplist"),
            only: [
                "mobile", "low-power", "headless", "removable",
            ]
        )
        #expect(infos == [["mobile": true, "low-power": false, "headless": false, "removable": false]])
    }

    struct SetConfig: Decodable {
        var ur: Int
        var rp: Int
        var tc: [Entry]

        struct Entry: Decodable {
            var tk: Int
            var uuid: UUID
            var kdf2: Set<UInt32>
        }
    }

    @Test func decodesMutableStringAndMutableSetIgnoringUnreachableObjects() throws {
        let config = try decoder.decode(SetConfig.self, from: Fixtures.apple("nsdictionary_setconfig.bplist"))
        #expect(config.ur == 500)
        #expect(config.rp == 10)
        #expect(config.tc.count == 1)
        #expect(config.tc.first?.tk == 3)
        #expect(config.tc.first?.uuid == UUID(uuidString: "2C46B61A-CDA9-4D59-B901-22E28B08C260"))
        #expect(config.tc.first?.kdf2 == [630_784_000, 833_617_920, 830_472_456])
        let strings = try decoder.decode(UUIDStrings.self, from: Fixtures.apple("nsdictionary_setconfig.bplist"))
        #expect(strings.tc.map(\.uuid) == ["2C46B61A-CDA9-4D59-B901-22E28B08C260"])
    }

    struct UUIDStrings: Decodable {
        var tc: [Entry]

        struct Entry: Decodable {
            var uuid: String
        }
    }

    struct RunningProcess: Decodable, Equatable {
        var name: String
        var pid: Int32
        var isApplication: Bool
        var realAppName: String
        var startDate: Date?
    }

    @Test func decodesLargeArchiveWithDates() throws {
        let processes = try decoder.decode(
            [RunningProcess].self,
            from: Fixtures.apple("nsarray_runningprocesses.bplist")
        )
        #expect(processes.count == 328)
        #expect(
            processes.first
                == RunningProcess(
                    name: "contactsd",
                    pid: 84474,
                    isApplication: false,
                    realAppName: "/System/Library/Frameworks/Contacts.framework/Support/contactsd",
                    startDate: Date(timeIntervalSinceReferenceDate: 680_457_815.615284)
                )
        )
        #expect(processes.contains { $0.name == "MPBBank" && $0.isApplication })
        #expect(processes.filter { $0.startDate == nil }.count == 1)
    }

    // MARK: - Generic top-level keys

    @Test(arguments: ["primitives.bin", "primitives.xml"])
    func decodesGenericTopKeys(name: String) throws {
        let archive = try KeyedArchive(parsing: Fixtures.apple(name))
        #expect(try decoder.decode(UInt64.self, forKey: "$0", from: archive) == 1)
        #expect(try decoder.decode(UInt32.self, forKey: "$1", from: archive) == 1)
        #expect(try decoder.decode(Double.self, forKey: "$2", from: archive) == 1.0)
        #expect(try decoder.decode(Int.self, forKey: "$2", from: archive) == 1)
        #expect(try decoder.decode(Double.self, forKey: "$3", from: archive) == 1.5)
        #expect(try decoder.decode(Float.self, forKey: "$3", from: archive) == 1.5)
        #expect(try decoder.decode(Data.self, forKey: "$4", from: archive) == Data("asdfasdfadsfadsf".utf8))
        #expect(try decoder.decode(Bool.self, forKey: "$5", from: archive))
        for key in ["$6", "$7", "$8"] {
            #expect(try decoder.decode(String.self, forKey: key, from: archive) == "Hello, World!")
        }
        #expect(try !decoder.decode(Bool.self, forKey: "$9", from: archive))
        #expect(try !decoder.decode(Bool.self, forKey: "$10", from: archive))
        #expect(try decoder.decode(Int8.self, forKey: "$11", from: archive) == 42)
    }

    /// The primitives in order: `[1, 1, 1.0, 1.5, Data, true, "Hello, World!" ×3, false, false, 42]`.
    struct Primitives: Decodable, Equatable {
        var values: [FixtureScalar] = []

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            self.values.append(.int(try container.decode(Int.self)))
            self.values.append(.int(try container.decode(Int.self)))
            self.values.append(.double(try container.decode(Double.self)))
            self.values.append(.double(try container.decode(Double.self)))
            self.values.append(.data(try container.decode(Data.self)))
            self.values.append(.bool(try container.decode(Bool.self)))
            for _ in 0..<3 { self.values.append(.string(try container.decode(String.self))) }
            self.values.append(.bool(try container.decode(Bool.self)))
            self.values.append(.bool(try container.decode(Bool.self)))
            self.values.append(.int(try container.decode(Int.self)))
        }
    }

    @Test(arguments: ["arrays.bin", "arrays.xml"])
    func decodesArraysAndSetsUnderGenericTopKeys(name: String) throws {
        let archive = try KeyedArchive(parsing: Fixtures.apple(name))
        let primitives = try decoder.decode(Primitives.self, forKey: "$0", from: archive)
        #expect(
            primitives.values == [
                .int(1), .int(1), .double(1), .double(1.5), .data(Data("asdfasdfadsfadsf".utf8)), .bool(true),
                .string("Hello, World!"), .string("Hello, World!"), .string("Hello, World!"), .bool(false),
                .bool(false), .int(42),
            ]
        )
        let mutable = try decoder.decode([FixtureScalar].self, forKey: "$1", from: archive)
        #expect(mutable == [.bool(true), .string("Hello, World!"), .int(42)])
        #expect(try decoder.decode(Set<Bool>.self, forKey: "$2", from: archive) == [true])
        let mutableSet = try decoder.decode(Set<FixtureScalar>.self, forKey: "$3", from: archive)
        #expect(mutableSet == [.bool(true), .string("Hello, World!"), .int(42)])
    }

    struct Dict: Decodable, Equatable {
        var int: Int
        var string: String
        var array: [FixtureScalar]
    }

    @Test(arguments: ["dict.bin", "dict.xml"])
    func decodesDictionaryUnderGenericTopKey(name: String) throws {
        let dict = try decoder.decode(Dict.self, from: Fixtures.apple(name))
        #expect(dict == Dict(int: 1, string: "string", array: [.bool(true), .string("Hello, World!"), .int(42)]))
    }

    @Test func decodesNestedSets() throws {
        let sets = try decoder.decode([Set<FixtureScalar>].self, from: Fixtures.apple("nestedarrays.bin"))
        #expect(sets == [[.bool(true)], [.int(42), .bool(true), .string("Hello, World!")]])
    }

    // MARK: - Other Foundation classes, read as plain structs

    struct Measurement: Decodable {
        var value: Double
        var unit: Unit

        enum CodingKeys: String, CodingKey {
            case value = "NS.value"
            case unit = "NS.unit"
        }

        struct Unit: Decodable {
            var symbol: String
            var specifier: Int
            var converter: [String: Double]

            enum CodingKeys: String, CodingKey {
                case symbol = "NS.symbol"
                case specifier = "NS.specifier"
                case converter = "NS.converter"
            }
        }
    }

    @Test func decodesAnyObjectAsStructByItsKeys() throws {
        let measurement = try decoder.decode(Measurement.self, from: Fixtures.apple("NSMeasurement-Angle.archive"))
        #expect(measurement.value == 90)
        #expect(measurement.unit.symbol == "°")
        #expect(measurement.unit.specifier == 256)
        #expect(measurement.unit.converter == ["NS.coefficient": 1, "NS.constant": 0])
    }

    struct Notification: Decodable {
        var name: String
        var object: String
        var userInfo: [String: String]

        enum CodingKeys: String, CodingKey {
            case name = "NS.name"
            case object = "NS.object"
            case userInfo = "NS.userinfo"
        }
    }

    @Test func decodesNotificationObject() throws {
        let note = try decoder.decode(
            Notification.self,
            from: Fixtures.apple("NSKeyedUnarchiver-NotificationTest.plist")
        )
        #expect(note.name == "notification-name")
        #expect(note.object == "notification-object")
        #expect(note.userInfo == ["notification-key": "notification-val"])
    }

    struct AttributedString: Decodable {
        var string: String
        var attributes: [[String: FixtureScalar]]
        var info: Data

        enum CodingKeys: String, CodingKey {
            case string = "NSString"
            case attributes = "NSAttributes"
            case info = "NSAttributeInfo"
        }
    }

    @Test func decodesMutableDataAndSharedDictionaries() throws {
        let value = try decoder.decode(AttributedString.self, from: Fixtures.apple("NSAttributedString.archive"))
        #expect(value.string == "0123456789")
        #expect(
            value.attributes == [
                [:], ["Font": .string("Helvetica"), "Size": .int(123)], ["Font": .string("Times"), "Size": .int(456)],
                ["Font": .string("Times"), "Size": .int(456)],
            ]
        )
        #expect(value.info == Data(hex: "010001010402020101030100"))
    }
}

/// A scalar of unknown type, tried as Bool, Int, Double, String, then Data.
enum FixtureScalar: Decodable, Hashable {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case data(Data)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            self = .data(try container.decode(Data.self))
        }
    }
}

extension Data {
    /// Bytes from a hex string such as `"1c1e00"`.
    fileprivate init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        self.init(bytes)
    }
}

extension KeyedArchiveDecoder {
    /// Decodes the root as a dictionary of `[String: V]` elements, keeping only some keys of each
    /// (so heterogeneous dictionaries can be read as homogeneous ones).
    fileprivate func decode<V: Decodable>(
        _ type: [[String: V]].Type,
        from data: Data,
        only keys: Set<String>
    ) throws -> [[String: V]] {
        var decoder = self
        decoder.userInfo[Filtered<V>.keysKey] = keys
        let rows = try decoder.decode([Filtered<V>].self, from: data)
        return rows.map(\.values)
    }
}

/// A dictionary decoded from a keyed container, keeping only the keys in `userInfo`.
private struct Filtered<V: Decodable>: Decodable {
    static var keysKey: CodingUserInfoKey { CodingUserInfoKey(rawValue: "filteredKeys")! }
    var values: [String: V] = [:]

    init(from decoder: any Decoder) throws {
        let keys = decoder.userInfo[Self.keysKey] as? Set<String>
        let container = try decoder.container(keyedBy: FixtureKey.self)
        for key in container.allKeys where keys?.contains(key.stringValue) ?? true {
            self.values[key.stringValue] = try container.decode(V.self, forKey: key)
        }
    }
}

/// A coding key for any string.
private struct FixtureKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
