import pytest


@pytest.fixture(autouse=True)
def notices_in_process(settings):
    """The notices go out here and now, as in the embedded server (no broker), also in the
    PostgreSQL + Redis pass where no Celery worker runs beside the tests."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
