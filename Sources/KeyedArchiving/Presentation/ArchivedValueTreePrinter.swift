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

/// Prints a resolved keyed archive as an indented tree for people to read, one value per line.
///
/// Each `$top` key starts a line at the left margin. Objects show their class name and size, and
/// their contents follow, indented one level: fields and string-keyed dictionary entries as
/// `key: value`, array and set elements as `[index] value`. An object that several places hold is
/// printed in full where it first appears, marked `[UID n, shared]`, and by name where it recurs; an
/// object that contains itself is marked where the cycle closes instead of being followed:
///
/// ```
/// root: Cat (5 fields)
///   name: "Tom"
///   owner: Person (2 fields) [UID 3, shared]
///     name: "Ada"
///     cat: Cat [UID 1, cycle back to root]
///   tags: NSArray (2 elements)
///     [0] "tabby"
///     [1] "lazy"
///   birthday: date 2022-07-25T16:03:35.615284Z
///   vet: Vet (1 field)
///     owner: Person [UID 3, shown above at root.owner]
/// ```
///
/// Scalars print as `PropertyListTreePrinter` prints them (quoted strings, `date …`, `data (N bytes)
/// …`), plus `null`, `UUID <string>` and `URL <absolute string>`. A dictionary with a key that is not a
/// string prints each entry as `[index] key: …` and `[index] value: …`. A plain property list prints
/// exactly as `PropertyListTreePrinter` prints it.
public struct ArchivedValueTreePrinter: Sendable {
    /// The number of spaces each level of nesting adds. Defaults to 2.
    public var indentation: Int
    /// The largest number of leading bytes of a data value to show in hex. Defaults to 16.
    public var maximumDataPreviewCount: Int
    /// Whether a data value that holds a property list or keyed archive is shown as its tree, one
    /// level deeper, instead of its bytes. Defaults to `false`.
    ///
    /// The data value's line reads `data (N bytes) holding a binary keyed archive:` (or `an XML
    /// property list:` and so on). Nesting is followed up to 16 data values deep.
    public var expandsNestedData: Bool
    /// Bounds for reading nested property lists and resolving archives. Defaults to
    /// `PropertyListLimits.default`.
    public var limits: PropertyListLimits
    /// How many data values deep this printer is, for ``expandsNestedData``.
    internal var nestingLevel = 0

    /// Creates a printer.
    /// - Parameters:
    ///   - indentation: The number of spaces each level of nesting adds.
    ///   - maximumDataPreviewCount: The largest number of leading bytes of a data value to show in hex.
    ///   - expandsNestedData: Whether to show property lists inside data values as trees.
    ///   - limits: Bounds for reading nested property lists and resolving archives.
    public init(
        indentation: Int = 2,
        maximumDataPreviewCount: Int = 16,
        expandsNestedData: Bool = false,
        limits: PropertyListLimits = .default
    ) {
        self.indentation = indentation
        self.maximumDataPreviewCount = maximumDataPreviewCount
        self.expandsNestedData = expandsNestedData
        self.limits = limits
    }

    /// Prints an object graph from its top-level keys, marking shared objects and cycles, without a
    /// trailing newline.
    /// - Parameter graph: The resolved archive.
    /// - Returns: The tree.
    /// - Complexity: O(*n*) in the number of objects: each is printed in full once.
    public func string(from graph: ArchivedObjectGraph) -> String {
        var emitter = ArchiveTreeEmitter(printer: self, graph: graph)
        emitter.emitFields(graph.top)
        return String(decoding: emitter.output.bytes, as: UTF8.self)
    }

    /// Prints an archive resolved from its top-level keys, marking shared objects and cycles.
    /// - Parameter archive: The archive.
    /// - Returns: The tree, without a trailing newline.
    /// - Throws: ``KeyedArchiveError`` if the archive cannot be resolved.
    public func string(from archive: KeyedArchive) throws(KeyedArchiveError) -> String {
        self.string(from: try ArchivedObjectGraph(archive: archive, limits: self.limits))
    }

    /// Prints a value. Shared objects are printed in full wherever they appear, and a
    /// ``ArchivedValue/reference(_:)`` prints as `[cycle back to UID n]`.
    /// - Parameter value: The value; a ``ArchivedValue/top(_:)`` prints one line per key.
    /// - Returns: The tree, without a trailing newline.
    public func string(from value: ArchivedValue) -> String {
        var emitter = ArchiveTreeEmitter(printer: self, graph: nil)
        if case .top(let fields) = value {
            emitter.emitFields(fields)
        } else {
            emitter.emit(value, depth: 0)
        }
        return String(decoding: emitter.output.bytes, as: UTF8.self)
    }

