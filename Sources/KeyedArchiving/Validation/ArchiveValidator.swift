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

/// Checks a keyed archive strictly and reports every problem it finds, instead of stopping at the
/// first as reading does.
///
/// The checks, each reported with its ``KeyedArchiveError/Code``:
///
/// - The envelope: a dictionary with exactly `$archiver` (`NSKeyedArchiver`), `$version` (100000),
///   `$top` (a dictionary of UIDs, and of the scalars Foundation stores inline there) and
///   `$objects` (an array starting with `$null`).
/// - References: every UID in `$top` and anywhere in `$objects` is an index of `$objects`, and only
///   `$class` refers to a class dictionary.
/// - Classes: every object dictionary has a `$class` UID that leads to a class dictionary, and every
///   class dictionary has a string `$classname` and a `$classes` array of strings.
/// - Shapes: `$objects` holds strings, numbers, data and dictionaries, not bare UIDs or arrays;
///   object dictionaries hold no inline dictionaries; `NS.keys` and `NS.objects` have equal lengths.
/// - Cycles: no object reaches itself, unless ``allowsCycles`` is on (Apple's archiver writes
///   cycles when objects refer to each other).
/// - Limits: objects nest no deeper than ``limits``' `PropertyListLimits.maximumDepth`, and the
///   resolved tree stays within its decoded-size budget.
///
/// When those pass, the archive is resolved as ``ArchivedValue/init(archive:limits:allowedClassNames:)`` resolves it,
/// and a failure there (an `NSURL` without `NS.relative`, say) is a finding too.
///
/// ```swift
/// let findings = ArchiveValidator(allowsCycles: true).validate(bytes: bytes)
/// if findings.isEmpty { print("valid") }
/// ```
public struct ArchiveValidator: Sendable {
    /// Whether an object may reach itself. Defaults to `false`.
    public var allowsCycles: Bool
    /// Bounds for reading and nesting. Defaults to `PropertyListLimits.default`.
    public var limits: PropertyListLimits
    /// The most findings reported; checking stops once this many are found. Defaults to 1,000.
    public var maximumFindingCount: Int

    /// Creates a validator.
    /// - Parameters:
    ///   - allowsCycles: Whether an object may reach itself.
    ///   - limits: Bounds for reading and nesting.
    ///   - maximumFindingCount: The most findings reported.
    public init(allowsCycles: Bool = false, limits: PropertyListLimits = .default, maximumFindingCount: Int = 1000) {
        self.allowsCycles = allowsCycles
        self.limits = limits
        self.maximumFindingCount = maximumFindingCount
    }

    /// Checks the archive in a binary or XML property list.
    /// - Parameter bytes: The file.
    /// - Returns: The problems found, in the order of the checks; empty when the archive is valid. Bytes
    ///   that are not a property list give one ``KeyedArchiveError/Code/malformedPropertyList`` finding.
    public func validate(bytes: some DataProtocol) -> [ArchiveFinding] {
        do {
            return self.validate(propertyList: try PropertyListValue(parsing: bytes, limits: self.limits))
        } catch {
            return [ArchiveFinding(.malformedPropertyList, message: error.description)]
        }
    }

    /// Checks a property list that should be a keyed archive, envelope first.
    /// - Parameter propertyList: The property list.
    /// - Returns: The problems found; empty when the archive is valid.
    public func validate(propertyList: PropertyListValue) -> [ArchiveFinding] {
        var findings = FindingList(limit: self.maximumFindingCount)
        let list = ArchiveTreeList()
        guard let root = findings.check({ () throws(KeyedArchiveError) in try Graph.rootDictionary(propertyList) })
        else { return findings.items }
        guard list.hasKey(ArchiveFormatKey.archiver, in: root) || list.hasKey(ArchiveFormatKey.objects, in: root) else {
            findings.add(.notAnArchive, "a plain property list: no $archiver or $objects key")
            return findings.items
        }
        findings.check { () throws(KeyedArchiveError) in try Graph.checkArchiver(in: root, list) }
        findings.check { () throws(KeyedArchiveError) in try Graph.checkVersion(in: root, list) }
        let envelopeKeys = Graph.envelopeKeys.map(\.string)
        for key in root.keys where !envelopeKeys.contains(key) {
            findings.add(.notAnArchive, "unexpected top-level key \(PropertyListValue.string(key).briefDescription)")
        }
        var top: [KeyedArchive.TopEntry] = []
        if let entries = findings.check({ () throws(KeyedArchiveError) in try Graph.topTable(in: root, list) }) {
            for (position, (key, value)) in entries.enumerated() {
                let checked: Void? = findings.check { () throws(KeyedArchiveError) in
                    try Graph.checkTopValue(value, at: position, of: entries, list)
                }
                if checked != nil { top.append(KeyedArchive.TopEntry(key: key, value: value)) }
            }
        }
        guard let objects = findings.check({ () throws(KeyedArchiveError) in try Graph.objectTable(in: root, list) })
        else { return findings.items }
        findings.check { () throws(KeyedArchiveError) in try Graph.checkNull(in: objects, list) }
        var checker = GraphChecker(
            archive: KeyedArchive(top: top, objects: objects),
            validator: self,
            findings: findings
        )
        return checker.run()
    }

