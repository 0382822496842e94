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
import KeyedArchivingMacros
import Observation

/// An `@Observable` class as an app writes its settings: `@Archivable` sees the properties as
/// written, stored, and archives them under their own names (synthesized `Codable` would use the
/// backing storage's `_volume`, …), leaving out the observation registrar.
@Archivable
@Observable
final class ObservedSettings {
    var volume = 5
    var name = ""
    var tags: [String] = []
}

/// ``ObservedSettings``'s twin: the `Codable` conformance an app writes for an `@Observable`
/// class, with the properties' own names as keys.
@Observable
final class ObservedSettingsTwin: Codable {
    var volume = 5
    var name = ""
    var tags: [String] = []

    init() {}

    private enum CodingKeys: String, CodingKey {
        case volume, name, tags
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.volume = try container.decodeIfPresent(Int.self, forKey: .volume) ?? 5
        self.name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        self.tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.volume, forKey: .volume)
        try container.encode(self.name, forKey: .name)
        try container.encode(self.tags, forKey: .tags)
    }
}
