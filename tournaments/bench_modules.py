"""Imports the benchmark modules kept apart from benchmarks.py so each registers itself."""

import importlib

for _name in ("bench_fanout", "bench_load", "bench_fuzz"):
    importlib.import_module(f"tournaments.{_name}")
