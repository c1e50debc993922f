from django.apps import AppConfig


class BenchConfig(AppConfig):
    """Installed only for its `bench` management command."""

    name = "bench"
    verbose_name = "Benchmarks"
