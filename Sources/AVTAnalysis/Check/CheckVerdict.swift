/// What one checked timeline came to, as `check` tags it.
public enum CheckVerdict: String, Sendable, Equatable {
    /// Its output equals its golden file (`PASS`).
    case passed
    /// Its output differs, or (unless missing files are allowed) it has no golden file or a
    /// golden file has no timeline (`FAIL`).
    case failed
    /// The timeline or its golden file could not be read or replayed (`ERROR`).
    case error
    /// A timeline without a golden file, when missing files are allowed (`SKIP`).
    case skipped
    /// A golden file without its timeline, when missing files are allowed (`ORPHAN`).
    case orphaned
}
