// Prints the sections of api/openapi.yaml made from the daemon's own lists: the event schemas from the
// catalogue of events (`EventType`), the enums their fields name, and `Problem.code` from `ProblemCode`. Each
// section is framed by `# BEGIN GENERATED <name>` and `# END GENERATED <name>` lines, as the spec holds it;
// `scripts/contract generate` writes them there and `scripts/contract check` fails when they differ.
import Foundation

do {
    let sections = [ProblemCodes.section] + NamedEnums.sections + (try EventSchemas.sections())
    print(sections.map(\.text).joined(), terminator: "")
} catch {
    FileHandle.standardError.write(Data("lifecycle-contract: \(error)\n".utf8))
    exit(1)
}
