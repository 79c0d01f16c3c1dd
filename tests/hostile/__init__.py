"""Hostile programs against the sandbox."""
