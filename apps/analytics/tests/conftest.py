import socket

import pytest

from apps.core import redis_conn


@pytest.fixture(autouse=True)
def _redis_breaker_closed():
    redis_conn.reset()
    yield
    redis_conn.reset()


@pytest.fixture
def dead_redis_url():
    """A Redis URL on a local port where nothing listens (connections are refused at once)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"
