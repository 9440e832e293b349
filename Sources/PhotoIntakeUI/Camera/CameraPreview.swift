#if canImport(AVFoundation) && canImport(SwiftUI) && canImport(UIKit)
  import AVFoundation
  import SwiftUI
  import UIKit

  /// Shows a running capture session. It never creates, configures, starts or stops the session: that is
  /// ``CameraModel``'s job, on its background queue; a representable is re-created by SwiftUI at will, and a
  /// session made here would be rebuilt with it.
  @MainActor
  public struct CameraPreview: UIViewRepresentable {
    public let session: AVCaptureSession

    public init(session: AVCaptureSession) { self.session = session }

    public func makeUIView(context: Context) -> PreviewView {
      let view = PreviewView()
      view.previewLayer.videoGravity = .resizeAspectFill
      view.previewLayer.session = session
      return view
    }

    public func updateUIView(_ view: PreviewView, context: Context) {
      if view.previewLayer.session !== session { view.previewLayer.session = session }
    }

    /// A view whose backing layer is the preview layer, so it resizes with the view without layout code
    /// (`layerClass`, UIView).
    public final class PreviewView: UIView {
      public override class var layerClass: AnyClass { AVCaptureVideoPreviewLayer.self }

      /// The backing layer.
      public var previewLayer: AVCaptureVideoPreviewLayer {
        // `layerClass` guarantees the type.
        layer as! AVCaptureVideoPreviewLayer
      }
    }
  }
#endif
