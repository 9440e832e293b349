#if canImport(AVKit) && canImport(SwiftUI) && canImport(UIKit)
  import AVFoundation
  import AVKit
  import PhotoIntake
  import SwiftUI

  /// Plays a movie stored in the app's own library with the system's playback controls (`VideoPlayer` over an
  /// `AVPlayer`). No Photos access is involved: the file is the app's.
  ///
  /// Objects are stored without an extension, and AVFoundation recognises a container by its file's name, so
  /// the movie is played through a ``PreparedFile`` (a hard link named like "IMG_0100.mov"; nothing is
  /// copied), released when the view goes away. The app's audio session is set to `.playback`, so a movie
  /// has sound with the Ring/Silent switch on silent, as in Photos.
  ///
  /// ```swift
  /// StoredMoviePlayer(asset: movie, library: library).aspectRatio(16 / 9, contentMode: .fit)
  /// ```
  @MainActor
  public struct StoredMoviePlayer: View {
    private let asset: Asset
    private let library: Library
    @State private var player: AVPlayer?
    @State private var file: PreparedFile?
    @State private var failure: String?

    /// A player for `asset`, a movie in `library`.
    public init(asset: Asset, library: Library) {
      self.asset = asset
      self.library = library
    }

    public var body: some View {
      ZStack {
        if let player {
          VideoPlayer(player: player)
        } else if let failure {
          Label(failure, systemImage: "exclamationmark.triangle").font(.footnote).padding()
        } else {
          ProgressView()
        }
      }
      .task(id: asset.sha256.hex) { load() }
      .onDisappear {
        player?.pause()
        player = nil
        file?.release()
        file = nil
      }
    }

    /// Links the movie under a named file (one link(2) in the temporary folder) and makes the player.
    private func load() {
      file?.release()
      do {
        let prepared = try PreparedFile.make(for: asset, in: library, withoutLocation: false)
        file = prepared
        Self.useMoviePlaybackAudio()
        player = AVPlayer(url: URL(fileURLWithPath: prepared.path))
        failure = nil
      } catch {
        failure = error.description
      }
    }

    /// Movies play with sound even when the Ring/Silent switch is on silent: the default category
    /// (`.soloAmbient`) is silenced by the switch, `.playback` is not ("Choosing an audio session category",
    /// AVAudioSession.h). Setting the category does not activate the session; AVPlayer activates it when it
    /// plays. A failure leaves the default, which plays, silently under the switch.
    private static func useMoviePlaybackAudio() {
      let session = AVAudioSession.sharedInstance()
      guard session.category != .playback else { return }
      try? session.setCategory(.playback, mode: .moviePlayback)
    }
  }
#endif
