import Foundation
import PhotoIntake
import PhotoIntakeTesting
import Testing

/// The shutter's readiness and the shots in flight, as iOS 17 captures them.
struct PhotoCaptureReadinessTests {
  @Test(arguments: [
    // readiness, enabled, dimmed, spinner (AVCapturePhotoOutput.h's advice for each)
    (PhotoCaptureStateMachine.Readiness.ready, true, false, false),
    (.notReadyMomentarily, false, false, false),
    (.notReadyWaitingForCapture, false, true, false),
    (.notReadyWaitingForProcessing, false, true, true),
    (.sessionNotRunning, false, true, false),
  ])
  func theShutterFollowsTheCoordinator(
    _ readiness: PhotoCaptureStateMachine.Readiness, _ enabled: Bool, _ dimmed: Bool, _ spinner: Bool
  ) {
    var machine = PhotoCaptureStateMachine()
    machine.handle(.readinessChanged(readiness))
    #expect(machine.shutter.isEnabled == enabled)
    #expect(machine.shutter.isDimmed == dimmed)
    #expect(machine.shutter.showsSpinner == spinner)
  }

  @Test func aPressIsTrackedThenCapturedAndASecondPressWaitsForReadiness() {
    var machine = PhotoCaptureStateMachine()
    #expect(machine.handle(.shutterPressed(id: 1)).isEmpty)  // the session is not running
    machine.handle(.readinessChanged(.ready))
    #expect(machine.handle(.shutterPressed(id: 1)) == [.startTracking(id: 1), .capture(id: 1)])
    // Before the coordinator has reported, a second tap must not queue a second shot.
    #expect(!machine.shutter.isEnabled)
    #expect(machine.handle(.shutterPressed(id: 2)).isEmpty)
    machine.handle(.readinessChanged(.ready))
    #expect(machine.handle(.shutterPressed(id: 2)) == [.startTracking(id: 2), .capture(id: 2)])
    #expect(machine.shots.count == 2)
  }

  @Test func aRequestThatNeverReachedTheOutputIsUntracked() {
    var machine = PhotoCaptureStateMachine()
    machine.handle(.readinessChanged(.ready))
    machine.handle(.shutterPressed(id: 4))
    #expect(machine.handle(.requestFailed(id: 4, reason: "stopped")) == [.stopTracking(id: 4)])
    #expect(machine.shots[4] == .failed(reason: "stopped"))
  }

  @Test func theLastCallbackChangesNothingAfterAPhoto() {
    var machine = PhotoCaptureStateMachine()
    machine.handle(.readinessChanged(.ready))
    machine.handle(.shutterPressed(id: 5))
    #expect(machine.handle(.photoDelivered(id: 5)) == [.importPhoto(id: 5)])
    machine.handle(.captureFailed(id: 5, reason: "didFinishCaptureFor"))
    #expect(machine.shots[5] == .importingPhoto)
    machine.handle(.photoStored(id: 5, error: nil))
    #expect(machine.shots[5] == .done)
    machine.removeFinished()
    #expect(machine.shots.isEmpty)
  }
}

/// Deferred delivery end to end: the simulated camera's proxy saved to the simulated Photos as `.photoProxy`,
/// imported into a real library, then replaced by the final photo, or kept when there is none.
@Suite(.timeLimit(.minutes(1)))
struct DeferredCaptureTests {
  let directory = TemporaryDirectory(inMemory: true)

  /// Runs effects against the camera, the device and the intake until nothing is left to do.
  struct Rig {
    var machine = PhotoCaptureStateMachine()
    let camera: SimulatedCamera
    let device: SimulatedPhotoLibrary
    let intake: DeferredPhotoIntake
    var proxies: [String: Asset] = [:]
    var finals: [Int64: Asset] = [:]

    mutating func run(_ event: PhotoCaptureStateMachine.Event) async {
      var queue = [event]
      while !queue.isEmpty {
        let next = queue.removeFirst()
        for effect in machine.handle(next) { queue += await perform(effect) }
      }
    }

    mutating func perform(_ effect: PhotoCaptureStateMachine.Effect) async -> [PhotoCaptureStateMachine.Event]
    {
      switch effect {
      case .startTracking, .stopTracking: return []
      case .capture: return camera.events(after: effect)
      case .importPhoto(let id):
        let result = await intake.importProxy(
          Data(camera.finalPhoto(id).original.bytes), suggestedName: "Capture")
        if case .success(let asset) = result { finals[id] = asset }
        return [.photoStored(id: id, error: result.failureDescription)]
      case .storeProxy(let id):
        // As the Apple adapter does: into Photos first (so Photos can start processing), then the app's library.
        let imported = await intake.importProxy(camera.proxyData(id), suggestedName: "Capture")
        do {
          let identifier = try device.saveDeferredProxy(camera.proxyPhoto(id), final: camera.finalPhoto(id))
          guard case .success(let proxy) = imported else {
            return [.proxyStoreFailed(id: id, reason: imported.failureDescription ?? "", imported: false)]
          }
          proxies[identifier] = proxy
          return [.proxyStored(id: id, localIdentifier: identifier)]
        } catch {
          let saved = (try? imported.get()) != nil
          return [.proxyStoreFailed(id: id, reason: error.description, imported: saved)]
        }
      case .replaceProxy(let identifier):
        guard let proxy = proxies[identifier] else { return [] }
        switch await intake.replace(proxy: proxy, withFinalOf: identifier) {
        case .success: return [.proxyReplaced(localIdentifier: identifier)]
        case .failure(let error):
          return [.processingFailed(localIdentifier: identifier, reason: error.description)]
        }
      }
    }

