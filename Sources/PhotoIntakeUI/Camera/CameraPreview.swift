// `_version: 1`: any AVFoundation, but versioned like every check of it (SDKGuardTests says why).
#if canImport(AVFoundation, _version: 1) && canImport(SwiftUI) && canImport(UIKit)
  import AVFoundation
  import SwiftUI
  import UIKit

  /// Shows a running capture session. It never creates, configures, starts or stops the session: that is
  /// ``CameraModel``'s job, on its background queue; a representable is re-created by SwiftUI at will, and a
  /// session made here would be rebuilt with it.
  @MainActor
  public struct CameraPreview: UIViewRepresentable {
    public let session: AVCaptureSession
    /// Turns the preview level with the horizon; nil leaves the connection's own rotation.
    public let rotation: CameraRotation?

    /// A preview of `session`, kept level by `rotation` (``CameraModel/rotation``).
    public init(session: AVCaptureSession, rotation: CameraRotation? = nil) {
      self.session = session
      self.rotation = rotation
    }

    public func makeUIView(context: Context) -> PreviewView {
      let view = PreviewView()
      view.previewLayer.videoGravity = .resizeAspectFill
      view.previewLayer.session = session
      view.rotation = rotation
      rotation?.attach(previewLayer: view.previewLayer)
      return view
    }

    public func updateUIView(_ view: PreviewView, context: Context) {
      if view.previewLayer.session !== session { view.previewLayer.session = session }
      view.rotation = rotation
      rotation?.attach(previewLayer: view.previewLayer)
    }

    /// A view whose backing layer is the preview layer, so it resizes with the view without layout code
    /// (`layerClass`, UIView).
    public final class PreviewView: UIView {
      public override class var layerClass: AnyClass { AVCaptureVideoPreviewLayer.self }

      var rotation: CameraRotation?

      /// On iOS 16 the preview follows the interface, whose rotation lays the view out again.
      public override func layoutSubviews() {
        super.layoutSubviews()
        rotation?.layoutChanged()
      }

      /// The backing layer.
      public var previewLayer: AVCaptureVideoPreviewLayer {
        // `layerClass` guarantees the type.
        layer as! AVCaptureVideoPreviewLayer
      }
    }
  }
#endif
