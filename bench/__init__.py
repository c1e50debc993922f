"""Tools that are not the product: benchmarks, load and fan-out drivers, the fuzz harness.

The app (config/, tournaments/, tables/) never imports this package (an import-linter
contract says so); `python manage.py bench NAME` is its entry point.
"""
