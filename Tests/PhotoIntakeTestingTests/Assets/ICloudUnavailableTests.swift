import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

/// The two iCloud failures a user acts on differently: the network is missing (connect, or allow the download)
/// or iCloud itself refuses (sign in again, wait). Library assets through `AssetImport`, as on a phone.
@Suite(.timeLimit(.minutes(1)))
struct ICloudUnavailableTests {
  let directory = TemporaryDirectory(inMemory: true)

  func device() -> SimulatedPhotoLibrary {
    let device = directory.device()
    device.user.setAccessInSettings(.full)
    return device
  }

  @Test func offlineWithNetworkAllowedAndNetworkNotAllowedAreNetworkRequired() async throws {
    let device = device()
    let photo = device.add(.photo(), storage: .iCloudOnly)
    let library = try await directory.library()
    let allowed = AssetImport(importer: serialImporter(library), provider: device)
    let notAllowed = AssetImport(
      importer: serialImporter(library), provider: device, networkAccessAllowed: false)
    device.user.setOnline(false)
    #expect(await allowed.run([photo]).entries[0].error == .networkRequired)
    device.user.setOnline(true)
    // Online, but the app did not allow the download: PhotoKit's 3164, the same action.
    #expect(await notAllowed.run([photo]).entries[0].error == .networkRequired)
    #expect(try await library.count() == 0)
    #expect(directory.stagingFiles(library).isEmpty)
    #expect(await allowed.run([photo]).failures.isEmpty)
    await library.close()
  }

  @Test(arguments: [SimulatedPhotoLibrary.ICloudStatus.notAuthenticated, .serviceUnavailable])
  func iCloudRefusingIsItsOwnErrorAndARetrySucceedsOnceItIsBack(_ status: SimulatedPhotoLibrary.ICloudStatus)
    async throws
  {
    let device = device()
    let photos = [
      device.add(.photo(), storage: .local), device.add(.photo(), storage: .iCloudOnly),
      device.add(.livePhoto(), storage: .iCloudOnly),
    ]
    device.user.setICloud(status)
    let library = try await directory.library()
    let assets = AssetImport(importer: serialImporter(library), provider: device)
    let refused = await assets.run(photos)
    // The photo on the device needs no iCloud; the others fail, typed, and nothing of them is kept.
    #expect(refused.entries.map { $0.error?.code } == [nil, "icloud-unavailable", "icloud-unavailable"])
    #expect(refused.entries[1].error?.description.contains("signed in to iCloud") == true)
    #expect(try await library.count() == 1)
    #expect(directory.stagingFiles(library).isEmpty)
    #expect(device.inspect(photos[1])?.isLocallyAvailable == false)

    device.user.setICloud(.available)
    let retry = await assets.run(photos)
    #expect(retry.failures.isEmpty)
    #expect(retry.entries[2].pairedVideo != nil)
    #expect(retry.summary?.duplicateCount == 1)
    #expect(try await library.count() == 4)
    await library.close()
  }

  @Test func offlineWinsOverASignedOutAccount() async throws {
    let device = device()
    let photo = device.add(.photo(), storage: .iCloudOnly)
    device.user.setICloud(.notAuthenticated)
    device.user.setOnline(false)
    let library = try await directory.library()
    let assets = AssetImport(importer: serialImporter(library), provider: device)
    #expect(await assets.run([photo]).entries[0].error == .networkRequired)
    // Connected: now the account is what stands in the way.
    device.user.setOnline(true)
    #expect(await assets.run([photo]).entries[0].error == .iCloudUnavailable)
    await library.close()
  }

  @Test func iCloudFailingMidDownloadKeepsNothingAndTheRetryDownloadsAgain() async throws {
    let device = device()
    let photo = device.add(.photo(), storage: .iCloudOnly)
    device.failDownloads(.iCloudUnavailable, of: photo, atFraction: 0.5)
    let library = try await directory.library()
    let fractions = Protected<[Double]>([])
    let assets = AssetImport(importer: serialImporter(library), provider: device)
    let failed = await assets.run([photo]) { _, fraction in fractions.withLock { $0.append(fraction) } }
    #expect(failed.entries[0].error == .iCloudUnavailable)
    // The download got halfway before iCloud refused; the failed asset still ends at 1 (done, failed).
    #expect(fractions.withLock { $0 }.contains { $0 > 0 && $0 < 1 })
    #expect(directory.stagingFiles(library).isEmpty)
    let retry = await assets.run([photo])
    #expect(retry.failures.isEmpty)
    #expect(try await library.count() == 1)
    await library.close()
  }
}
