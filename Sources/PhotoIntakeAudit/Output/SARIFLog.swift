/// The subset of the SARIF 2.1.0 object model that `intake audit` writes (OASIS SARIF 2.1.0, §3.13
/// `sarifLog` onwards). Property names are SARIF's.
struct SARIFLog: Encodable, Sendable {
  var schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
  var version = "2.1.0"
  var runs: [Run]

  enum CodingKeys: String, CodingKey {
    case schema = "$schema"
    case version, runs
  }

  struct Run: Encodable, Sendable {
    var tool: Tool
    /// §3.14.14: where `%SRCROOT%`-relative artifact URIs point.
    var originalUriBaseIds: [String: ArtifactLocation]
    /// §3.14.20: our columns count Unicode scalars.
    var columnKind = "unicodeCodePoints"
    var results: [Result]
  }

  struct Tool: Encodable, Sendable {
    var driver: Driver
  }

  struct Driver: Encodable, Sendable {
    var name: String
    var version: String
    var informationUri: String
    var rules: [Rule]
  }

  struct Rule: Encodable, Sendable {
    var id: String
    var name: String
    var shortDescription: Message
    var fullDescription: Message
    var help: Message
    var helpUri: String
    var defaultConfiguration: Configuration
  }

  struct Configuration: Encodable, Sendable {
    var level: String
  }

  struct Message: Encodable, Sendable {
    var text: String
    var markdown: String? = nil
  }

  struct Result: Encodable, Sendable {
    var ruleId: String
    var ruleIndex: Int
    var level: String
    var message: Message
    var locations: [Location]
  }

  struct Location: Encodable, Sendable {
    var physicalLocation: PhysicalLocation
  }

  struct PhysicalLocation: Encodable, Sendable {
    var artifactLocation: ArtifactLocation
    var region: Region
  }

  struct ArtifactLocation: Encodable, Sendable {
    var uri: String
    var uriBaseId: String? = nil
  }

  struct Region: Encodable, Sendable {
    var startLine: Int
    var startColumn: Int
  }
}
