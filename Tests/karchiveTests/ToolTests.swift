// SCAFFOLD: replaced by the CLI tests.
import Testing
