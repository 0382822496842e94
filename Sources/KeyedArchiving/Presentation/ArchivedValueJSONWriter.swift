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
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a resolved keyed archive as JSON text, in a stable form documented in <doc:JSONForm>.
///
/// | Archived value | JSON |
/// |---|---|
/// | the top level | an object: each `$top` key and its value |
/// | string, `NSString` | string |
/// | integer, real | number; a non-finite real is `{"$real": "nan"}`, `"inf"` or `"-inf"` |
/// | Boolean | `true` or `false` |
/// | `$null`, `NSNull` | `null` |
/// | date, `NSDate` | `{"$date": "2022-07-25T16:03:35.615284Z"}` |
/// | data, `NSData` | `{"$data": "<base64>"}` |
/// | `NSUUID` | `{"$uuid": "71DC068E-3420-45FF-919E-3A267D55EC22"}` |
/// | `NSURL` | `{"$url": "https://www.swift.org/index.xml"}` |
/// | `NSArray`, `NSSet`, `NSOrderedSet` | array |
/// | `NSDictionary` with string keys | object (`{"$dict": {…}}` when its keys could read as a tag) |
/// | `NSDictionary` with other keys | `{"$entries": [[key, value], …]}` |
/// | any other object | `{"$class": "<class name>", "<key>": value, …}` |
/// | a cycle | `{"$ref": <UID>}` |
///
/// Strings, numbers, dates and data are written exactly as `PropertyListJSONWriter` writes them, and
/// a plain property list is written by that writer.
///
/// ```swift
/// let json = try ArchivedValueJSONWriter(outputFormatting: .prettyPrinted).write(archive)
/// ```
public struct ArchivedValueJSONWriter: Sendable {
    /// Options that change the layout of the JSON text, not its content.
    public typealias OutputFormatting = PropertyListJSONWriter.OutputFormatting

    /// The layout of the output. Defaults to compact, with keys in archive order.
    public var outputFormatting: OutputFormatting
    /// Whether a data value that holds a property list is written as `{"$archive": …}` (a keyed
    /// archive, resolved) or `{"$plist": …}` (any other property list) instead of
    /// `{"$data": …}`. Defaults to `false`. Nesting is followed up to 16 data values deep.
    public var expandsNestedData: Bool
    /// The largest output, in bytes, before writing stops with
    /// ``KeyedArchiveError/Code/outputLimitExceeded``. A shared object is written wherever it
    /// appears, so a small archive can describe an enormous tree. Defaults to 1 GiB.
    public var maximumOutputSize: Int
    /// Bounds for resolving archives and reading nested property lists. Defaults to
    /// `PropertyListLimits.default`.
    public var limits: PropertyListLimits
    /// How many data values deep this writer is, for ``expandsNestedData``.
    internal var nestingLevel = 0

    /// Creates a writer.
    /// - Parameters:
    ///   - outputFormatting: The layout of the output.
    ///   - expandsNestedData: Whether to write property lists inside data values as JSON.
    ///   - maximumOutputSize: The largest output in bytes.
    ///   - limits: Bounds for resolving archives and reading nested property lists.
    public init(
        outputFormatting: OutputFormatting = [],
        expandsNestedData: Bool = false,
        maximumOutputSize: Int = 1 << 30,
        limits: PropertyListLimits = .default
    ) {
        self.outputFormatting = outputFormatting
        self.expandsNestedData = expandsNestedData
        self.maximumOutputSize = maximumOutputSize
        self.limits = limits
    }

    /// Writes `value` as UTF-8 JSON text, without a trailing newline.
    /// - Parameter value: The value; ``ArchivedValue/top(_:)`` becomes an object with one entry per key.
    /// - Returns: The JSON text.
    /// - Throws: ``KeyedArchiveError/Code/outputLimitExceeded`` if the text would exceed
    ///   ``maximumOutputSize``.
    /// - Complexity: O(*n*) in the size of the output.
    public func write(_ value: ArchivedValue) throws(KeyedArchiveError) -> [UInt8] {
        var emitter = ArchiveJSONEmitter(writer: self)
        try emitter.emit(value, depth: 0)
        return emitter.output.bytes
    }

