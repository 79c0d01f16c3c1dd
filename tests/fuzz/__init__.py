"""Property-based fuzzing of ptc.run."""