    /// What the Apple adapter does on a library change: ask each waiting asset whether Photos is done.
    mutating func libraryChanged() async {
      for identifier in machine.awaitingFinal {
        if (try? await intake.status(ofAsset: identifier)) == .finished {
          await run(.processingFinished(localIdentifier: identifier))
        }
      }
    }
  }

  func rig(_ camera: SimulatedCamera = SimulatedCamera(), number: Int = 1) async throws -> (Rig, Library) {
    let device = directory.device(number: number)
    device.user.setAccessInSettings(.full)
    let library = try await directory.library("library-\(number)")
    let intake = DeferredPhotoIntake(importer: serialImporter(library), provider: device)
    var rig = Rig(camera: camera, device: device, intake: intake)
    await rig.run(.readinessChanged(.ready))
    return (rig, library)
  }

  @Test func aProxyIsImportedAtOnceAndReplacedWhenPhotosFinishes() async throws {
    var (rig, library) = try await rig()
    let id = rig.camera.nextSettingsID()
    await rig.run(.shutterPressed(id: id))
    let identifier = try #require(rig.machine.awaitingFinal.first)
    #expect(rig.machine.shutter.isEnabled)  // the next shot need not wait for processing
    // The user has the shot now: the proxy (a JPEG) is in the app's library, and a `.photoProxy` in Photos.
    #expect(try await library.all().map(\.type) == [.jpeg])
    #expect(try await rig.device.assetResources(forAsset: identifier).map(\.kind) == [.photoProxy])

    var changes = rig.device.changes().makeAsyncIterator()
    await rig.libraryChanged()  // nothing is done while Photos processes
    #expect(rig.machine.shots[id] == .awaitingFinal(localIdentifier: identifier))
    rig.device.finishDeferredProcessing(identifier)
    _ = await changes.next()
    await rig.libraryChanged()

    #expect(rig.machine.shots[id] == .done)
    let assets = try await library.all()
    #expect(assets.map(\.type) == [.heic])  // the final photo replaced the proxy
    #expect(assets.first?.size == Int64(rig.camera.finalPhoto(id).original.bytes.count))
    await library.close()
  }

  @Test func aProxyWhoseFinalCannotBeHadIsKept() async throws {
    var (rig, library) = try await rig()
    let id = rig.camera.nextSettingsID()
    await rig.run(.shutterPressed(id: id))
    let identifier = try #require(rig.machine.awaitingFinal.first)
    rig.device.failDeferredProcessing(identifier)
    await rig.libraryChanged()

    guard case .keptProxy = rig.machine.shots[id] else {
      Issue.record("not kept: \(String(describing: rig.machine.shots[id]))")
      return
    }
    #expect(try await library.all().map(\.type) == [.jpeg])  // nothing lost
    await library.close()
  }

  @Test func aProxyPhotosRefusesStaysInTheAppsLibrary() async throws {
    var (rig, library) = try await rig()
    rig.device.user.setAccessInSettings(.none)
    let id = rig.camera.nextSettingsID()
    await rig.run(.shutterPressed(id: id))
    guard case .keptProxy = rig.machine.shots[id] else {
      Issue.record("not kept: \(String(describing: rig.machine.shots[id]))")
      return
    }
    #expect(try await library.all().count == 1)
    await library.close()
  }

  @Test func aCameraThatDoesNotDeferImportsThePhotoAndAFailedCaptureNothing() async throws {
    var (rig, library) = try await rig(SimulatedCamera(configuration: .init(defersDelivery: false)))
    let id = rig.camera.nextSettingsID()
    await rig.run(.shutterPressed(id: id))
    #expect(rig.machine.shots[id] == .done)
    #expect(try await library.all().map(\.type) == [.heic])
    await library.close()

    var (failing, other) = try await self.rig(
      SimulatedCamera(configuration: .init(failsCaptures: "the camera stopped")), number: 2)
    await failing.run(.shutterPressed(id: 1))
    #expect(failing.machine.shots[1] == .failed(reason: "the camera stopped"))
    #expect(failing.machine.shutter.isEnabled)
    #expect(try await other.all().isEmpty)
    await other.close()
  }
}

extension Result where Failure == Importer.Error {
  var failureDescription: String? {
    if case .failure(let error) = self { error.description } else { nil }
  }
}
