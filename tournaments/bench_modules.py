"""Imports the benchmark modules kept apart from benchmarks.py so each registers itself."""

import importlib

for _name in ():
    importlib.import_module(f"tournaments.{_name}")
