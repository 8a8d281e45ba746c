/// How `run` writes records to its stream (standard output or a file).
package enum OutputFormat: String, Sendable, CaseIterable {
    case jsonl, csv, table, influx, graphite, mediastream, openmetrics
}
