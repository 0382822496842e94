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

/// A user-written wrapper with `init(wrappedValue:)` that keeps a value between 0 and 10, and
/// archives as its value alone (a single-value container), as most wrappers do.
@propertyWrapper
struct Clamped: Codable, Equatable, Sendable {
    private var value: Int

    var wrappedValue: Int {
        get { self.value }
        set { self.value = min(max(newValue, 0), 10) }
    }

    init(wrappedValue: Int) {
        self.value = min(max(wrappedValue, 0), 10)
    }

    init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Int.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.value)
    }
}

/// A wrapper without `init(wrappedValue:)`: it starts from `init()`, and lowercases what it holds.
@propertyWrapper
struct Lowercased: Codable, Equatable, Sendable {
    private var value = ""

    var wrappedValue: String {
        get { self.value }
        set { self.value = newValue.lowercased() }
    }

    init() {}

    init(from decoder: any Decoder) throws {
        self.value = try decoder.singleValueContainer().decode(String.self).lowercased()
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.value)
    }
}

/// Wrapped properties of both kinds: `@Archivable` archives the wrapped value under the property's
/// name, which is what synthesized `Codable` writes for a wrapper that archives as its value.
@Archivable
struct Speaker: Equatable {
    @Clamped var volume = 5
    @Lowercased var room: String
    var name = ""
}

/// ``Speaker``'s twin, with synthesized `Codable`.
struct SpeakerTwin: Codable, Equatable {
    @Clamped var volume = 5
    @Lowercased var room: String
    var name = ""
}
