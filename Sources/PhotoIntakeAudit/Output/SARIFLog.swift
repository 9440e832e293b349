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
    /// §3.27.22: the functions on the way to the finding, each with an `id` the message can cite.
    var relatedLocations: [Location]? = nil
    /// §3.27.18, §3.36: the same path as one thread flow, outermost call first.
    var codeFlows: [CodeFlow]? = nil
  }

  struct Location: Encodable, Sendable {
    var id: Int? = nil
    var physicalLocation: PhysicalLocation
    var message: Message? = nil
  }

  struct CodeFlow: Encodable, Sendable {
    var message: Message
    var threadFlows: [ThreadFlow]
  }

  struct ThreadFlow: Encodable, Sendable {
    var locations: [ThreadFlowLocation]
  }

  /// §3.38: `nestingLevel` is the call depth, so viewers indent each callee under its caller.
  struct ThreadFlowLocation: Encodable, Sendable {
    var location: Location
    var nestingLevel: Int
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
