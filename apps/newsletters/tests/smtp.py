"""A test SMTP server (apps.core.mailcatcher) that also refuses chosen recipients (550 at RCPT),
may take its time over each message (to catch a sender in the middle of a send), and may hold its
answer to the first message until the test releases it (an exchange with the provider that lasts
past a sender's lease: `holding` is set when the message is in, `release` lets the answer go)."""
from __future__ import annotations

import asyncio
import threading

from apps.core.mailcatcher import SmtpCatcher, _Handler


class _Refusing(_Handler):
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        if address.lower().startswith(self.catcher.refused_prefix):
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        catcher = self.catcher
        if catcher.hold_first and not catcher.holding.is_set():
            catcher.holding.set()
            while not catcher.release.wait(0):  # the event loop serves the other connections meanwhile
                await asyncio.sleep(0.02)
        if self.catcher.delay:
            await asyncio.sleep(self.catcher.delay)
        answer = await super().handle_DATA(server, session, envelope)
        if answer.startswith("250"):
            self.catcher.raw.append(envelope.content)  # the bytes as they came
            self.catcher.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return answer


class RefusingCatcher(SmtpCatcher):
    def __init__(self, *args, refused_prefix: str = "refused", delay: float = 0.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.refused_prefix, self.delay = refused_prefix, delay
        self.raw: list[bytes] = []
        self.envelopes: list[tuple[str, list[str], bytes]] = []  # (MAIL FROM, RCPT TOs, the bytes) of each accepted
        self.hold_first = False  # hold the answer to the first message until `release` is set
        self.holding, self.release = threading.Event(), threading.Event()

    def start(self) -> "RefusingCatcher":
        from aiosmtpd.controller import Controller

        self._controller = Controller(_Refusing(self), hostname="127.0.0.1", port=self.port)
        self._controller.start()
        return self
