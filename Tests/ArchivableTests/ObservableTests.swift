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
import Observation
import TestSupport
import Testing

/// `@Archivable` on an `@Observable` class (``ObservedSettings``): archived as its hand-written
/// twin is, on both paths, and still observable once decoded.
@Suite struct ObservableTests {
    static func settings() -> ObservedSettings {
        let settings = ObservedSettings()
        settings.volume = 8
        settings.name = "Living room"
        settings.tags = ["a", "b"]
        return settings
    }

    @Test func bothPathsWriteWhatTheTwinWrites() throws {
        let twin = ObservedSettingsTwin()
        twin.volume = 8
        twin.name = "Living room"
        twin.tags = ["a", "b"]
        var encoder = KeyedArchiveEncoder()
        encoder.setClassName("ObservedSettings", for: ObservedSettingsTwin.self)
        let expected = try encoder.encode(twin)
        for mode in BothPaths.modes {
            #expect(try BothPaths.encoder(mode).encode(Self.settings()) == expected, "\(mode)")
        }
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        #expect(try json.encode(Self.settings()) == json.encode(twin))
    }

    @Test(arguments: BothPaths.modes)
    func aDecodedObjectIsObservable(mode: DirectArchiving) throws {
        let data = try BothPaths.encoder(mode).encode(Self.settings())
        let decoded = try BothPaths.decoder(mode).decode(ObservedSettings.self, from: data)
        #expect(decoded.volume == 8)
        #expect(decoded.name == "Living room")
        #expect(decoded.tags == ["a", "b"])
        let changed = Locked(false)
        withObservationTracking {
            _ = decoded.volume
        } onChange: {
            changed.withLock { $0 = true }
        }
        decoded.volume = 9
        #expect(changed.withLock { $0 })
    }
}
