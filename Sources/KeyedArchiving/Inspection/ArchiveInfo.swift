//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import PropertyLists

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A summary of a property list file and, when it is one, the keyed archive it holds: format, size,
/// the binary trailer's widths, archiver, version, top-level keys, and how many objects of each
/// class `$objects` holds.
///
/// ```swift
/// let info = try ArchiveInfo(bytes: bytes)
/// print(info)  // the text form below
/// info.archive?.classes.first  // ClassCount(name: "NSMutableDictionary", count: 328)
/// ```
///
/// Its ``description`` is the text `karchive info` prints:
///
/// ```
/// format: binary property list (bplist00), 515 bytes
/// binary layout: 60 objects, 2-byte offsets, 1-byte references, offset table at byte 363, top object 0
/// archiver: NSKeyedArchiver, version 100000
/// top keys: root
/// objects: 14 in $objects: 3 instances, 3 class descriptions, 7 plain values, $null
/// classes:
///   NSArray       1
///   NSDictionary  1
///   crap.Foo      1
/// ```
public struct ArchiveInfo: Hashable, Sendable, CustomStringConvertible {
    /// The format of the file.
    public var format: PropertyListFormat
    /// The size of the file in bytes.
    public var byteCount: Int
    /// The trailer of a binary property list; `nil` for XML.
    public var binaryLayout: BinaryLayout?
    /// What the top level is, such as `dictionary (4 entries)`.
    public var topLevelSummary: String
    /// The keyed archive the file holds, or `nil` for a plain property list.
    public var archive: Contents?

    /// The trailer fields of a binary property list.
    public struct BinaryLayout: Hashable, Sendable {
        /// The number of objects in the offset table (property list objects, not archived objects).
        public var objectCount: Int
        /// The width in bytes of each offset-table entry.
        public var offsetSize: Int
        /// The width in bytes of each object reference.
        public var referenceSize: Int
        /// The byte offset of the offset table.
        public var offsetTableOffset: Int
        /// The index of the top-level object.
        public var topObjectIndex: Int
    }

    /// What a keyed archive holds.
    public struct Contents: Hashable, Sendable {
        /// `$archiver`.
        public var archiver: String
        /// `$version`.
        public var version: Int
        /// The `$top` keys, in archive order.
        public var topKeys: [String]
        /// The number of entries in `$objects`, `$null` included.
        public var objectCount: Int
        /// The number of object dictionaries (entries with a `$class`).
        public var instanceCount: Int
        /// The number of class dictionaries (entries with a `$classname`).
        public var classDescriptionCount: Int
        /// The number of plain values: strings, numbers, data and the like, other than `$null`.
        public var plainValueCount: Int
        /// How many object dictionaries name each class, most frequent first, then by name. Objects whose
        /// `$class` does not lead to a class dictionary are counted under `?`.
        public var classes: [ClassCount]
    }

    /// The number of objects of one class.
    public struct ClassCount: Hashable, Sendable {
        /// The class name.
        public var name: String
        /// How many objects in `$objects` have this class.
        public var count: Int

        /// Creates a count.
        public init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    /// Reads a property list and summarizes it.
    /// - Parameters:
    ///   - bytes: A binary or XML property list.
    ///   - limits: The bounds to enforce while reading.
    /// - Throws: ``KeyedArchiveError`` with ``KeyedArchiveError/Code/malformedPropertyList`` if the bytes
    ///   are not a property list, or another code if it claims to be a keyed archive (it is a
    ///   dictionary with `$archiver`) but is malformed.
    /// - Complexity: O(*n*) in the size of the input.
    public init(bytes: some DataProtocol, limits: PropertyListLimits = .default) throws(KeyedArchiveError) {
        let input = ByteInput.array(bytes)
        let parsed: (value: PropertyListValue, format: PropertyListFormat)
        var layout: BinaryLayout?
        do {
            parsed = try PropertyListValue.parse(input, limits: limits)
            if parsed.format == .binary {
                let reader = try BinaryPropertyListReader(bytes: input, limits: limits)
                layout = BinaryLayout(
                    objectCount: reader.objectCount,
                    offsetSize: reader.offsetSize,
                    referenceSize: reader.referenceSize,
                    offsetTableOffset: reader.offsetTableOffset,
                    topObjectIndex: reader.topObjectIndex
                )
            }
        } catch {
            throw KeyedArchiveError(.malformedPropertyList, reason: "not a property list", underlying: error)
        }
        self.format = parsed.format
        self.byteCount = input.count
        self.binaryLayout = layout
        self.topLevelSummary = PropertyListTreePrinter().summary(of: parsed.value)
        self.archive = try KeyedArchive(detecting: parsed.value).map(Contents.init(archive:))
    }

