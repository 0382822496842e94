//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `Corrupt` folder of a store's directory, where damaged entries are moved aside.
enum CorruptFolder {
    /// The folder's name in the store's directory.
    static let name = "Corrupt"

    /// A new path in the `Corrupt` folder of the store in `directory` for the file called
    /// `fileName`, creating the folder if needed: the name (at most 200 bytes of it), the time in
    /// milliseconds and a random suffix, so that nothing moved aside is ever replaced.
    static func destination(
        forFileName fileName: String,
        inStore directory: String
    ) throws(ArchiveStorageError)
        -> String
    {
        let folder = directory + "/" + Self.name
        try DirectoryListing.createDirectory(atPath: folder)
        let stamp = Int(Date().timeIntervalSince1970 * 1000)
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return folder + "/" + String(fileName.prefix(200)) + ".\(stamp)-\(suffix)"
    }
}
