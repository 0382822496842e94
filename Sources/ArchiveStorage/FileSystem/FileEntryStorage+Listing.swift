//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Listing and counting entry files: one listing of the directory; keys come from the file names,
// and from the header for a name made of a key's hash.
extension FileEntryStorage {
    /// Sorts the keys the listing found and reads their headers in key order, only until the
    /// page is full.
    func keys<Value>(
        in range: KeyPrefixRange,
        after: [UInt8]?,
        unexpiredAt now: Double,
        limit: Int,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> [String] {
        let files = try Self.listedFiles(in: range, after: after, now: now, directory: store.directoryPath).sorted {
            $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
        }
        var keys: [String] = []
        // Headers are read in key order, only until the page is full.
        for file in files where try file.isListed(at: now) {
            keys.append(file.key)
            if keys.count == limit { break }
        }
        // A move to SQLite removes the entry files last: a listing that missed some may mean so.
        try store.checkNotMoved()
        return keys
    }

    /// Counts the listed keys whose header says they are unexpired.
    func count<Value>(
        in range: KeyPrefixRange,
        unexpiredAt now: Double,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> Int {
        var count = 0
        for file in try Self.listedFiles(in: range, after: nil, now: now, directory: store.directoryPath)
        where try file.isListed(at: now) {
            count += 1
        }
        // A move to SQLite removes the entry files last: a listing that missed some may mean so.
        try store.checkNotMoved()
        return count
    }

    /// The entry files of the keys in `range` after `after`, unordered, from one listing of
    /// `directory`. The key of a file whose name is a hash is read from its header, which is then
    /// checked against `now` too.
    private static func listedFiles(
        in range: KeyPrefixRange,
        after: [UInt8]?,
        now: Double,
        directory: String
    ) throws(ArchiveStorageError) -> [ListedFile] {
        func isWanted(_ key: String) -> Bool {
            range.contains(key.utf8) && (after.map { $0.lexicographicallyPrecedes(key.utf8) } ?? true)
        }
        var files: [ListedFile] = []
        for name in try DirectoryListing.names(atPath: directory) {
            let path = directory + "/" + name
            switch EntryFileName.classify(name) {
            case .encoded(let key):
                if isWanted(key) { files.append(ListedFile(key: key, uncheckedPath: path)) }
            case .hashed:
                guard let bytes = try DirectoryListing.readPrefix(atPath: path, count: EntryFormat.prefixSize),
                    let prefix = try? EntryFormat.decodePrefix(bytes), prefix.expiry > now
                else { continue }
                let keyStart = EntryFormat.prefixSize + prefix.formatIdentifierLength
                guard let header = try DirectoryListing.readPrefix(atPath: path, count: keyStart + prefix.keyLength),
                    header.count == keyStart + prefix.keyLength,
                    let key = validUTF8String(header[keyStart...]),
                    EntryFileName(key: key).name == name,
                    isWanted(key)
                else { continue }
                files.append(ListedFile(key: key, uncheckedPath: nil))
            case .other:
                continue
            }
        }
        return files
    }
}

/// An entry file a listing found, and the key it holds.
private struct ListedFile {
    /// The key the file holds.
    var key: String
    /// The file, when its header is still to be read: the key came from its name.
    var uncheckedPath: String?

    /// Whether the key is listed at `now`: its file still exists and has not expired. A file
    /// whose header is damaged is listed, so that a load reports it.
    func isListed(at now: Double) throws(ArchiveStorageError) -> Bool {
        guard let path = self.uncheckedPath else { return true }
        guard let bytes = try DirectoryListing.readPrefix(atPath: path, count: EntryFormat.prefixSize) else {
            return false
        }
        if let prefix = try? EntryFormat.decodePrefix(bytes), prefix.expiry <= now { return false }
        return true
    }
}