    /// Checks an archive's object graph; the envelope is valid by construction.
    /// - Parameter archive: The archive.
    /// - Returns: The problems found; empty when the archive is valid.
    public func validate(_ archive: KeyedArchive) -> [ArchiveFinding] {
        var checker = GraphChecker(
            archive: archive,
            validator: self,
            findings: FindingList(limit: self.maximumFindingCount)
        )
        return checker.run()
    }
}

/// Findings collected up to a limit.
private struct FindingList {
    let limit: Int
    private(set) var items: [ArchiveFinding] = []

    init(limit: Int) {
        self.limit = limit
    }

    var isFull: Bool { self.items.count >= self.limit }

    mutating func add(_ error: KeyedArchiveError) {
        self.add(error.code, uid: error.uid, error.reason)
    }

    mutating func add(_ code: KeyedArchiveError.Code, uid: UID? = nil, _ message: String) {
        guard !self.isFull else { return }
        self.items.append(ArchiveFinding(code, uid: uid, message: message))
    }

    /// Applies a rule of the graph reader, adding the error it throws as a finding.
    /// - Returns: What the rule returns, or `nil` if it throws.
    @discardableResult
    mutating func check<Result>(_ rule: () throws(KeyedArchiveError) -> Result) -> Result? {
        do {
            return try rule()
        } catch {
            self.add(error)
            return nil
        }
    }
}

/// The graph reader's rules over a tree, which the validator applies.
private typealias Graph = ArchiveGraphReader<ArchiveTreeList>

/// The graph checks of one ``ArchiveValidator`` call.
private struct GraphChecker {
    let archive: KeyedArchive
    let graph: Graph
    let validator: ArchiveValidator
    var findings: FindingList
    /// Which entries of `$objects` are class dictionaries.
    private var isClass: [Bool]

    init(archive: KeyedArchive, validator: ArchiveValidator, findings: FindingList) {
        self.archive = archive
        self.graph = archive.graph
        self.validator = validator
        self.findings = findings
        self.isClass = archive.objects.map { object in
            guard case .dictionary(let dictionary) = object else { return false }
            return Graph.isClassDictionary(dictionary, ArchiveTreeList())
        }
    }

    private var count: Int { self.archive.objects.count }

    mutating func run() -> [ArchiveFinding] {
        for entry in self.archive.top {
            if let uid = entry.uid {
                self.checkReference(uid, at: "$top[\(PropertyListValue.string(entry.key).briefDescription)]", in: nil)
            } else if !Graph.isTopValue(entry.value) {
                self.findings.add(Graph.invalidTopValue(entry.value, key: entry.key))
            }
        }
        for (index, object) in self.archive.objects.enumerated() where index > 0 {
            guard !self.findings.isFull else { break }
            self.checkObject(object, uid: UID(UInt64(index)))
        }
        self.checkCyclesAndDepth()
        if self.findings.items.isEmpty {
            do {
                _ = try ArchivedValue(archive: self.archive, limits: self.validator.limits)
            } catch {
                self.findings.add(error.code, uid: error.uid, error.reason)
            }
        }
        return self.findings.items
    }

    private mutating func checkObject(_ object: PropertyListValue, uid: UID) {
        switch object {
        case .uid:
            self.findings.add(.unexpectedObject, uid: uid, "a bare UID where an object belongs")
        case .array:
            self.findings.add(.unexpectedObject, uid: uid, "an array where an object belongs")
        case .dictionary(let dictionary):
            if let index = uid.index(below: self.count), self.isClass[index] {
                self.checkClassDictionary(dictionary, uid: uid)
            } else {
                self.checkObjectDictionary(dictionary, uid: uid)
            }
        default:
            break
        }
    }

    private mutating func checkClassDictionary(_ dictionary: PropertyListDictionary, uid: UID) {
        let list = self.graph.list
        self.findings.check { () throws(KeyedArchiveError) in _ = try Graph.className(in: dictionary, uid: uid, list) }
        self.findings.check { () throws(KeyedArchiveError) in
            _ = try Graph.classChain(in: dictionary, strict: true, uid: uid, list)
        }
        self.findings.check { () throws(KeyedArchiveError) in
            _ = try Graph.classHints(in: dictionary, strict: true, uid: uid, list)
        }
    }

