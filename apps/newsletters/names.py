"""The names other modules use without loading the senders (a web worker never imports
apps.newsletters.delivery: it pulls in the email providers' HTTP client)."""
SEND_TASK = "newsletters.send_run"
TEST_TASK = "newsletters.send_test"
HELP_TASK = "newsletters.send_help"  # another worker process sending rows of a send (best effort)


def outbox_key(send_id) -> str:
    """The outbox key of a send's task: one live row per send."""
    return f"newsletter-send:{send_id}"
