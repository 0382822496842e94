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

// The second benchmark model, shaped like an app's rather than like the seeds' cat: the scalar
// types the cat lacks (`UUID`, `Int64`, `UInt8`, `Float`, `URL`, a 16-byte `Data`), a raw-value
// enum, an optional nested struct of two `Float`s, and arrays of `Int64` and `Bool`. A speed claim
// holds on both models, or it is not made. (No dictionary yet: `CodableFloor` keeps no keys, so it
// cannot rebuild one; a keyed collection in the floor comes with the model's next field.)

/// An app's record, `@Archivable`: the benchmark's `App*` rows and `coder-profile`'s `app-*` coders.
@Archivable
struct AppItem: Equatable {
    var id: UUID
    var revision: Int64
    var priority: UInt8
    var status: AppStatus
    var rating: Float
    var link: URL
    var digest: Data
    var location: AppPoint?
    var history: [Int64]
    var flags: [Bool]
}

/// A raw-value enum with a string raw value.
@Archivable
enum AppStatus: String {
    case draft, published, archived
}

/// A nested value of two `Float`s.
@Archivable
struct AppPoint: Equatable {
    var latitude: Float
    var longitude: Float
}

enum AppItemGenerator {
    private static let hosts = ["example.com", "example.org", "shop.example.net", "api.example.io"]

    /// Generates `count` items from `seed`; the same arguments always give the same items. About a
    /// third have no location; arrays hold 0 to 5 elements.
    static func items(count: Int, seed: UInt64 = 0x4150_5053) -> [AppItem] {
        var rng = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            let high = rng.next()
            let low = rng.next()
            let id = withUnsafeBytes(of: (high, low)) { UUID(uuid: $0.load(as: uuid_t.self)) }
            var digest = Data(count: 16)
            digest.withUnsafeMutableBytes { $0.storeBytes(of: (rng.next(), rng.next()), as: (UInt64, UInt64).self) }
            let hasLocation = rng.next() % 3 != 0
            return AppItem(
                id: id,
                revision: Int64(bitPattern: rng.next() >> 20),
                priority: UInt8(truncatingIfNeeded: rng.next()),
                status: rng.pick([.draft, .published, .archived]),
                rating: Float(rng.next() % 50) / 10,
                link: URL(string: "https://\(rng.pick(Self.hosts))/items/\(index)")!,
                digest: digest,
                location: hasLocation
                    ? AppPoint(
                        latitude: Float(Int(rng.next() % 18_000)) / 100 - 90,
                        longitude: Float(Int(rng.next() % 36_000)) / 100 - 180
                    ) : nil,
                history: (0..<Int(rng.next() % 6)).map { _ in Int64(rng.next() % 1_000_000) },
                flags: (0..<Int(rng.next() % 6)).map { _ in rng.next() % 2 == 0 }
            )
        }
    }
}
