// SCAFFOLD: replaced by the CLI implementation.
import ArgumentParser

@main
struct Tool: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "karchive")
}