    /// Resolves every `$top` key of `archive` and writes the result as UTF-8 JSON text.
    /// - Parameter archive: The archive.
    /// - Returns: The JSON text, without a trailing newline.
    /// - Throws: ``KeyedArchiveError`` if the archive cannot be resolved or the text would exceed
    ///   ``maximumOutputSize``.
    public func write(_ archive: KeyedArchive) throws(KeyedArchiveError) -> [UInt8] {
        try self.write(ArchivedValue(archive: archive, limits: self.limits))
    }

    /// Writes any property list: a keyed archive resolved, as ``write(_:)-(KeyedArchive)`` does,
    /// and any other property list as `PropertyListJSONWriter` does.
    /// - Parameter propertyList: The property list.
    /// - Returns: The JSON text, without a trailing newline.
    /// - Throws: ``KeyedArchiveError`` if the property list claims to be a keyed archive (it is a
    ///   dictionary with `$archiver`) but is malformed, or the text would exceed ``maximumOutputSize``.
    public func write(propertyList: PropertyListValue) throws(KeyedArchiveError) -> [UInt8] {
        if let archive = try KeyedArchive(detecting: propertyList) {
            return try self.write(archive)
        }
        return self.plainJSON(propertyList)
    }

    /// Writes any property list as ``write(propertyList:)`` does, handing the text to `sink` in
    /// chunks of about `chunkSize` bytes, so the whole text never sits in memory.
    ///
    /// The chunks, in order, are exactly the bytes ``write(propertyList:)`` returns. A keyed archive
    /// is resolved before the first chunk, so an archive that does not resolve writes nothing.
    /// - Parameters:
    ///   - propertyList: The property list.
    ///   - chunkSize: About how many bytes to collect before calling `sink`. Defaults to 1 MiB.
    ///   - sink: Receives each chunk; writing stops at its first error.
    /// - Throws: ``KeyedArchiveError`` as ``write(propertyList:)`` does, or the first error `sink` throws.
    public func write(
        propertyList: PropertyListValue,
        chunkSize: Int = 1 << 20,
        to sink: ([UInt8]) throws -> Void
    ) throws {
        guard let archive = try KeyedArchive(detecting: propertyList) else {
            try sink(self.plainJSON(propertyList))
            return
        }
        let value = try ArchivedValue(archive: archive, limits: self.limits)
        var sinkError: (any Error)?
        try withoutActuallyEscaping(sink) { sink throws(KeyedArchiveError) in
            var emitter = ArchiveJSONEmitter(writer: self)
            emitter.chunkSize = max(chunkSize, 1)
            emitter.flush = { chunk in
                guard sinkError == nil else { return }
                do { try sink(chunk) } catch { sinkError = error }
            }
            try emitter.emit(value, depth: 0)
            emitter.flushNow()
        }
        if let sinkError { throw sinkError }
    }

    /// Writes a property list as it is, without resolving an archive, as `PropertyListJSONWriter`
    /// does but with this writer's settings.
    internal func plainJSON(_ propertyList: PropertyListValue) -> [UInt8] {
        var writer = PropertyListJSONWriter(outputFormatting: self.outputFormatting)
        writer.dataRenderer = self.nestedRenderer()
        return writer.write(propertyList)
    }

    /// Writes `value` as JSON text, without a trailing newline.
    /// - Parameter value: The value to write.
    /// - Returns: The JSON text.
    /// - Throws: ``KeyedArchiveError/Code/outputLimitExceeded`` if the text would exceed
    ///   ``maximumOutputSize``.
    public func string(from value: ArchivedValue) throws(KeyedArchiveError) -> String {
        String(decoding: try self.write(value), as: UTF8.self)
    }

