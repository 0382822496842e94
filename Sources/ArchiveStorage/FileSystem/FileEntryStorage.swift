//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The files backend: each entry is a file of the store's directory (`EntryFormat`), replaced
/// atomically, a flushed temporary file renamed over it under the entry's lock stripe of the
/// control file. Reads take no lock.
///
/// A move to SQLite removes the entry files last: a read that finds no file, or a listing or scan
/// that may have missed some, checks the move count again.
struct FileEntryStorage: EntryStorage {
    /// ``ArchiveStoreBackend/files``.
    var backend: ArchiveStoreBackend { .files }

    /// Reads and checks the whole entry file at `location`; `nil` when there is no file.
    func readEntry<Value>(
        key: String,
        location: EntryLocation,
        isLocked: Bool,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> (entry: EntryFormat.Entry, byteCount: Int, path: String)? {
        let path = location.path
        guard let bytes = try DurableFile.read(atPath: path) else {
            // A move to SQLite removes the entry files last: none may mean that it just did.
            try store.checkNotMoved()
            return nil
        }
        do throws(EntryFormat.Corruption) {
            let entry = try EntryFormat.decode(bytes)
            guard entry.key.elementsEqual(key.utf8) else { throw Self.otherKey(entry.key) }
            return (entry, bytes.count, path)
        } catch {
            throw self.corruptEntry(key: key, location: location, reason: error.reason, isLocked: isLocked, in: store)
        }
    }

    /// Reads and checks the whole entry file at `location` and, when it is unexpired at `now`,
    /// decodes its payload where it lies in the bytes read; `nil` when there is no file or it has
    /// expired.
    func loadEntry<Value>(
        key: String,
        location: EntryLocation,
        now: Double,
        isLocked: Bool,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> LoadedEntry<Value>? {
        let path = location.path
        guard let bytes = try DurableFile.read(atPath: path) else {
            // A move to SQLite removes the entry files last: none may mean that it just did.
            try store.checkNotMoved()
            return nil
        }
        let layout: EntryFormat.Layout
        do throws(EntryFormat.Corruption) {
            layout = try EntryFormat.layout(of: bytes)
            guard bytes[layout.keyRange].elementsEqual(key.utf8) else {
                throw Self.otherKey(Array(bytes[layout.keyRange]))
            }
        } catch {
            throw self.corruptEntry(key: key, location: location, reason: error.reason, isLocked: isLocked, in: store)
        }
        guard layout.prefix.expiry > now else { return nil }
        let decoded = bytes.withUnsafeBytes { buffer in
            Result { () throws(ArchiveStorageError) in
                try store.decodeValue(
                    payload: UnsafeRawBufferPointer(rebasing: buffer[layout.payloadRange]),
                    formatIdentifier: layout.formatIdentifier,
                    schemaVersion: layout.prefix.schemaVersion,
                    key: key,
                    path: path
                )
            }
        }
        return LoadedEntry(value: try decoded.get(), expiry: layout.prefix.expiry, byteCount: bytes.count)
    }

    /// The damage of an entry file that holds the key `stored`, not the one its name stands for.
    private static func otherKey(_ stored: [UInt8]) -> EntryFormat.Corruption {
        EntryFormat.Corruption(
            reason: "the entry holds another key, \(String(decoding: stored, as: UTF8.self).debugDescription)"
        )
    }

    /// The expiry in the header of the entry file at `location`, read up to and including its
    /// key; `nil` when there is no file.
    func expiry<Value>(
        forKey key: String,
        location: EntryLocation,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> Double? {
        let keyBytes = Array(key.utf8)
        let count = EntryFormat.prefixSize + 255 + keyBytes.count
        guard let bytes = try DirectoryListing.readPrefix(atPath: location.path, count: count) else {
            try store.checkNotMoved()
            return nil
        }
        do throws(EntryFormat.Corruption) {
            let prefix = try EntryFormat.decodePrefix(bytes)
            let keyStart = EntryFormat.prefixSize + prefix.formatIdentifierLength
            guard prefix.keyLength == keyBytes.count, bytes.count >= keyStart + keyBytes.count,
                bytes[keyStart..<keyStart + keyBytes.count].elementsEqual(keyBytes)
            else { throw EntryFormat.Corruption(reason: "the entry holds another key") }
            return prefix.expiry
        } catch {
            throw self.corruptEntry(key: key, location: location, reason: error.reason, isLocked: false, in: store)
        }
    }

    /// A ``ArchiveStorageError/Code/corruptEntry`` error for the entry file at `location`; under
    /// the ``ArchiveStoreConfiguration/CorruptEntryPolicy/moveAside`` policy, moves it first.
    func corruptEntry<Value>(
        key: String?,
        location: EntryLocation,
        reason: String,
        isLocked: Bool,
        in store: ArchiveStore<Value>
    ) -> ArchiveStorageError {
        var reason = reason
        if store.configuration.corruptEntryPolicy.isMoveAside {
            do {
                if let destination = try self.moveAside(location, isLocked: isLocked, in: store) {
                    reason += "; moved to \(destination)"
                }
            } catch {
                reason += "; could not move it aside: \(error)"
            }
        }
        return ArchiveStorageError(.corruptEntry, key: key, path: location.path, reason: reason)
    }

    /// Moves the entry file at `location` into the `Corrupt` folder if it is still damaged once
    /// its lock is held, and returns its new path; `nil` if it was replaced or removed meanwhile.
    func moveAside<Value>(
        _ location: EntryLocation,
        isLocked: Bool,
        in store: ArchiveStore<Value>
    ) throws(ArchiveStorageError) -> String? {
        let destination = try CorruptFolder.destination(forFileName: location.fileName, inStore: store.directoryPath)
        let move = { () throws(ArchiveStorageError) -> String? in
            try store.checkNotMoved()
            guard let bytes = try DurableFile.read(atPath: location.path) else { return nil }
            if Self.isIntact(bytes, fileName: location.fileName) { return nil }
            store.control.beginWrite(slot: location.slot)
            defer { self.endWrite(at: location, in: store) }
            try DurableFile.rename(location.path, to: destination)
            return destination
        }
        let moved = isLocked ? try move() : try store.control.withExclusiveLock(slot: location.slot, move)
        if moved != nil, store.configuration.isDurable { try DurableFile.syncDirectory(ofPath: location.path) }
        return moved
    }

    /// Whether `bytes` are a sound entry whose key has the file name `fileName`.
    static func isIntact(_ bytes: [UInt8], fileName: String) -> Bool {
        Self.damage(bytes, fileName: fileName) == nil
    }

    /// What is wrong with `bytes` as the entry file called `fileName`; `nil` when they are a sound
    /// entry whose key has that file name.
    static func damage(_ bytes: [UInt8], fileName: String) -> String? {
        let entry: EntryFormat.Entry
        do throws(EntryFormat.Corruption) {
            entry = try EntryFormat.decode(bytes)
        } catch {
            return error.reason
        }
        guard let key = validUTF8String(entry.key) else { return "the key is not UTF-8" }
        guard EntryFileName(key: key).name == fileName else {
            return "the entry holds another key, \(key.debugDescription)"
        }
        return nil
    }

    /// The key of the entry file called `fileName` holding `bytes`, sound or not: the one its name
    /// encodes, or for a name made of a key's hash, the key in its header if it hashes to that
    /// name; `nil` when neither tells it.
    static func key(ofFileNamed fileName: String, bytes: [UInt8]) -> String? {
        switch EntryFileName.classify(fileName) {
        case .encoded(let key):
            return key
        case .hashed:
            guard let prefix = try? EntryFormat.decodePrefix(bytes) else { return nil }
            let start = EntryFormat.prefixSize + prefix.formatIdentifierLength
            guard start <= bytes.count, bytes.count - start >= prefix.keyLength,
                let key = validUTF8String(bytes[start..<start + prefix.keyLength]),
                EntryFileName(key: key).name == fileName
            else { return nil }
            return key
        case .other:
            return nil
        }
    }

    /// Lets go of nothing: a files store holds no file open between calls.
    func close() {}

    /// The scratch database and SQLite's side files that an interrupted move left, unless a
    /// database makes `directory` a SQLite store now.
    func moveLeftovers(in directory: String) throws(ArchiveStorageError) -> [String] {
        try StoreMove.leftovers(in: directory, storeIsSQLite: false)
    }

    /// Whether a database appeared in `directory`, which makes it a SQLite store.
    func isSuperseded(in directory: String) -> Bool {
        DirectoryListing.fileExists(atPath: directory + "/" + entryTableFileName)
    }
}
