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

/// One hostile input and the error code every entry point must report for it ("ok" when it must
/// succeed), as `Fixtures/malformed/manifest.json` lists them.
struct MalformedCase: Decodable, Sendable, CustomTestStringConvertible {
    var file: String
    var description: String
    var propertyList: String
    var archive: String
    var archivedValue: String
    var decoder: String
    var decodeAs: String
    var validator: [String]

    var testDescription: String { self.file }

    static let all: [MalformedCase] = {
        struct Manifest: Decodable { var cases: [MalformedCase] }
        let url = Fixtures.malformedDirectory.appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: url), let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return [] }
        return manifest.cases
    }()
}

private struct Named: Decodable {
    var name: String
}

/// Every file of the hostile corpus fails each entry point with exactly the code the manifest lists.
@Suite struct MalformedCorpusTests {
    /// The decoder runs with a small decoded-size allowance so that the "billion laughs" case fails
    /// after little work; every other limit is the default.
    private static let decoderLimits: PropertyListLimits = {
        var limits = PropertyListLimits.default
        limits.decodedSizeAllowance = 1 << 16
        return limits
    }()

    @Test func theManifestListsEveryFile() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.malformedDirectory.path)
        #expect(Set(files.filter { $0 != "manifest.json" }) == Set(MalformedCase.all.map(\.file)))
        #expect(MalformedCase.all.count >= 20)
    }

    @Test(arguments: MalformedCase.all)
    func propertyListReader(_ item: MalformedCase) throws {
        let bytes = try Fixtures.malformed(item.file)
        #expect(
            Self.outcome { () throws(PropertyListError) in _ = try PropertyListValue(parsing: bytes) }
                == item.propertyList
        )
    }

    @Test(arguments: MalformedCase.all)
    func archiveReader(_ item: MalformedCase) throws {
        let bytes = try Fixtures.malformed(item.file)
        #expect(Self.outcome { () throws(KeyedArchiveError) in _ = try KeyedArchive(parsing: bytes) } == item.archive)
    }

    @Test(arguments: MalformedCase.all)
    func archivedValue(_ item: MalformedCase) throws {
        let bytes = try Fixtures.malformed(item.file)
        let outcome = Self.outcome { () throws(KeyedArchiveError) in
            _ = try ArchivedValue(archive: KeyedArchive(parsing: bytes))
        }
        #expect(outcome == item.archivedValue)
    }

    @Test(arguments: MalformedCase.all)
    func codableDecoder(_ item: MalformedCase) throws {
        let bytes = try Fixtures.malformed(item.file)
        var decoder = KeyedArchiveDecoder()
        decoder.limits = Self.decoderLimits
        let outcome: String
        do {
            switch item.decodeAs {
            case "strings": _ = try decoder.decode([String].self, from: bytes)
            case "named": _ = try decoder.decode(Named.self, from: bytes)
            case "dictionary": _ = try decoder.decode([String: String].self, from: bytes)
            default: _ = try decoder.decode(StringTree.self, from: bytes)
            }
            outcome = "ok"
        } catch let error as DecodingError {
            outcome = Self.underlyingCode(of: error)
        }
        #expect(outcome == item.decoder)
    }

    @Test(arguments: MalformedCase.all)
    func validator(_ item: MalformedCase) throws {
        let findings = ArchiveValidator().validate(bytes: try Fixtures.malformed(item.file))
        #expect(findings.map(\.code.description) == item.validator)
    }

    /// "ok", or the code of the error `body` throws.
    private static func outcome<E: Error>(_ body: () throws(E) -> Void) -> String {
        do {
            try body()
            return "ok"
        } catch let error as PropertyListError {
            return error.code.description
        } catch let error as KeyedArchiveError {
            return error.code.description
        } catch {
            return "unexpected \(error)"
        }
    }

    /// The code of the `KeyedArchiveError` a `DecodingError` wraps, or the kind of the error when it
    /// wraps none.
    private static func underlyingCode(of error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .dataCorrupted(let c), .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c):
            context = c
        @unknown default: return "unknown"
        }
        guard let underlying = context.underlyingError as? KeyedArchiveError else {
            return "no underlying error: \(error)"
        }
        return underlying.code.description
    }
}
