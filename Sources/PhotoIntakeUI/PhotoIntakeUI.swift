// The Apple-only layer; see DESIGN.md. Every file is guarded by `#if canImport(PhotosUI)`.
