"""The cache stack: the shared stores, the versioned singletons, the coherence rule and the
per-request batch."""
