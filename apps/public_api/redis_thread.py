"""One Redis connection per thread of a web worker for the public API's Lua scripts.

Why not the client's pool: taking a connection from redis-py's shared pool costs more CPU than
the round trip itself (the pool checks each connection it hands out), and the fast path
(apps.public_api.fastpath) runs a script on every request of every company website. A
connection of the thread's own is made on first use, again in a forked child (pid) or when the
client changes (tests point REDIS_URL elsewhere), and dropped after any error that may have
left a reply half-read. Callers catch redis.RedisError.
"""
from __future__ import annotations

import os
import threading

import redis
from redis.exceptions import NoScriptError


class _Dedicated(threading.local):
    connection = None
    pid = 0
    client = None


_dedicated = _Dedicated()


def evalsha(client: redis.Redis, sha: str, source: str, keys: tuple, args: list):
    """Run a script (loaded into the server once: after NOSCRIPT, SCRIPT LOAD and again)."""
    local = _dedicated
    connection = local.connection
    if connection is None or local.client is not client or local.pid != os.getpid():
        pool = client.connection_pool
        connection = local.connection = pool.connection_class(**pool.connection_kwargs)
        local.client, local.pid = client, os.getpid()
    command = ("EVALSHA", sha, len(keys), *keys, *args)
    try:
        try:
            connection.send_command(*command)
            return connection.read_response()
        except NoScriptError:  # a new or flushed Redis: load it once
            connection.send_command("SCRIPT", "LOAD", source)
            connection.read_response()
            connection.send_command(*command)
            return connection.read_response()
    except redis.ResponseError:
        raise
    except BaseException:
        connection.disconnect()  # never reuse a connection left half-read
        raise
