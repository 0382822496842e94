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

// The cat's direct conformance, written by hand as `@Archivable` is to generate it (issue 16):
// the `KeyedArchiving.*Direct` rows use it; the other `KeyedArchiving` rows turn it off with
// `directArchiving = .disabled`, so they measure the `Codable` path on the same type. The tests
// hold the same conformance (Tests/KeyedArchivingTests/DirectCatModel.swift) and check that both
// paths write the same bytes.

extension Place: ArchiveObjectCodable {
    static var archiveObjectKeys: ArchiveObjectKeys { ArchiveObjectKeys(["country", "city"]) }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.country, at: 0)
        try writer.encode(self.city, at: 1)
    }

    init(archiveObject reader: inout ArchiveObjectReader) throws {
        self.country = try reader.decode(at: 0)
        self.city = try reader.decode(at: 1)
    }
}

extension Cat: ArchiveObjectCodable {
    static var archiveObjectKeys: ArchiveObjectKeys {
        ArchiveObjectKeys(["name", "surname", "sex", "nationality", "birthPlace", "birthday", "tags", "weight"])
    }

    func encodeArchiveObject(to writer: inout ArchiveObjectWriter) throws {
        try writer.encode(self.name, at: 0)
        try writer.encodeIfPresent(self.surname, at: 1)
        try writer.encodeRawValue(self.sex, at: 2)
        try writer.encode(self.nationality, at: 3)
        try writer.encodeIfPresent(self.birthPlace, at: 4)
        try writer.encode(self.birthday, at: 5)
        try writer.encode(self.tags, at: 6)
        try writer.encode(self.weight, at: 7)
    }

    init(archiveObject reader: inout ArchiveObjectReader) throws {
        self.name = try reader.decode(at: 0)
        self.surname = try reader.decodeIfPresent(at: 1)
        self.sex = try reader.decodeRawValue(at: 2)
        self.nationality = try reader.decode(at: 3)
        self.birthPlace = try reader.decodeIfPresent(at: 4)
        self.birthday = try reader.decode(at: 5)
        self.tags = try reader.decode(at: 6)
        self.weight = try reader.decode(at: 7)
    }
}

/// `KeyedArchiveEncoder` on the `Codable` path, whatever conformances the type has.
func codableArchiveEncoder() -> KeyedArchiveEncoder {
    var encoder = KeyedArchiveEncoder()
    encoder.directArchiving = .disabled
    return encoder
}

/// `KeyedArchiveDecoder` on the `Codable` path, whatever conformances the type has.
func codableArchiveDecoder() -> KeyedArchiveDecoder {
    var decoder = KeyedArchiveDecoder()
    decoder.directArchiving = .disabled
    return decoder
}
