import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

/// A resolver that records its batches, over a fixed table.
final class RecordingResolver: CloudIdentifierResolving {
  let batches = Protected<[[String]]>([])
  let table: [String: IdentifierLookup<CloudIdentifier>]

  init(_ table: [String: IdentifierLookup<CloudIdentifier>]) { self.table = table }

  func cloudIdentifierMappings(forLocalIdentifiers identifiers: [String]) async
    -> [String: IdentifierLookup<CloudIdentifier>]
  {
    batches.withLock { $0.append(identifiers) }
    return table.filter { identifiers.contains($0.key) }
  }

  func localIdentifierMappings(for identifiers: [CloudIdentifier]) async -> [CloudIdentifier:
    IdentifierLookup<String>]
  {
    [:]
  }
}

struct CloudIdentifierTests {
  @Test func mapsInBatchesOfDistinctIdentifiersAnsweringInOrder() async {
    let resolver = RecordingResolver([
      "a": .found(CloudIdentifier(rawValue: "A")), "b": .notFound,
      "c": .multipleFound(candidates: ["c1", "c2"]),
    ])
    let mapper = CloudIdentifierMapper(resolver: resolver, batchSize: 2)
    let answers = await mapper.cloudIdentifiers(forLocalIdentifiers: ["a", "b", "a", "c", "d"])
    #expect(
      answers == [
        .found(CloudIdentifier(rawValue: "A")), .notFound, .found(CloudIdentifier(rawValue: "A")),
        .multipleFound(candidates: ["c1", "c2"]), .failed(reason: "the library gave no answer for it"),
      ])
    #expect(resolver.batches.current == [["a", "b"], ["c", "d"]])
  }

  @Test func theSameBatchingWorksAtScale() async {
    let identifiers = (0..<1_000).map { "local-\($0 % 700)" }
    let table = Dictionary(
      uniqueKeysWithValues: (0..<700).map {
        ("local-\($0)", IdentifierLookup.found(CloudIdentifier(rawValue: "cloud-\($0)")))
      })
    let resolver = RecordingResolver(table)
    let answers = await CloudIdentifierMapper(resolver: resolver, batchSize: 200).cloudIdentifiers(
      forLocalIdentifiers: identifiers)
    #expect(resolver.batches.current.map(\.count) == [200, 200, 200, 100])
    #expect(answers[999] == .found(CloudIdentifier(rawValue: "cloud-299")))
  }

  @Test func devicesShareCloudIdentifiersButNotLocalOnes() async throws {
    let account = SimulatedICloud()
    let directory = TemporaryDirectory(inMemory: true)
    let phone = directory.device(number: 1, account: account)
    let pad = directory.device(number: 2, account: account)
    let photo = phone.add(.photo())
    let pending = phone.add(.photo(), uploaded: false)
    account.sync()

    let phoneLookups = await CloudIdentifierMapper(resolver: phone).cloudIdentifiers(forLocalIdentifiers: [
      photo, pending, "nope",
    ])
    #expect(phoneLookups[1] == .notFound)
    #expect(phoneLookups[2] == .notFound)
    let cloud = try #require(phoneLookups[0].value)

    let padLookups = await CloudIdentifierMapper(resolver: pad).localIdentifiers(for: [cloud])
    let onPad = try #require(padLookups[0].value)
    #expect(onPad != photo)
    #expect(pad.inspect(onPad)?.isLocallyAvailable == false)

    account.finishUpload(from: phone, localIdentifier: pending)
    account.sync()
    #expect(pad.allAssets.count == 2)
  }

  @Test func duplicatesAreReportedWithTheirCandidates() async throws {
    let account = SimulatedICloud()
    let directory = TemporaryDirectory(inMemory: true)
    let phone = directory.device(account: account)
    let photo = phone.add(.photo())
    let duplicate = try #require(phone.addDuplicate(of: photo))
    let cloud = try #require(await phone.cloudIdentifierMappings(forLocalIdentifiers: [photo])[photo]?.value)
    let lookup = await CloudIdentifierMapper(resolver: phone).localIdentifiers(for: [cloud])
    #expect(lookup == [.multipleFound(candidates: [photo, duplicate])])
  }

  @Test func syncRecordsCarryCloudIdentifiersAndContentHashes() async throws {
    let account = SimulatedICloud()
    let directory = TemporaryDirectory(inMemory: true)
    let phone = directory.device(account: account)
    let photos = [phone.add(.photo()), phone.add(.photo(), uploaded: false)]
    let results = try SimulatedPicker(device: phone).present(orderedConfiguration(phone)).pick(photos)
    let library = try await directory.library()
    let items = results.map(\.pickedItem)
    let outcome = await SelectionMerge(previous: PhotoSelection(), results: items).run(
      importer: serialImporter(library), results: items
    ) { SimulatedPickerItemSource(results[$0]) }
    let records = await CloudIdentifierMapper(resolver: phone).syncRecords(
      for: outcome.selection, library: library)
    try #require(records.count == 2)
    #expect(records[0].cloudIdentifier != nil)
    #expect(records[1].cloudIdentifier == nil)
    let first = try #require(try await library.asset(outcome.selection.assets[0]))
    #expect(records[0].sha256 == first.sha256)
    await library.close()
  }

  @Test func payloadsRoundTripAsStableJSON() throws {
    let digest = SHA256Digest.of(Array("photo".utf8))
    let payload = PhotoSyncPayload(records: [
      PhotoSyncRecord(cloudIdentifier: CloudIdentifier(rawValue: "X:001:abc"), sha256: digest),
      PhotoSyncRecord(cloudIdentifier: nil, sha256: nil),
    ])
    let data = payload.encoded()
    let text = String(decoding: data, as: UTF8.self)
    #expect(
      text == #"{"records":[{"cloudIdentifier":"X:001:abc","sha256":"\#(digest.hex)"},{}],"version":1}"#)
    #expect(try PhotoSyncPayload.decode(data) == payload)
  }

  @Test(arguments: [
    (#"{"version":2,"records":[]}"#, PhotoSyncPayload.Error.unsupportedVersion(2)),
    (#"{"records":[]}"#, .malformed(reason: "no format version")),
  ])
  func payloadsFromTheFutureOrBrokenAreRefused(_ json: String, _ error: PhotoSyncPayload.Error) {
    #expect(throws: error) { try PhotoSyncPayload.decode(Data(json.utf8)) }
  }

  @Test(arguments: [
    ("PHPhotosErrorDomain", 3201, IdentifierLookup<CloudIdentifier>.notFound),
    ("PHPhotosErrorDomain", 3202, .multipleFound(candidates: ["a", "b"])),
    ("PHPhotosErrorDomain", 3311, .failed(reason: "denied (PHPhotosErrorDomain 3311)")),
  ])
  func photoKitLookupErrorsBecomeOutcomes(
    _ domain: String, _ code: Int, _ expected: IdentifierLookup<CloudIdentifier>
  ) {
    #expect(
      IdentifierLookup(failureDomain: domain, code: code, candidates: ["a", "b"], reason: "denied")
        == expected)
  }

  @Test func aBadHashIsMalformed() {
    #expect(throws: PhotoSyncPayload.Error.self) {
      try PhotoSyncPayload.decode(Data(#"{"version":1,"records":[{"sha256":"zz"}]}"#.utf8))
    }
  }
}
