#if canImport(PhotosUI) && canImport(SwiftUI) && canImport(UIKit)
  import Photos
  import PhotosUI
  import PhotoIntake
  import SwiftUI
  import UIKit

  /// Shows a Live Photo stored in the app's own library — its still and its movie — in a `PHLivePhotoView`:
  /// touch and hold plays the motion and sound, as in Photos. It plays a short hint once loaded.
  ///
  /// The pair becomes a `PHLivePhoto` through `PHLivePhoto.request(withResourceFileURLs:…)`, which needs no
  /// Photos access; both files go through ``PreparedFile`` (hard links named with their extensions, which
  /// PhotoKit reads the types from), released when the view goes away. Photos validates the pair by the
  /// content identifier in both files (``LivePhotoPairing``); a pair it refuses shows the still alone.
  ///
  /// ```swift
  /// if let movie = try await library.livePhotoPartner(of: still) {
  ///   StoredLivePhotoView(still: still, movie: movie, library: library)
  /// }
  /// ```
  @MainActor
  public struct StoredLivePhotoView: View {
    private let still: Asset
    private let movie: Asset
    private let library: Library
    @StateObject private var loader = LivePhotoLoader()

    /// A view of the Live Photo made of `still` and `movie`, both in `library`.
    public init(still: Asset, movie: Asset, library: Library) {
      self.still = still
      self.movie = movie
      self.library = library
    }

    public var body: some View {
      ZStack {
        if let livePhoto = loader.livePhoto {
          LivePhotoViewRepresentable(livePhoto: livePhoto, playsHint: loader.playsHint)
        } else if let failure = loader.failure {
          Label(failure, systemImage: "exclamationmark.triangle").font(.footnote).padding()
        } else {
          ProgressView()
        }
      }
      .task(id: still.sha256.hex + movie.sha256.hex) {
        loader.load(still: still, movie: movie, library: library)
      }
      .onDisappear { loader.release() }
    }
  }

  /// Prepares the two files and asks PhotoKit for the `PHLivePhoto`; keeps the files until released.
  @MainActor
  final class LivePhotoLoader: ObservableObject {
    @Published private(set) var livePhoto: PHLivePhoto?
    @Published private(set) var failure: String?
    /// Whether the view should play the hint for the photo it shows now: for the first one only.
    @Published private(set) var playsHint = false
    private var files: [PreparedFile] = []
    private var request: PHLivePhotoRequestID?
    private var delivery = ProgressiveDelivery()

    func load(still: Asset, movie: Asset, library: Library) {
      release()
      do {
        // Two link(2) calls in the temporary folder: cheap enough for the main actor.
        files.append(try PreparedFile.make(for: still, in: library, withoutLocation: false))
        files.append(try PreparedFile.make(for: movie, in: library, withoutLocation: false))
      } catch {
        failure = error.description
        release()
        return
      }
      let urls = files.map { URL(fileURLWithPath: $0.path) }
      // The handler may run more than once (a degraded image first) and on any thread: each result is carried
      // to the main actor in a box (PHLivePhoto is immutable once made).
      request = PHLivePhoto.request(
        withResourceFileURLs: urls, placeholderImage: nil, targetSize: .zero, contentMode: .aspectFit
      ) { [weak self] photo, info in
        let result = LivePhotoBox(photo)
        let cancelled = (info[PHLivePhotoInfoCancelledKey] as? NSNumber)?.boolValue ?? false
        let degraded = (info[PHLivePhotoInfoIsDegradedKey] as? NSNumber)?.boolValue ?? false
        let error = (info[PHLivePhotoInfoErrorKey] as? NSError)?.localizedDescription
        Task { @MainActor in
          guard let self, !cancelled else { return }
          if let photo = result.photo {
            self.show(photo, degraded: degraded)
          } else if let error, self.livePhoto == nil {
            self.failure = "This Live Photo cannot be shown: \(error)"
          }
        }
      }
    }

    /// Shows a result unless the final one is already shown (the hops to the main actor may reorder them);
    /// the hint plays with the first one shown only.
    private func show(_ photo: PHLivePhoto, degraded: Bool) {
      guard delivery.accepts(isDegraded: degraded) else { return }
      playsHint = delivery.takeHint()
      livePhoto = photo
    }

    /// Cancels the request and deletes the prepared links (never the library's objects).
    func release() {
      if let request { PHLivePhoto.cancelRequest(withRequestID: request) }
      request = nil
      delivery.restart()
      files.forEach { $0.release() }
      files = []
    }
  }

  /// Carries a `PHLivePhoto` to the main actor.
  private struct LivePhotoBox: @unchecked Sendable {
    // @unchecked: a PHLivePhoto is not changed after PhotoKit made it; it is only handed to the view.
    let photo: PHLivePhoto?
    init(_ photo: PHLivePhoto?) { self.photo = photo }
  }

  /// `PHLivePhotoView` in SwiftUI.
  @MainActor
  struct LivePhotoViewRepresentable: UIViewRepresentable {
    let livePhoto: PHLivePhoto
    /// Whether to play the hint when this photo is set (``LivePhotoLoader`` says yes for its first one only).
    let playsHint: Bool

    func makeUIView(context: Context) -> PHLivePhotoView {
      let view = PHLivePhotoView()
      view.contentMode = .scaleAspectFit
      return view
    }

    func updateUIView(_ view: PHLivePhotoView, context: Context) {
      guard view.livePhoto !== livePhoto else { return }
      view.livePhoto = livePhoto
      // A brief, silent hint that the picture moves (as Photos does when one scrolls onto a Live Photo), once:
      // not again when the final photo replaces the degraded one.
      if playsHint { view.startPlayback(with: .hint) }
    }
  }
#endif
