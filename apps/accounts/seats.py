"""Staff seats (the plan's `staff_seats`, docs/plans-and-usage.md): which accounts take one, decided
here and nowhere else. Every path that makes, wakes, puts to sleep or deletes an account goes
through it: an admin's "add user", an accepted invitation, an account a blog import makes, a change
of status, a delete.

An account takes a seat while it is active or suspended (a suspension is a pause: the seat is kept
for its return). An inactive account takes none: one an admin deactivated, and one a blog import
made that waits for its owner to accept the invitation. Such an account is counted as a pending
invitation is: the seat is checked when it is made (`seats_check`, with the number of accounts) and
taken when it becomes active or suspended (`seat_move`), refused with 403 `plan_limit` if the plan
has no seat left then. A role changes no seat: every role takes one.
"""
from __future__ import annotations

from apps.accounts.models import User
from apps.plans.rules import plan_check, plan_release, plan_spend

SEATS = "staff_seats"
SEATED = (User.Status.ACTIVE, User.Status.SUSPENDED)


def takes_seat(status: str | None) -> bool:
    """Does an account of this status take a seat? (None: no account.)"""
    return status in SEATED


def seats_held() -> int:
    """The accounts of the connection's company that take a seat (apps.plans.counting)."""
    return User.objects.filter(status__in=SEATED).count()


def seats_check(amount: int = 1) -> None:
    """Refuse (403 `plan_limit`) unless `amount` more seats fit; nothing is taken. An invitation
    (one), a blog import (the accounts it would make), before anything is written."""
    if amount > 0:
        plan_check(SEATS, amount)


def seat_move(*, before: str | None, after: str | None) -> None:
    """One account's status goes from `before` to `after` (None: it does not exist, a create or a
    delete): take its seat (or refuse, 403 `plan_limit`) or give it back. Call it inside the write's
    transaction, before the write, on the locked row's status. An account made inactive takes no
    seat but is checked, as an invitation is."""
    if takes_seat(after) and not takes_seat(before):
        plan_spend(SEATS)
    elif takes_seat(before) and not takes_seat(after):
        plan_release(SEATS)
    elif before is None and after is not None:
        seats_check()