    /// The renderer that writes a nested property list as `{"$archive": …}` or `{"$plist": …}`, when
    /// ``expandsNestedData`` is on and the nesting limit is not reached.
    internal func nestedRenderer() -> (@Sendable (Data) -> [UInt8]?)? {
        guard self.expandsNestedData, self.nestingLevel < NestedPropertyList.maximumNesting else { return nil }
        var inner = self
        inner.nestingLevel += 1
        // A data value may be shared many times and is written at each place: a nested property
        // list may expand only to a multiple of its own size, so the output stays a multiple of the
        // outer archive's decoded size.
        inner.limits.decodedSizeAllowance = 0
        // Each level recurses on the same stack as the one that holds it: halving the depth keeps
        // all levels together within twice the limit.
        inner.limits.maximumDepth = self.limits.maximumDepth / 2
        return { [inner] data in
            guard let nested = NestedPropertyList(data: data, limits: inner.limits) else { return nil }
            var output = JSONOutput(prettyPrinted: inner.outputFormatting.contains(.prettyPrinted))
            switch nested {
            case .archive(let archive, _):
                if let json = try? inner.write(archive) {
                    output.openTag("$archive")
                    output.bytes.append(contentsOf: json)
                } else {
                    // An archive that does not resolve is written as the property list it is.
                    output.openTag("$plist")
                    output.bytes.append(contentsOf: inner.plainJSON(archive.propertyList))
                }
            case .propertyList(let value, _):
                output.openTag("$plist")
                output.bytes.append(contentsOf: inner.plainJSON(value))
            }
            output.append(UInt8(ascii: "}"))
            return output.bytes
        }
    }
}

/// The single-use state of one ``ArchivedValueJSONWriter`` call.
private struct ArchiveJSONEmitter {
    /// Keys that make a one-entry dictionary read as a tagged value. They are this package's JSON
    /// form (see the *JSON Form* article), not keys of the archive format, which `ArchiveFormatKey`
    /// spells.
    private static let tags: Set<String> = [
        "$data", "$date", "$real", "$uid", "$dict", "$uuid", "$url", "$ref", "$entries", "$archive", "$plist",
    ]

    var output: JSONOutput
    /// Where full chunks go when writing in chunks; `nil` keeps the whole text in ``output``.
    var flush: (([UInt8]) -> Void)?
    var chunkSize = Int.max
    /// Bytes already handed to ``flush``.
    private var flushed = 0
    private let sortsKeys: Bool
    private let maximumOutputSize: Int
    private let dataRenderer: (@Sendable (Data) -> [UInt8]?)?
    /// Stops nesting before the thread's stack runs out.
    private var stack = StackGuard()

    init(writer: ArchivedValueJSONWriter) {
        self.output = JSONOutput(prettyPrinted: writer.outputFormatting.contains(.prettyPrinted))
        self.sortsKeys = writer.outputFormatting.contains(.sortedKeys)
        self.maximumOutputSize = writer.maximumOutputSize
        self.dataRenderer = writer.nestedRenderer()
    }

    /// Hands the collected text to ``flush`` and clears it.
    mutating func flushNow() {
        guard let flush, !self.output.bytes.isEmpty else { return }
        flush(self.output.bytes)
        self.flushed += self.output.bytes.count
        self.output.bytes.removeAll(keepingCapacity: true)
    }

