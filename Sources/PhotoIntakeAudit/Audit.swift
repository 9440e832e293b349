/// Namespace for the audit.
public enum Audit {}
