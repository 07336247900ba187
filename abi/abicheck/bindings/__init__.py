"""Binding parsers (one module per language) and the comparison they share (common.py)."""
