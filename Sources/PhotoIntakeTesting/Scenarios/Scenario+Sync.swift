import Foundation
import PhotoIntake

extension ScenarioContext {
  /// Three devices on one iCloud account import, remove and re-order while the iPad is offline and the Mac's
  /// iCloud storage is full; when both recover, every device holds the same photos in the same order.
  func sync() async throws -> (ScenarioValue, Bool) {
    let cloud = SimulatedCloudKit(clock: clock, changesPerFetch: 3)
    let names = ["iPhone", "iPad", "Mac"]
    var devices: [String: SimulatedSyncDevice] = [:]
    for name in names {
      let device = SimulatedSyncDevice(name: name.lowercased(), cloud: cloud, folder: "\(directory)/\(name)")
      // The device's name in the container is its lower-case name: sign that one in.
      cloud.signIn(name.lowercased(), account: "user")
      try await device.launch()
      devices[name] = device
    }
    let phone = devices["iPhone"]!
    let pad = devices["iPad"]!
    let mac = devices["Mac"]!
    var labels = BatchLabels()

    let first = (1...3).map { Fixtures.jpeg(seed: "IMG_000\($0)") }
    await phone.importPhotos(first, names: (1...3).map { "IMG_000\($0).JPG" })
    log("iPhone", "imports IMG_0001, IMG_0002, IMG_0003")
    await syncAndLog(phone, "iPhone", cloud: cloud, labels: &labels)
    await syncAndLog(pad, "iPad", cloud: cloud, labels: &labels)
    await syncAndLog(mac, "Mac", cloud: cloud, labels: &labels)

    cloud.setOnline("ipad", false)
    log("iPad", "goes offline")
    let batch = try await phone.library!.all(order: .batch).first!.batch
    try await move(pad, "IMG_0003.JPG", toIndex: 0, in: batch)
    log("iPad", "moves IMG_0003 to the front")
    await syncAndLog(pad, "iPad", cloud: cloud, labels: &labels)

    cloud.setQuota(bytes: cloud.usedBytes("user"), for: "user")
    log("iCloud", "the account's storage is full")
    let macs = [Fixtures.jpeg(seed: "DSC_0101"), Fixtures.jpeg(seed: "DSC_0102")]
    await mac.importPhotos(macs, names: ["DSC_0101.JPG", "DSC_0102.JPG"])
    log("Mac", "imports DSC_0101, DSC_0102")
    await syncAndLog(mac, "Mac", cloud: cloud, labels: &labels)

    try await phone.remove(sha256: SHA256Digest.of(first[1]).hex)
    log("iPhone", "removes IMG_0002")
    try await move(phone, "IMG_0001.JPG", toIndex: 1, in: batch)
    log("iPhone", "moves IMG_0001 to the end")
    await syncAndLog(phone, "iPhone", cloud: cloud, labels: &labels)
    await syncAndLog(mac, "Mac", cloud: cloud, labels: &labels)

    cloud.setOnline("ipad", true)
    log("iPad", "is back online")
    await syncAndLog(pad, "iPad", cloud: cloud, labels: &labels)

    cloud.setQuota(bytes: nil, for: "user")
    log("iCloud", "the user frees storage")
    await mac.sync?.resumeUploads()
    await syncAndLog(mac, "Mac", cloud: cloud, labels: &labels)
    for name in names { await syncAndLog(devices[name]!, name, cloud: cloud, labels: &labels) }

    // The outcome: what each device holds, as labels and names.
    var holdings: [ScenarioValue.Field] = []
    var descriptions: Set<String> = []
    var allVerify = true
    for name in names {
      let device = devices[name]!
      let text = try await describe(device, labels: &labels)
      descriptions.insert(text.joined(separator: "; "))
      let verified = (try? await device.library?.verify().isClean) ?? false
      allVerify = allVerify && verified
      holdings.append(ScenarioValue.Field(name, .string(text.joined(separator: "; "))))
    }
    let same = descriptions.count == 1
    let expected = "batch 1: IMG_0003.JPG, IMG_0001.JPG; batch 2: DSC_0101.JPG, DSC_0102.JPG"
    let outcome = ScenarioValue.fields([
      "photoIntake": .fields([
        "devices": .object(holdings),
        "sameEverywhere": .bool(same),
        "everyObjectVerifies": .bool(allVerify),
        "photosInICloud": .int(cloud.assetsWithBytes("user").count),
      ])
    ])
    for device in devices.values { await device.kill() }
    return (outcome, same && allVerify && descriptions.first == expected)
  }

  /// Syncs a device and logs what it sent, what changed there, and the state it is in.
  private func syncAndLog(
    _ device: SimulatedSyncDevice, _ name: String, cloud: SimulatedCloudKit, labels: inout BatchLabels
  ) async {
    let before = (try? await describe(device, labels: &labels)) ?? []
    let waiting = await device.status().map { $0.pendingUploads + $0.pendingRemovals } ?? 0
    let photos = cloud.assetsWithBytes("user").count
    await device.sync()
    let after = (try? await describe(device, labels: &labels)) ?? []
    let status = await device.status()
    let left = status.map { $0.pendingUploads + $0.pendingRemovals } ?? 0
    var parts: [String] = []
    let uploaded = cloud.assetsWithBytes("user").count - photos
    if uploaded > 0 { parts.append("uploads \(Self.count(uploaded, "photo"))") }
    if waiting > left && uploaded <= 0 { parts.append("sends \(Self.count(waiting - left, "change"))") }
    if after != before {
      parts.append("now holds " + (after.isEmpty ? "nothing" : after.joined(separator: "; ")))
    }
    switch status?.condition {
    case .offline?:
      parts.append("offline, \(Self.count(left, "change")) kept here")
    case .quotaExceeded?:
      parts.append("iCloud full, uploads stopped, \(Self.count(left, "change")) kept here")
    case .idle?, nil:
      if parts.isEmpty { parts.append("up to date") }
    case let other?:
      parts.append("\(other)")
    }
    log(name, "syncs: " + parts.joined(separator: "; "))
  }

  private static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  /// Moves the photo named `name` to `index` in a batch of a device.
  private func move(_ device: SimulatedSyncDevice, _ name: String, toIndex index: Int, in batch: BatchID)
    async throws
  {
    guard let library = await device.library else { return }
    var members = try await library.all(order: .batch).filter { $0.batch == batch }
    guard let from = members.firstIndex(where: { $0.name == name }) else { return }
    let moved = members.remove(at: from)
    members.insert(moved, at: min(index, members.count))
    try await device.reorder(batch: batch, to: members.map(\.sha256.hex))
  }

  /// A device's batches, in a stable order, as "batch N: name, name".
  private func describe(_ device: SimulatedSyncDevice, labels: inout BatchLabels) async throws -> [String] {
    guard let library = await device.library else { return [] }
    var batches: [String: [String]] = [:]
    for asset in try await library.all(order: .batch) {
      batches[labels.label(asset.batch), default: []].append(asset.name ?? asset.sha256.hex)
    }
    return batches.sorted { $0.key < $1.key }.map { "\($0.key): " + $0.value.joined(separator: ", ") }
  }
}

/// Names batches "batch 1", "batch 2"… in the order the scenario first meets them (their ids are random).
struct BatchLabels {
  private var known: [BatchID: String] = [:]

  mutating func label(_ id: BatchID) -> String {
    if let label = known[id] { return label }
    let label = "batch \(known.count + 1)"
    known[id] = label
    return label
  }
}
