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

// Issue 34's speed report for property wrappers: a struct with two `Codable` wrappers, one
// single-value and one keyed (`wrapped-` workloads), beside a struct with the same four fields
// unwrapped (`unwrapped-` workloads), so that the difference is what archiving the wrappers as
// synthesized `Codable` does (each wrapper a value of its own) costs.

/// A volume kept between 0 and 10, archived as its value.
@propertyWrapper
struct ProfiledClamped: Codable, Equatable {
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

/// A wrapper with synthesized `Codable`: an object whose one key is `wrappedValue`.
@propertyWrapper
struct ProfiledBoxed<Value: Codable & Equatable>: Codable, Equatable {
    var wrappedValue: Value
}

/// Two wrapped properties beside two plain ones.
@Archivable
struct WrappedSpeaker: Equatable {
    var name: String
    @ProfiledClamped var volume = 5
    @ProfiledBoxed var room: String
    var tags: [String]
}

/// The same fields, unwrapped.
@Archivable
struct UnwrappedSpeaker: Equatable {
    var name: String
    var volume = 5
    var room: String
    var tags: [String]
}

enum SpeakerGenerator {
    private static let rooms = ["kitchen", "den", "attic", "hall", "porch"]

    /// `count` speakers with wrapped properties; the same arguments always give the same speakers.
    static func wrapped(count: Int) -> [WrappedSpeaker] {
        Self.unwrapped(count: count).map {
            WrappedSpeaker(name: $0.name, volume: $0.volume, room: $0.room, tags: $0.tags)
        }
    }

    /// The same speakers, unwrapped.
    static func unwrapped(count: Int) -> [UnwrappedSpeaker] {
        let allTags = ["loud", "stereo", "wired"]
        return (0..<count).map { index in
            UnwrappedSpeaker(
                name: "speaker \(index % 997)",
                volume: index % 11,
                room: Self.rooms[index % Self.rooms.count],
                tags: Array(allTags.prefix(index % 4))
            )
        }
    }
}
