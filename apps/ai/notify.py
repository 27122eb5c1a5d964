"""Job-finished signals through Redis, so a request waiting for its job wakes up at once.

The worker pushes to a per-job list when the job ends; the waiting request blocks on it
(BLPOP) in short slices and re-reads the job from the database between slices, so a lost
signal or a Redis outage only costs latency, never a wrong answer.
"""
from __future__ import annotations

import logging
import time

import redis
from django.conf import settings

from apps.core import redis_conn

logger = logging.getLogger(__name__)

SLICE_SECONDS = 1.0
SIGNAL_TTL_SECONDS = 300


def _redis() -> redis.Redis:
    # BLPOP blocks up to SLICE_SECONDS: the socket must wait longer than that.
    return redis_conn.client(read_timeout=SLICE_SECONDS + max(settings.REDIS_SOCKET_TIMEOUT, 1.0))


def _key(schema_name: str, job_id) -> str:
    return redis_conn.tenant_key("ai-job-done", schema_name, job_id)


def job_finished_signal(*, schema_name: str, job_id) -> None:
    try:
        pipe = _redis().pipeline()
        pipe.lpush(_key(schema_name, job_id), "1")
        pipe.expire(_key(schema_name, job_id), SIGNAL_TTL_SECONDS)
        pipe.execute()
    except redis.RedisError:
        logger.warning("AI job-finished signal not sent (Redis down)", exc_info=True)


def job_finished_wait(*, schema_name: str, job_id, timeout: float) -> bool:
    """Block up to `timeout` (at most one slice) for the job's signal; True when it came."""
    timeout = min(max(timeout, 0.0), SLICE_SECONDS)
    if timeout <= 0:
        return False
    try:
        # redis-py takes whole or fractional seconds for BLPOP (Redis >= 6).
        return _redis().blpop([_key(schema_name, job_id)], timeout=timeout) is not None
    except redis.RedisError:
        logger.warning("AI job-finished wait failed (Redis down); polling", exc_info=True)
        time.sleep(min(timeout, 0.25))
        return False
