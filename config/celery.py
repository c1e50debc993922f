"""Celery application: a broker when REDIS_URL is set, tasks inline otherwise."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("torneo")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