    private mutating func checkObjectDictionary(_ dictionary: PropertyListDictionary, uid: UID) {
        let graph = self.graph
        if let classUID = self.findings.check({ () throws(KeyedArchiveError) in
            try graph.classUID(of: dictionary, uid: uid)
        }) {
            if let classIndex = classUID.index(below: self.count) {
                if !self.isClass[classIndex] {
                    let error = Graph.notAClassDictionary(classUID)
                    self.findings.add(error.code, uid: uid, error.reason)
                }
            } else {
                self.findings.add(
                    .invalidReference,
                    uid: uid,
                    "$class refers to UID \(classUID.rawValue), \(self.beyond)"
                )
            }
        }
        if case .array(let keys)? = dictionary[ArchiveFormatKey.nsKeys.string],
            case .array(let values)? = dictionary[ArchiveFormatKey.nsObjects.string],
            keys.count != values.count
        {
            self.findings.add(
                .unexpectedObject,
                uid: uid,
                "NS.keys has \(keys.count) element\(keys.count == 1 ? "" : "s") but NS.objects has \(values.count)"
            )
        }
        for (key, value) in dictionary where key != ArchiveFormatKey.`class`.string {
            self.checkValue(value, at: key, in: uid)
        }
    }

    /// Checks the references in a value stored in an object, and that it holds no dictionary.
    private mutating func checkValue(_ value: PropertyListValue, at location: String, in uid: UID) {
        switch value {
        case .uid(let reference):
            self.checkReference(reference, at: location, in: uid)
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                self.checkValue(element, at: "\(location)[\(index)]", in: uid)
            }
        case .dictionary:
            self.findings.add(.unexpectedObject, uid: uid, "\(location) is an inline dictionary")
        default:
            break
        }
    }

    private mutating func checkReference(_ reference: UID, at location: String, in uid: UID?) {
        guard let index = reference.index(below: self.count) else {
            self.findings.add(
                .invalidReference,
                uid: uid ?? reference,
                "\(location) refers to UID \(reference.rawValue), \(self.beyond)"
            )
            return
        }
        if self.isClass[index] {
            self.findings.add(
                .unexpectedObject,
                uid: uid ?? reference,
                "\(location) refers to UID \(reference.rawValue), a class dictionary"
            )
        }
    }

    private var beyond: String {
        "beyond the \(self.count) entries of $objects"
    }

    /// The objects an object refers to, other than its class; references already reported are skipped.
    private func children(of index: Int) -> [Int] {
        var result: [Int] = []
        func collect(_ value: PropertyListValue) {
            switch value {
            case .uid(let uid):
                if let index = uid.index(below: self.count), index > 0, !self.isClass[index] {
                    result.append(index)
                }
            case .array(let elements):
                for element in elements { collect(element) }
            default:
                break
            }
        }
        switch self.archive.objects[index] {
        case .dictionary(let dictionary):
            for (key, value) in dictionary where key != ArchiveFormatKey.`class`.string { collect(value) }
        case let other:
            collect(other)
        }
        return result
    }

    /// Walks the graph from `$top` without recursion, reporting cycles and nesting past the depth limit.
    private mutating func checkCyclesAndDepth() {
        enum Color { case unvisited, active, done }
        var color = [Color](repeating: .unvisited, count: self.count)
        var height = [Int](repeating: 0, count: self.count)
        var stackPosition = [Int](repeating: -1, count: self.count)
        var stack: [(node: Int, children: [Int], next: Int, height: Int)] = []
        let maximumDepth = self.validator.limits.maximumDepth
        var reportedDepth = false

        for entry in self.archive.top {
            let key = entry.key
            guard let root = entry.uid?.index(below: self.count), root > 0, color[root] == .unvisited else {
                continue
            }
            color[root] = .active
            stackPosition[root] = 0
            stack.append((root, self.children(of: root), 0, 0))
            while let frame = stack.last {
                if frame.next < frame.children.count {
                    stack[stack.count - 1].next += 1
                    let child = frame.children[frame.next]
                    switch color[child] {
                    case .unvisited:
                        color[child] = .active
                        stackPosition[child] = stack.count
                        stack.append((child, self.children(of: child), 0, 0))
                    case .active:
                        if !self.validator.allowsCycles {
                            let loop = stack[stackPosition[child]...].map { "UID \($0.node)" } + ["UID \(child)"]
                            self.findings.add(
                                .cyclicReference,
                                uid: UID(UInt64(child)),
                                "an object reaches itself: " + loop.joined(separator: " → ")
                            )
                        }
                    case .done:
                        stack[stack.count - 1].height = max(frame.height, height[child])
                    }
                    continue
                }
                stack.removeLast()
                color[frame.node] = .done
                height[frame.node] = frame.height + 1
                if !stack.isEmpty {
                    stack[stack.count - 1].height = max(stack[stack.count - 1].height, height[frame.node])
                }
                if self.findings.isFull { return }
            }
            if height[root] > maximumDepth, !reportedDepth {
                reportedDepth = true
                self.findings.add(
                    .depthLimitExceeded,
                    uid: UID(UInt64(root)),
                    "objects under $top[\(PropertyListValue.string(key).briefDescription)] nest \(height[root]) deep, "
                        + "beyond the limit of \(maximumDepth)"
                )
            }
        }
    }
}
