"""What the outbox holds (apps.core.outbox): per kind of work and company, how many messages are
waiting for a retry, in flight, due and stuck; the stuck ones one by one; and a retry.

    manage.py outbox [--schema t_acme] [--task core.send_email]   counts per task and company
    manage.py outbox --stuck [...]                                each stuck message and its last error
    manage.py outbox --retry [--key KEY] [...]                    stuck and due messages due now, then a relay run
    manage.py outbox --relay                                      one relay run here (beat down)
"""
from __future__ import annotations

from django.core.management.base import BaseCommand
from django.utils import timezone

from apps.core import outbox


def _age(when) -> str:
    seconds = int((timezone.now() - when).total_seconds())
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if abs(seconds) >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


class Command(BaseCommand):
    help = "Show what the outbox holds per task and company, list what is stuck, retry it."

    def add_arguments(self, parser):
        parser.add_argument("--schema", help="only this company's schema (public: the root domain's work)")
        parser.add_argument("--task", help="only this task, e.g. core.send_email, webhooks.deliver")
        parser.add_argument("--stuck", action="store_true", help="list each stuck message")
        parser.add_argument("--retry", action="store_true", help="make stuck and due messages due now, then relay")
        parser.add_argument("--key", help="with --retry: only the message with this key")
        parser.add_argument("--relay", action="store_true", help="run the relay once in this process")

    def handle(self, *args, schema=None, task=None, stuck=False, retry=False, key=None, relay=False, **options):
        if retry:
            count = outbox.outbox_retry(schema_name=schema, task=task, key=key)
            self.stdout.write(f"{count} message(s) made due again")
            relay = True
        if relay:
            self.stdout.write(f"relay: {outbox.outbox_relay()} message(s) sent")
            return
        if stuck:
            rows = list(outbox.outbox_stuck(schema_name=schema, task=task))
            for row in rows:
                self.stdout.write(f"{row.key}  {row.task}  {row.schema_name}  written {_age(row.created_at)} ago  "
                                  f"sent {row.dispatches}x  due {_age(row.due_at)} ago  {row.last_error or '-'}")
            self.stdout.write(f"{len(rows)} stuck message(s)")
            return
        counts = outbox.outbox_counts(schema_name=schema, task=task)
        header = ("task", "company", *(state.replace("_", " ") for state in outbox.STATES), "oldest")
        lines = [header] + [(c["task"], c["schema_name"], *(str(c[state]) for state in outbox.STATES),
                             _age(c["oldest"])) for c in counts]
        widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
        for line in lines:
            self.stdout.write("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))
        if not counts:
            self.stdout.write("the outbox is empty")
