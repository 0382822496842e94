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
public import FoundationEssentials
#else
public import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// The folder a store's own directory, named after the store, is created in.
///
/// ```swift
/// let store = try ArchiveStore<Profile>(name: "com.example.profiles", in: .applicationSupport)
/// // macOS: ~/Library/Application Support/com.example.profiles
/// // Linux: $XDG_DATA_HOME/com.example.profiles, by default ~/.local/share/com.example.profiles
/// ```
public struct ArchiveStoreDirectory: Sendable, Hashable {
    private enum Base: Sendable, Hashable {
        case applicationSupport
        case caches
        case path(String)
        case appGroup(String)
    }

    private let base: Base

    /// Data the application keeps: Application Support on Apple platforms; elsewhere
    /// `$XDG_DATA_HOME`, or `~/.local/share` when it is unset or not absolute.
    public static let applicationSupport = ArchiveStoreDirectory(base: .applicationSupport)

    /// Data the application can recreate: Caches on Apple platforms; elsewhere `$XDG_CACHE_HOME`,
    /// or `~/.cache` when it is unset or not absolute.
    public static let caches = ArchiveStoreDirectory(base: .caches)

    /// An explicit folder, given as a file-system path.
    public static func path(_ path: String) -> ArchiveStoreDirectory {
        ArchiveStoreDirectory(base: .path(path))
    }

    /// An explicit folder, given as a file URL.
    public static func url(_ url: URL) -> ArchiveStoreDirectory {
        ArchiveStoreDirectory(base: .path(url.path(percentEncoded: false)))
    }

    #if canImport(Darwin)
    /// Application Support in the shared container of the App Group `identifier`, which an app
    /// and its extensions (or several apps of one team) can all reach: `Library/Application
    /// Support` in the URL `FileManager`'s `containerURL(forSecurityApplicationGroupIdentifier:)`
    /// returns.
    ///
    /// The app needs the App Groups entitlement naming the group; without it, opening a store
    /// throws ``ArchiveStorageError/Code/invalidConfiguration``. Processes sharing a store are
    /// safe with either backend (see <doc:StoringValues>); on iOS, call
    /// ``ArchiveStore/suspend(timeout:)`` before the app is suspended, so that it holds no file
    /// lock another process may wait for.
    public static func appGroup(_ identifier: String) -> ArchiveStoreDirectory {
        ArchiveStoreDirectory(base: .appGroup(identifier))
    }
    #endif

    /// The folder's path, resolved with the given environment variables.
    func resolvedPath(environment: [String: String]) throws(ArchiveStorageError) -> String {
        switch self.base {
        case .path(let path):
            guard !path.isEmpty else {
                throw ArchiveStorageError(.invalidConfiguration, reason: "the directory path is empty")
            }
            return path
        case .applicationSupport:
            #if canImport(Darwin)
            return try Self.appleDirectory(.applicationSupportDirectory)
            #else
            return try Self.xdgDirectory("XDG_DATA_HOME", fallback: ".local/share", environment: environment)
            #endif
        case .caches:
            #if canImport(Darwin)
            return try Self.appleDirectory(.cachesDirectory)
            #else
            return try Self.xdgDirectory("XDG_CACHE_HOME", fallback: ".cache", environment: environment)
            #endif
        case .appGroup(let identifier):
            #if canImport(Darwin)
            let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: identifier)
            return try Self.appGroupPath(identifier: identifier, container: container?.path(percentEncoded: false))
            #else
            return try Self.appGroupPath(identifier: identifier, container: nil)
            #endif
        }
    }

    /// Application Support in the App Group container at `container`, or
    /// ``ArchiveStorageError/Code/invalidConfiguration`` when the group has none (`nil`: the app
    /// lacks the entitlement, or the platform has no App Groups).
    static func appGroupPath(identifier: String, container: String?) throws(ArchiveStorageError) -> String {
        guard !identifier.isEmpty else {
            throw ArchiveStorageError(.invalidConfiguration, reason: "the App Group identifier is empty")
        }
        guard let container, container.hasPrefix("/") else {
            throw ArchiveStorageError(
                .invalidConfiguration,
                reason: "no container for the App Group \"\(identifier)\": add it to the app's App Groups entitlement"
            )
        }
        let base = container.hasSuffix("/") ? String(container.dropLast()) : container
        return base + "/Library/Application Support"
    }

    #if canImport(Darwin)
    private static func appleDirectory(
        _ directory: FileManager.SearchPathDirectory
    ) throws(ArchiveStorageError) -> String {
        guard let url = FileManager.default.urls(for: directory, in: .userDomainMask).first else {
            throw ArchiveStorageError(.invalidConfiguration, reason: "no user directory for \(directory)")
        }
        return url.path(percentEncoded: false)
    }
    #endif

    /// `$variable` when it is an absolute path (the XDG Base Directory rule), else `$HOME/fallback`.
    static func xdgDirectory(
        _ variable: String,
        fallback: String,
        environment: [String: String]
    ) throws(ArchiveStorageError) -> String {
        if let value = environment[variable], value.hasPrefix("/") {
            return value
        }
        guard let home = self.homeDirectory(environment: environment) else {
            throw ArchiveStorageError(
                .invalidConfiguration,
                reason: "neither $\(variable) nor the home directory is known"
            )
        }
        return home + "/" + fallback
    }

    private static func homeDirectory(environment: [String: String]) -> String? {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.hasPrefix("/") ? home : nil
    }
}
