//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArchiveStorage

/// `store-save-capped DIR LIMIT KEY VALUE...`: opens the store with a disk byte limit of LIMIT
/// and saves each string VALUE under `KEY-<i>`, one save each, printing the store's stored bytes
/// (the sum of its entries' byte counts) after each.
func storeSaveCapped(_ arguments: [String]) throws {
    let usage = "store-save-capped DIR LIMIT KEY VALUE..."
    guard arguments.count >= 4, let limit = Int(arguments[1]) else {
        throw StoreProbeError(description: "usage: \(usage)")
    }
    var configuration = ArchiveStoreConfiguration()
    configuration.diskByteLimit = limit
    configuration.purgesExpiredEntriesOnOpen = false
    let store = try ArchiveStore<String>(name: "store", in: .path(arguments[0]), configuration: configuration)
    for (index, value) in arguments.dropFirst(3).enumerated() {
        try store.save(value, forKey: "\(arguments[2])-\(index)")
        var total = 0
        for key in try store.keys() { total += try store.info(forKey: key)?.byteCount ?? 0 }
        print(total)
    }
}