    /// The text form, several lines without a trailing newline; see the type's documentation.
    public var description: String {
        var lines: [String] = []
        switch self.format {
        case .binary: lines.append("format: binary property list (bplist00), \(Self.bytes(self.byteCount))")
        case .xml: lines.append("format: XML property list, \(Self.bytes(self.byteCount))")
        }
        if let layout = self.binaryLayout {
            lines.append(
                "binary layout: \(layout.objectCount) objects, \(layout.offsetSize)-byte offsets, "
                    + "\(layout.referenceSize)-byte references, offset table at byte \(layout.offsetTableOffset), "
                    + "top object \(layout.topObjectIndex)"
            )
        }
        guard let archive = self.archive else {
            lines.append("top level: \(self.topLevelSummary)")
            lines.append("not a keyed archive")
            return lines.joined(separator: "\n")
        }
        lines.append("archiver: \(archive.archiver), version \(archive.version)")
        lines.append("top keys: " + (archive.topKeys.isEmpty ? "(none)" : archive.topKeys.joined(separator: ", ")))
        lines.append(
            "objects: \(archive.objectCount) in $objects: \(archive.instanceCount) instances, "
                + "\(archive.classDescriptionCount) class descriptions, \(archive.plainValueCount) plain values, $null"
        )
        lines.append("classes:" + (archive.classes.isEmpty ? " (none)" : ""))
        let width = archive.classes.map(\.name.count).max() ?? 0
        for entry in archive.classes {
            let padding = String(repeating: " ", count: width - entry.name.count + 2)
            lines.append("  \(entry.name)\(padding)\(entry.count)")
        }
        return lines.joined(separator: "\n")
    }

    private static func bytes(_ count: Int) -> String {
        count == 1 ? "1 byte" : "\(count) bytes"
    }
}

extension ArchiveInfo.Contents {
    /// Counts the objects of an archive by kind and class.
    init(archive: KeyedArchive) {
        var instances = 0
        var classDescriptions = 0
        var plainValues = 0
        var counts: [String: Int] = [:]
        let graph = archive.graph
        for (index, object) in archive.objects.enumerated() {
            if index == 0 { continue }
            guard case .dictionary(let dictionary) = object else {
                plainValues += 1
                continue
            }
            if ArchiveGraphReader<ArchiveTreeList>.isClassDictionary(dictionary, graph.list) {
                classDescriptions += 1
                continue
            }
            instances += 1
            let name = (try? graph.archivedClass(of: dictionary, uid: nil))?.name ?? "?"
            counts[name, default: 0] += 1
        }
        self.archiver = KeyedArchive.archiverName
        self.version = KeyedArchive.formatVersion
        self.topKeys = archive.top.map(\.key)
        self.objectCount = archive.objects.count
        self.instanceCount = instances
        self.classDescriptionCount = classDescriptions
        self.plainValueCount = plainValues
        self.classes = counts.map { ArchiveInfo.ClassCount(name: $0.key, count: $0.value) }
            .sorted {
                $0.count != $1.count ? $0.count > $1.count : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8)
            }
    }
}
