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

// `let` properties with an initial value, the commonest app shape: `@Archivable` archives them and
// leaves them at their initial value when decoding, as synthesized `Codable` does, and warns as it
// does. The build's three warnings on this file are expected (`.ci/run` checks that they appear and
// that no other does).

/// A reminder as an app writes it: a constant kind and an identifier made at creation.
@Archivable
struct Reminder: Equatable {
    let kind = "reminder"
    let id = UUID()
    var title: String
    var done = false
}

/// ``Reminder``'s twin: what synthesized `Codable` does with the same properties, written out
/// (the compiler would warn on the synthesized one too).
struct ReminderTwin: Codable, Equatable {
    let kind = "reminder"
    let id = UUID()
    var title: String
    var done = false

    private enum CodingKeys: String, CodingKey {
        case kind, id, title, done
    }

    init(title: String, done: Bool = false) {
        self.title = title
        self.done = done
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.title = try container.decode(String.self, forKey: .title)
        self.done = try container.decode(Bool.self, forKey: .done)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.kind, forKey: .kind)
        try container.encode(self.id, forKey: .id)
        try container.encode(self.title, forKey: .title)
        try container.encode(self.done, forKey: .done)
    }
}

/// A label with a constant kind: archived byte for byte as its twin.
@Archivable
struct Label: Equatable {
    let kind = "label"
    var name: String
}

/// ``Label``'s twin, as synthesized `Codable` would write it.
struct LabelTwin: Codable, Equatable {
    let kind = "label"
    var name: String

    private enum CodingKeys: String, CodingKey {
        case kind, name
    }

    init(name: String) {
        self.name = name
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.name = try container.decode(String.self, forKey: .name)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.kind, forKey: .kind)
        try container.encode(self.name, forKey: .name)
    }
}
