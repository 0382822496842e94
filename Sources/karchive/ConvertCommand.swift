//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import KeyedArchiving
import PropertyLists

/// `karchive convert`: rewrites keyed archives and property lists as binary, XML or JSON.
struct ConvertCommand: ParsableCommand {
    // The `$` names in the help below are user-facing text: the tags of the JSON form, which the
    // JSON writers spell, and `$top` as the manual names it; no format key is read from them.
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert keyed archives and property lists to binary, XML or JSON.",
        discussion: """
            Binary and XML output keep every value, UIDs included, so an archive converts both ways \
            without loss. JSON output of a keyed archive is its resolved JSON form, as 'dump --json' \
            prints it (with --raw, the archive's own property list instead); JSON output of any other \
            property list maps the kinds JSON lacks to one-entry objects: {"$data": "<base64>"}, \
            {"$date": "2022-07-25T16:03:35.615284Z"}, {"$uid": 1}, and {"$real": "nan"} for \
            non-finite reals. Without -o, output goes to standard output.

            Examples:
              karchive convert Examples/cat.archive --to xml -o cat.xml
              karchive convert cat.xml --to binary -o cat.archive
              karchive convert Examples/cat.archive --to json --compact
              karchive convert Examples/cat.archive --to json --raw
              karchive convert Examples/cat.plist --to json --sort-keys
            """
    )

    /// The formats `convert` writes.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case binary
        case xml
        case json
    }

    /// The layout of JSON output.
    enum JSONStyle: String, EnumerableFlag {
        case pretty
        case compact

        static func help(for value: JSONStyle) -> ArgumentHelp? {
            switch value {
            case .pretty: return "Indent JSON output (the default)."
            case .compact: return "Write JSON output on one line."
            }
        }
    }

    @OptionGroup var input: InputOptions

    @OptionGroup(title: "Limits") var limits: LimitsOptions

    @Option(help: ArgumentHelp("The format to write.", valueName: "format"))
    var to: Format

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file")
    )
    var output: String?

    @Flag var jsonStyle: JSONStyle?

    @Flag(help: "Sort JSON object keys by code point instead of keeping their stored order.")
    var sortKeys = false

    @Flag(help: "With --to json, write a keyed archive's own property list instead of resolving it.")
    var raw = false

    func validate() throws {
        if self.output != nil, self.input.files.count > 1 {
            throw ValidationError("--output needs exactly one input file, but \(self.input.files.count) were given.")
        }
        if self.to != .json, self.jsonStyle != nil || self.sortKeys || self.raw {
            throw ValidationError("--pretty, --compact, --sort-keys and --raw apply only to --to json.")
        }
    }

    func run() throws {
        let console = Console.current
        let limits = self.limits.limits
        if self.to == .json {
            // Parsed first, so the input's bytes are released before the value is resolved.
            try self.input.forEachPropertyList(limits: limits) { parsed in
                if let output = self.output, output != "-" {
                    try FileIO.withNewFile(atPath: output) { sink in try self.writeJSON(parsed.value, to: sink) }
                } else {
                    try self.writeJSON(parsed.value) { chunk in try console.output(chunk) }
                }
            }
            return
        }
        try self.input.forEachInput(limits: limits) { _, bytes in
            if let output = self.output, output != "-" {
                try FileIO.withNewFile(atPath: output) { sink in try self.convert(bytes, limits: limits, to: sink) }
            } else {
                try self.convert(bytes, limits: limits) { chunk in try console.output(chunk) }
            }
        }
    }

    /// Converts one input and writes it to `sink`.
    ///
    /// A binary input converted to binary or XML streams straight from its objects, without a tree,
    /// so a large archive needs little more memory than its own bytes; every other conversion
    /// parses the input first. Binary and XML output are written in chunks; JSON is rendered and
    /// then written. Invalid input fails before anything is written.
    func convert(_ bytes: [UInt8], limits: PropertyListLimits, to sink: ([UInt8]) throws -> Void) throws {
        if self.to != .json, bytes.starts(with: Array("bplist00".utf8)) {
            let reader = try BinaryPropertyListReader(bytes: bytes, limits: limits)
            switch self.to {
            case .binary: try reader.writeBinary(to: sink)
            case .xml, .json: try reader.writeXML(to: sink)
            }
            return
        }
        let value = try PropertyListValue.parse(bytes, limits: limits).value
        switch self.to {
        case .binary:
            try BinaryPropertyListWriter().write(value, to: sink)
        case .xml:
            try XMLPropertyListWriter().write(value, to: sink)
        case .json:
            try self.writeJSON(value, to: sink)
        }
    }

    /// The JSON layout the flags ask for.
    var jsonFormatting: PropertyListJSONWriter.OutputFormatting {
        var formatting: PropertyListJSONWriter.OutputFormatting = []
        if self.jsonStyle != .compact { formatting.insert(.prettyPrinted) }
        if self.sortKeys { formatting.insert(.sortedKeys) }
        return formatting
    }

    /// Writes one property list as JSON, in chunks, ending with a newline.
    func writeJSON(_ value: PropertyListValue, to sink: ([UInt8]) throws -> Void) throws {
        guard !self.raw else {
            try sink(try self.render(value))
            return
        }
        try ArchivedValueJSONWriter(outputFormatting: self.jsonFormatting, limits: self.limits.limits)
            .write(propertyList: value, to: sink)
        try sink([UInt8(ascii: "\n")])
    }

    /// The bytes written for one property list. JSON ends with a newline; the property list formats
    /// are written exactly as the library produces them.
    /// - Throws: ``KeyedArchiveError`` if JSON output of a keyed archive cannot resolve it.
    func render(_ value: PropertyListValue) throws(KeyedArchiveError) -> [UInt8] {
        switch self.to {
        case .binary:
            return BinaryPropertyListWriter().write(value)
        case .xml:
            return XMLPropertyListWriter().write(value)
        case .json:
            let formatting = self.jsonFormatting
            var json: [UInt8]
            if self.raw {
                json = PropertyListJSONWriter(outputFormatting: formatting).write(value)
            } else {
                json = try ArchivedValueJSONWriter(outputFormatting: formatting, limits: self.limits.limits)
                    .write(propertyList: value)
            }
            json.append(UInt8(ascii: "\n"))
            return json
        }
    }
}
