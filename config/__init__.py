"""Project settings and entry points.

Celery's app (config/celery.py) is not imported here, unlike Celery's Django guide: tasks
are sent by name, and config/scheduling.py imports the app on its first send, so a
web process that queues nothing (the embedded default) never loads Celery, and a server
restarted under a room of screens does not wait for it. The worker and beat name it:
`celery -A config.celery`.
"""
