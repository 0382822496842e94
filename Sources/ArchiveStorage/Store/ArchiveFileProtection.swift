//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
import Foundation
#endif

/// The data-protection class of a store's files (``ArchiveStoreConfiguration/fileProtection``):
/// when they can be read and written on a device with a passcode.
///
/// It applies on the platforms with data protection: iOS, iPadOS (Mac Catalyst included), tvOS,
/// watchOS and visionOS. Elsewhere it is accepted and has no effect. The store sets the class of
/// its directory, which every file it creates there inherits (SQLite's database, `-wal` and
/// `-shm` files included), and changes the class of the files already there when the directory's
/// differs. Two files hold no values and are mapped into memory, where a page whose key the system
/// has evicted cannot be read: the control file and SQLite's `-shm` file are kept at
/// ``completeUntilFirstUserAuthentication`` at most.
///
/// While the device is locked, a store whose files are ``complete`` throws
/// ``ArchiveStorageError/Code/protectedDataUnavailable`` from every read or write that reaches them
/// (values in its memory cache are still returned).
public struct ArchiveFileProtection: Sendable, Hashable, CustomStringConvertible {
    private enum Level: Int, Comparable {
        case none
        case completeUntilFirstUserAuthentication
        case completeUnlessOpen
        case complete

        static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private let level: Level

    private init(level: Level) { self.level = level }

    /// No protection: the files can be read and written whenever the device is on.
    public static let none = ArchiveFileProtection(level: .none)

    /// Readable and writable once the user has unlocked the device after it started, until it
    /// restarts: a store an app uses in the background. The default.
    public static let completeUntilFirstUserAuthentication = ArchiveFileProtection(
        level: .completeUntilFirstUserAuthentication
    )

    /// Files open when the device locks stay usable, and new ones can be created; others cannot
    /// be opened until it is unlocked.
    public static let completeUnlessOpen = ArchiveFileProtection(level: .completeUnlessOpen)

    /// Readable and writable only while the device is unlocked.
    public static let complete = ArchiveFileProtection(level: .complete)

    /// The class's name, as Foundation's `FileProtectionType` spells it.
    public var description: String {
        switch self.level {
        case .none: "none"
        case .completeUntilFirstUserAuthentication: "completeUntilFirstUserAuthentication"
        case .completeUnlessOpen: "completeUnlessOpen"
        case .complete: "complete"
        }
    }

    /// Whether this platform has data protection, so that the class is applied and a refused
    /// access (`EPERM`) means that protected data is unavailable.
    static var isEnforced: Bool {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        true
        #else
        false
        #endif
    }

    /// The names, in a store's directory, of the files that are mapped into memory and hold no
    /// values: the control file and SQLite's shared-memory file.
    static let mappedFileNames: Set<String> = [StoreControlFile.fileName, entryTableFileName + "-shm"]

    /// The class of the file `name` (a path relative to the store's directory): this one, but
    /// no stronger than ``completeUntilFirstUserAuthentication`` for a mapped file.
    func protection(forFileNamed name: String) -> ArchiveFileProtection {
        guard Self.mappedFileNames.contains(name) else { return self }
        return ArchiveFileProtection(level: min(self.level, .completeUntilFirstUserAuthentication))
    }

    /// What opening a store whose directory has the class `current` (`nil` when unknown) sets:
    /// the directory's class and every file's when they differ from this one; otherwise only the
    /// mapped files', which may have been created (inheriting the directory's) since.
    func plan(directoryProtection current: ArchiveFileProtection?) -> ProtectionPlan {
        current == self ? .mappedFiles : .everything
    }

    /// The files whose class opening a store sets (see ``plan(directoryProtection:)``).
    enum ProtectionPlan: Equatable {
        /// The directory and every file in it, in every folder.
        case everything
        /// Only the mapped files (``mappedFileNames``) that exist.
        case mappedFiles
    }
}

#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
extension ArchiveFileProtection {
    /// Foundation's spelling of the class.
    var fileProtectionType: FileProtectionType {
        switch self.level {
        case .none: .none
        case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
        case .completeUnlessOpen: .completeUnlessOpen
        case .complete: .complete
        }
    }

    /// The class Foundation reports; `nil` for one this type does not know.
    init?(fileProtectionType type: FileProtectionType) {
        let known: [ArchiveFileProtection] = [
            .none, .completeUntilFirstUserAuthentication, .completeUnlessOpen, .complete,
        ]
        guard let protection = known.first(where: { $0.fileProtectionType.rawValue == type.rawValue }) else {
            return nil
        }
        self = protection
    }

    /// Gives the store's directory at `directory`, and the files in it, their classes (see
    /// ``plan(directoryProtection:)``).
    func apply(toStoreAt directory: String) throws(ArchiveStorageError) {
        let manager = FileManager.default
        let attributes = try? manager.attributesOfItem(atPath: directory)
        let current = (attributes?[.protectionKey] as? FileProtectionType).flatMap(
            ArchiveFileProtection.init(fileProtectionType:)
        )
        let names: [String]
        switch self.plan(directoryProtection: current) {
        case .everything:
            do {
                try manager.setAttributes([.protectionKey: self.fileProtectionType], ofItemAtPath: directory)
                names = try manager.subpathsOfDirectory(atPath: directory)
            } catch {
                throw Self.failure(error, path: directory)
            }
        case .mappedFiles:
            names = Self.mappedFileNames.filter { DirectoryListing.fileExists(atPath: directory + "/" + $0) }
        }
        for name in names {
            let path = directory + "/" + name
            let protection = self.protection(forFileNamed: name)
            do {
                try manager.setAttributes([.protectionKey: protection.fileProtectionType], ofItemAtPath: path)
            } catch {
                throw Self.failure(error, path: path)
            }
        }
    }

    private static func failure(_ error: any Error, path: String) -> ArchiveStorageError {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        let code = underlying.flatMap { $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil }
        return ArchiveStorageError(
            code.map { DurableFile.code(forSystemError: $0, hasDataProtection: true) } ?? .fileSystem,
            path: path,
            reason: "cannot set the file's data protection",
            underlying: error
        )
    }
}
#endif
