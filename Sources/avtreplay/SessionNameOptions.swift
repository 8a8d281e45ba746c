import ArgumentParser

/// The session name of a single input, which a folder or a shard would give by its path.
struct SessionNameOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Name the one session given (a file or - for standard input) NAME in every record's \"session\", as a "
                + "folder names its sessions by their paths, so a scheduler's single-file batches are labelled too.",
            valueName: "NAME"))
    var session: String?

    func validate() throws {
        if let session, session.isEmpty || session.contains(where: { $0.isNewline }) {
            throw ValidationError("--session expects a name on one line, not empty.")
        }
    }
}
