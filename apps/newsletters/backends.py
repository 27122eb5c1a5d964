"""Email provider backends that take an idempotency key (docs/newsletters.md#exactly-once): each
newsletter email carries `idempotency_key` (its Message-ID), which these send as the provider asks;
a provider that receives the same key again within its window does not send a second email.

- ResendBackend: anymail's Resend backend with Resend's `Idempotency-Key` request header.

The other providers anymail supports take no such key: for them the Message-ID is what tells a
second copy apart."""
from __future__ import annotations

from anymail.backends.resend import EmailBackend as AnymailResendBackend


class ResendBackend(AnymailResendBackend):
    def build_message_payload(self, message, defaults):
        payload = super().build_message_payload(message, defaults)
        key = getattr(message, "idempotency_key", None)
        if key:
            payload.headers["Idempotency-Key"] = key[:256]
        return payload
