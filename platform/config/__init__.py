"""The project's configuration package. The Celery app (config.celery) is not imported here: web
processes load it only when they first send a task (apps.core.task_queue); `celery -A config`
finds it as the submodule config.celery."""
