import AVTAnalysis
import AVTDelivery
import AVTKPI
import AVTOutput
import AVTTimeline
import ArgumentParser

// The library's option values, spelled on the command line as their raw values.
extension HubKind: ExpressibleByArgument {}
extension TimelineFormat: ExpressibleByArgument {}
extension OutputFormat: ExpressibleByArgument {}
extension InfluxLineEncoder.Precision: ExpressibleByArgument {}
extension DeliveryPolicy.GzipPolicy: ExpressibleByArgument {}
extension GraphiteEncoder.GaugeAggregation: ExpressibleByArgument {}
extension KPIDefinitions: ExpressibleByArgument {}
extension CheckReport.Format: ExpressibleByArgument {}
extension PreCallProfile: ExpressibleByArgument {}
extension PreCallRequirement: ExpressibleByArgument {}
