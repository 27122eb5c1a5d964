"""Retries of a provider call, following Gemini's error semantics.

- 429 (a per-minute quota or rate limit), 500, 503, 504 and network errors are retried with
  exponential backoff and jitter (tenacity), at most `attempts` calls in all;
- when the reply says how long to wait (google.rpc.RetryInfo `retryDelay`, or Retry-After),
  the wait is at least that long; a wait longer than `max_delay` ends the retries at once;
- everything else (400, 403, 404, a per-day quota) is not retried.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import tenacity

logger = logging.getLogger(__name__)
T = TypeVar("T")

RETRYABLE_STATUSES = frozenset({429, 500, 503, 504})


class ProviderCallError(Exception):
    """One failed call: `status` is the HTTP status (None for a network error or timeout)."""

    def __init__(self, status: int | None, *, retryable: bool, retry_after: float | None = None,
                 reason: str = "") -> None:
        super().__init__(f"{status or 'network'}: {reason}")
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after
        self.reason = reason


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 4
    initial_delay: float = 1.0
    max_delay: float = 30.0
    jitter: float = 1.0
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False)

    @classmethod
    def from_settings(cls) -> "RetryPolicy":
        from django.conf import settings

        return cls(
            attempts=max(1, settings.AI_RETRY_ATTEMPTS),
            initial_delay=settings.AI_RETRY_INITIAL_DELAY,
            max_delay=settings.AI_RETRY_MAX_DELAY,
            jitter=settings.AI_RETRY_JITTER,
        )


def _error(retry_state: tenacity.RetryCallState) -> BaseException | None:
    outcome = retry_state.outcome
    return outcome.exception() if outcome is not None and outcome.failed else None


def _server_delay(retry_state: tenacity.RetryCallState) -> float | None:
    error = _error(retry_state)
    return error.retry_after if isinstance(error, ProviderCallError) else None


def _is_retryable(error: BaseException) -> bool:
    return isinstance(error, ProviderCallError) and error.retryable


def call_with_retries(call: Callable[[], T], policy: RetryPolicy) -> T:
    backoff = tenacity.wait_exponential_jitter(
        initial=policy.initial_delay, max=policy.max_delay, exp_base=2, jitter=policy.jitter
    )

    def wait(retry_state: tenacity.RetryCallState) -> float:
        delay = backoff(retry_state)
        server = _server_delay(retry_state)
        return max(delay, server) if server is not None else delay

    def server_asks_too_long(retry_state: tenacity.RetryCallState) -> bool:
        server = _server_delay(retry_state)
        return server is not None and server > policy.max_delay

    def log_retry(retry_state: tenacity.RetryCallState) -> None:
        logger.warning(
            "AI provider call failed (%s); retry %d in %.2fs",
            _error(retry_state), retry_state.attempt_number, retry_state.upcoming_sleep,
        )

    retrying = tenacity.Retrying(
        stop=tenacity.stop_after_attempt(policy.attempts) | server_asks_too_long,
        wait=wait,
        retry=tenacity.retry_if_exception(_is_retryable),
        sleep=policy.sleep,
        before_sleep=log_retry,
        reraise=True,
    )
    return retrying(call)
