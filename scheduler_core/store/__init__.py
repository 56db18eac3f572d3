"""The object store (what the API server keeps) and its events."""
