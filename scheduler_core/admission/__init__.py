"""Admission plugins: what the API server changes or refuses before an object is stored."""