    mutating func emit(_ value: ArchivedValue, depth: Int) throws(KeyedArchiveError) {
        if self.output.bytes.count >= self.chunkSize { self.flushNow() }
        guard self.flushed + self.output.bytes.count <= self.maximumOutputSize else {
            throw KeyedArchiveError(
                .outputLimitExceeded,
                reason: "the JSON form exceeds \(self.maximumOutputSize) bytes"
            )
        }
        guard self.stack.hasRoom() else {
            throw KeyedArchiveError(
                .depthLimitExceeded,
                reason: "values nest \(depth) deep, more than the thread's stack has room for"
            )
        }
        switch value {
        case .null: self.output.appendNull()
        case .string(let string): self.output.appendString(string)
        case .integer(let integer): self.output.appendInteger(integer)
        case .real(let real): self.output.appendReal(real)
        case .float(let float): self.output.appendFloat(float)
        case .bool(let bool): self.output.appendBool(bool)
        case .date(let date): self.output.appendDate(date)
        case .uuid(let uuid): self.output.appendTagged("$uuid", string: uuid.uuidString)
        case .url(let url): self.output.appendTagged("$url", string: url)
        case .reference(let uid): self.output.appendTagged("$ref", number: uid.rawValue)
        case .data(let data):
            if let rendered = self.dataRenderer?(data) {
                self.output.appendNested(rendered, depth: depth)
            } else {
                self.output.appendData(data)
            }
        case .array(let elements, _):
            try self.emitArray(elements, depth: depth)
        case .dictionary(let entries, _):
            try self.emitDictionary(entries, depth: depth)
        case .object(let className, _, let fields):
            try self.emitObject(fields, className: className, depth: depth)
        case .top(let fields):
            try self.emitObject(fields, className: nil, depth: depth)
        }
    }

    private mutating func emitArray(_ elements: [ArchivedValue], depth: Int) throws(KeyedArchiveError) {
        self.output.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            self.output.beginElement(index, depth: depth)
            try self.emit(element, depth: depth + 1)
        }
        self.output.endContainer(UInt8(ascii: "]"), count: elements.count, depth: depth)
    }

    private mutating func emitDictionary(_ entries: [ArchivedValue.Entry], depth: Int) throws(KeyedArchiveError) {
        var fields: [ArchivedValue.Field] = []
        fields.reserveCapacity(entries.count)
        for entry in entries {
            guard case .string(let key) = entry.key else {
                try self.emitEntries(entries, depth: depth)
                return
            }
            fields.append(ArchivedValue.Field(key: key, value: entry.value))
        }
        let readsAsTag =
            fields.contains { $0.key == ArchiveFormatKey.`class`.string }
            || (fields.count == 1 && Self.tags.contains(fields[0].key))
        if readsAsTag {
            self.output.openTag("$dict")
            try self.emitObject(fields, className: nil, depth: depth)
            self.output.append(UInt8(ascii: "}"))
        } else {
            try self.emitObject(fields, className: nil, depth: depth)
        }
    }

    /// `{"$entries": [[key, value], …]}`, for a dictionary with a key that is not a string.
    private mutating func emitEntries(_ entries: [ArchivedValue.Entry], depth: Int) throws(KeyedArchiveError) {
        self.output.openTag("$entries")
        self.output.append(UInt8(ascii: "["))
        for (index, entry) in entries.enumerated() {
            self.output.beginElement(index, depth: depth)
            try self.emitArray([entry.key, entry.value], depth: depth + 1)
        }
        self.output.endContainer(UInt8(ascii: "]"), count: entries.count, depth: depth)
        self.output.append(UInt8(ascii: "}"))
    }

    /// An object: `$class` first when there is a class name, then the fields. A field whose key is
    /// itself `$class` is written as `$$class`.
    private mutating func emitObject(
        _ fields: [ArchivedValue.Field],
        className: String?,
        depth: Int
    ) throws(KeyedArchiveError) {
        self.output.append(UInt8(ascii: "{"))
        var index = 0
        if let className {
            self.output.beginElement(index, depth: depth)
            self.output.appendString(ArchiveFormatKey.`class`.string)
            self.output.appendColon()
            self.output.appendString(className)
            index += 1
        }
        let ordered =
            self.sortsKeys ? fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : fields
        for field in ordered {
            self.output.beginElement(index, depth: depth)
            index += 1
            self.output.appendString(
                className != nil && field.key == ArchiveFormatKey.`class`.string
                    ? KeyedArchive.escapedKey(field.key) : field.key
            )
            self.output.appendColon()
            try self.emit(field.value, depth: depth + 1)
        }
        self.output.endContainer(UInt8(ascii: "}"), count: index, depth: depth)
    }
}
