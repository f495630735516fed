"""The analysis layer: reads results, never simulates (issue 6 builds it)."""