    /// Prints any property list: a keyed archive resolved, as ``string(from:)-(ArchivedObjectGraph)``
    /// does, and any other property list as `PropertyListTreePrinter` does.
    /// - Parameter propertyList: The property list.
    /// - Returns: The tree, without a trailing newline.
    /// - Throws: ``KeyedArchiveError`` if the property list claims to be a keyed archive (it is a
    ///   dictionary with `$archiver`) but is malformed.
    public func string(fromPropertyList propertyList: PropertyListValue) throws(KeyedArchiveError) -> String {
        if let archive = try KeyedArchive(detecting: propertyList) {
            return try self.string(from: archive)
        }
        return self.plainString(from: propertyList)
    }

    /// Prints a property list as it is, without resolving an archive, as `PropertyListTreePrinter`
    /// does but with this printer's settings.
    internal func plainString(from propertyList: PropertyListValue) -> String {
        var printer = PropertyListTreePrinter(
            indentation: self.indentation,
            maximumDataPreviewCount: self.maximumDataPreviewCount
        )
        printer.dataRenderer = self.nestedRenderer()
        return printer.string(from: propertyList)
    }

    /// The renderer that shows a nested property list as a summary line and a tree, when
    /// ``expandsNestedData`` is on and the nesting limit is not reached.
    internal func nestedRenderer() -> (@Sendable (Data) -> (summary: String, tree: String)?)? {
        guard self.expandsNestedData, self.nestingLevel < NestedPropertyList.maximumNesting else { return nil }
        var inner = self
        inner.nestingLevel += 1
        // A data value may be shared many times and is shown at each place: a nested property list
        // may expand only to a multiple of its own size, so the output stays a multiple of the
        // outer archive's decoded size.
        inner.limits.decodedSizeAllowance = 0
        // Each level recurses on the same stack as the one that holds it: halving the depth keeps
        // all levels together within twice the limit.
        inner.limits.maximumDepth = self.limits.maximumDepth / 2
        return { [inner] data in
            guard let nested = NestedPropertyList(data: data, limits: inner.limits) else { return nil }
            let tree: String
            switch nested {
            case .archive(let archive, _):
                // An archive that does not resolve is shown as the property list it is.
                tree = (try? inner.string(from: archive)) ?? inner.plainString(from: archive.propertyList)
            case .propertyList(let value, _):
                tree = inner.plainString(from: value)
            }
            var summary = TreeOutput(indentation: 0, maximumDataPreviewCount: 0)
            summary.appendASCII("data (")
            summary.appendCount(data.count, "byte", "bytes")
            let article = nested.description.first == "X" ? "an" : "a"
            summary.appendASCII(") holding \(article) \(nested.description):")
            return (String(decoding: summary.bytes, as: UTF8.self), tree)
        }
    }
}

/// The single-use state of one ``ArchivedValueTreePrinter`` call.
private struct ArchiveTreeEmitter {
    /// One step of the path from a top-level key to the value being printed.
    private enum PathComponent {
        case key(String)
        case index(Int)
    }

    var output: TreeOutput
    private let graph: ArchivedObjectGraph?
    private let dataRenderer: (@Sendable (Data) -> (summary: String, tree: String)?)?
    private var path: [PathComponent] = []
    /// The objects being printed, with the length of ``path`` where each began.
    private var active: [UID: Int] = [:]
    /// The path where each shared object was printed in full.
    private var firstShown: [UID: String] = [:]
    /// Stops nesting before the thread's stack runs out; deeper contents are left out, marked.
    private var stack = StackGuard()

    init(printer: ArchivedValueTreePrinter, graph: ArchivedObjectGraph?) {
        self.output = TreeOutput(
            indentation: printer.indentation,
            maximumDataPreviewCount: printer.maximumDataPreviewCount
        )
        self.graph = graph
        self.dataRenderer = printer.nestedRenderer()
    }

