import PhotoIntake
import PhotoIntakeUI
import SwiftUI

/// The camera: a preview of the running session and a shutter; each photo is stored before it is shown.
@MainActor
struct CameraView: View {
  let gallery: Gallery
  @Environment(\.dismiss) private var dismiss

  var body: some View {
    let camera = gallery.camera
    NavigationStack {
      Group {
        switch camera.screen {
        case .content, .contentWithLimitedBanner:
          CameraPreview(session: camera.session, rotation: camera.rotation)
            .ignoresSafeArea()
            .overlay(alignment: .top) {
              // Interruptions (a call, Split View, another app) and errors: say why, and offer Resume only
              // where it can help.
              if let message = camera.sessionState.message {
                VStack(spacing: 8) {
                  Text(message).multilineTextAlignment(.center)
                  if camera.sessionState.offersResume {
                    Button("Resume") { camera.resume() }.buttonStyle(.borderedProminent)
                  }
                }
                .padding()
                .background(.regularMaterial, in: RoundedRectangle(cornerRadius: 12))
                .padding()
              }
            }
            .overlay(alignment: .bottom) {
              Button {
                Task {
                  if let asset = await camera.capture() { await gallery.addCapture(asset) }
                }
              } label: {
                // The readiness coordinator drives the shutter: disabled without dimming for a moment between
                // rapid shots, dimmed while waiting for a capture, a spinner while processing.
                Image(systemName: "circle.inset.filled").font(.system(size: 72))
                  .opacity(camera.shutter.isDimmed ? 0.4 : 1)
                  .overlay { if camera.shutter.showsSpinner { ProgressView() } }
              }
              .disabled(!camera.shutter.isEnabled)
              .accessibilityLabel("Take Photo")
              .padding(.bottom, 32)
            }
        case .ask, .waitingForAnswer:
          ProgressView()
        case .explainAndLinkToSettings, .explainRestricted:
          PermissionDeniedView(
            title: "No Camera Access",
            message: camera.screen == .explainRestricted
              ? CameraError.accessRestricted.description : CameraError.accessDenied.description,
            linksToSettings: camera.screen == .explainAndLinkToSettings)
        }
      }
      .toolbar { Button("Done") { dismiss() } }
      .alert(
        "Camera", isPresented: .constant(camera.error != nil),
        actions: { Button("OK") { camera.error = nil } },
        message: { Text(camera.error?.description ?? "") })
    }
    .task { await camera.appear() }
    .onDisappear { camera.disappear() }
  }
}
