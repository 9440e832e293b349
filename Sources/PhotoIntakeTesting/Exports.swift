@_exported import PhotoIntake