    mutating func emitFields(_ fields: [ArchivedValue.Field]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { self.output.startLine(depth: 0) }
            self.output.appendKeyLabel(field.key)
            self.path = [.key(field.key)]
            self.emit(field.value, depth: 0)
        }
        self.path = []
    }

    mutating func emit(_ value: ArchivedValue, depth: Int) {
        switch value {
        case .reference(let uid):
            self.emitReference(uid, depth: depth)
        case .array, .dictionary, .object, .top:
            self.emitContainer(value, depth: depth, mark: "")
        case .data(let data):
            if let (summary, tree) = self.dataRenderer?(data) {
                self.output.appendASCII(summary)
                self.output.startLine(depth: depth + 1)
                self.output.appendNested(tree, depth: depth + 1)
            } else {
                self.output.appendDataSummary(data)
            }
        case .null:
            self.output.appendASCII("null")
        case .string(let string):
            self.output.appendSummary(.string(string))
        case .integer(let integer):
            self.output.appendSummary(.integer(integer))
        case .real(let real):
            self.output.appendSummary(.real(real))
        case .float(let float):
            self.output.appendSummary(.float(float))
        case .bool(let bool):
            self.output.appendSummary(.bool(bool))
        case .date(let date):
            self.output.appendSummary(.date(date))
        case .uuid(let uuid):
            self.output.appendASCII("UUID ")
            self.output.appendASCII(uuid.uuidString)
        case .url(let url):
            self.output.appendASCII("URL ")
            self.output.appendASCII(url)
        }
    }

    private mutating func emitReference(_ uid: UID, depth: Int) {
        guard let graph = self.graph, let target = graph.objects[uid] else {
            self.output.appendASCII("[cycle back to UID \(uid.rawValue)]")
            return
        }
        let name = Self.kindName(of: target)
        if let start = self.active[uid] {
            self.output.appendASCII("\(name) [UID \(uid.rawValue), cycle back to \(self.pathText(count: start))]")
            return
        }
        if let first = self.firstShown[uid] {
            self.output.appendASCII("\(name) [UID \(uid.rawValue), shown above at \(first)]")
            return
        }
        let shared = graph.isShared(uid)
        if shared { self.firstShown[uid] = self.pathText(count: self.path.count) }
        self.active[uid] = self.path.count
        self.emitContainer(target, depth: depth, mark: shared ? " [UID \(uid.rawValue), shared]" : "")
        self.active[uid] = nil
    }

    private mutating func emitContainer(_ value: ArchivedValue, depth: Int, mark: String) {
        self.output.appendASCII(Self.kindName(of: value))
        switch value {
        case .array(let elements, _):
            self.appendSize(elements.count, "element", "elements", mark: mark)
            guard self.output.makeRoom(forContents: elements.count, stack: &self.stack) else { return }
            for (index, element) in elements.enumerated() {
                self.output.startLine(depth: depth + 1)
                self.output.appendIndexLabel(index)
                self.emitChild(element, .index(index), depth: depth + 1)
            }
        case .dictionary(let entries, _):
            self.appendSize(entries.count, "entry", "entries", mark: mark)
            guard self.output.makeRoom(forContents: entries.count, stack: &self.stack) else { return }
            let stringKeys = entries.allSatisfy { if case .string = $0.key { true } else { false } }
            for (index, entry) in entries.enumerated() {
                if stringKeys, case .string(let key) = entry.key {
                    self.output.startLine(depth: depth + 1)
                    self.output.appendKeyLabel(key)
                    self.emitChild(entry.value, .key(key), depth: depth + 1)
                } else {
                    self.output.startLine(depth: depth + 1)
                    self.output.appendASCII("[\(index)] key: ")
                    self.emitChild(entry.key, .index(index), depth: depth + 1)
                    self.output.startLine(depth: depth + 1)
                    self.output.appendASCII("[\(index)] value: ")
                    self.emitChild(entry.value, .index(index), depth: depth + 1)
                }
            }
        case .object(_, _, let fields), .top(let fields):
            self.appendSize(fields.count, "field", "fields", mark: mark)
            guard self.output.makeRoom(forContents: fields.count, stack: &self.stack) else { return }
            for field in fields {
                self.output.startLine(depth: depth + 1)
                self.output.appendKeyLabel(field.key)
                self.emitChild(field.value, .key(field.key), depth: depth + 1)
            }
        default:
            break
        }
    }

    private mutating func emitChild(_ value: ArchivedValue, _ component: PathComponent, depth: Int) {
        self.path.append(component)
        self.emit(value, depth: depth)
        self.path.removeLast()
    }

    private mutating func appendSize(_ count: Int, _ singular: String, _ plural: String, mark: String) {
        self.output.appendASCII(" (")
        self.output.appendCount(count, singular, plural)
        self.output.appendASCII(")")
        self.output.appendASCII(mark)
    }

    /// The class name of a container, or `array` or `dictionary` for one without a class.
    private static func kindName(of value: ArchivedValue) -> String {
        switch value {
        case .array(_, let className): return className.isEmpty ? "array" : className
        case .dictionary(_, let className): return className.isEmpty ? "dictionary" : className
        case .object(let className, _, _): return className
        case .top: return "top"
        default: return "value"
        }
    }

    /// The first `count` steps of the current path, such as `root.owner.pets[1]`.
    private func pathText(count: Int) -> String {
        var text = TreeOutput(indentation: 0, maximumDataPreviewCount: 0)
        for (offset, component) in self.path.prefix(count).enumerated() {
            switch component {
            case .key(let key):
                if offset > 0 { text.appendASCII(".") }
                text.appendKey(key)
            case .index(let index):
                text.appendASCII("[\(index)]")
            }
        }
        return String(decoding: text.bytes, as: UTF8.self)
    }
}
