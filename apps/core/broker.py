"""Celery's broker through Redis Sentinel (settings: REDIS_SENTINELS; docs/scaling-engines.md#redis-sentinel).

kombu's sentinel transport, with one repair. When the primary dies under a worker holding messages
not yet acknowledged (acks_late tasks), Celery closes the broker connection and kombu's channel,
closing, rebuilds its pool to give those messages back from the transport's connection parameters,
which the connection has already dropped: an AttributeError that Celery treats as unrecoverable,
and the worker stopped. Here that rebuild raises the connection error it stands for, which kombu
ignores on close; Celery then reconnects through the sentinels to the promoted replica. The
messages stay in the broker's unacknowledged set and come back after the visibility timeout, and
the outbox (apps.core.outbox) sends its own again after their lease: nothing is lost.

`register()` (config.celery) makes kombu use this transport for `sentinel://` URLs."""
from __future__ import annotations

from kombu import transport as kombu_transports
from kombu.transport import redis as kombu_redis


class SentinelChannel(kombu_redis.SentinelChannel):
    def _connparams(self, asynchronous=False):
        if self.connection.client is None:
            raise kombu_redis.get_redis_ConnectionError()("the broker connection is closed")
        return super()._connparams(asynchronous=asynchronous)


class SentinelTransport(kombu_redis.SentinelTransport):
    Channel = SentinelChannel


def register() -> None:
    kombu_transports.TRANSPORT_ALIASES["sentinel"] = "apps.core.broker:SentinelTransport"
