from __future__ import annotations

import math
from dataclasses import dataclass

from apps.core.errors import ValidationFailed


@dataclass(frozen=True)
class Page:
    page: int
    limit: int

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.limit

    def meta(self, total: int) -> dict:
        return {
            "total": total,
            "totalPages": math.ceil(total / self.limit) if total else 0,
            "currentPage": self.page,
            "limit": self.limit,
        }


# Past this the offset no longer fits PostgreSQL's bigint (a 500); no list is that long.
MAX_PAGE = 1_000_000


def page_params(page: int | None, limit: int | None, *, default_limit: int = 10, max_limit: int = 100) -> Page:
    """Validates page/limit query values; bad values get 400 with a clear message."""
    page = 1 if page is None else page
    limit = default_limit if limit is None else limit
    if page < 1:
        raise ValidationFailed("Page must be at least 1", field="page")
    if page > MAX_PAGE:
        raise ValidationFailed(f"Page must be at most {MAX_PAGE}", field="page")
    if limit < 1:
        raise ValidationFailed("Limit must be at least 1", field="limit")
    if limit > max_limit:
        raise ValidationFailed(f"Limit must be at most {max_limit}", field="limit")
    return Page(page=page, limit=limit)
