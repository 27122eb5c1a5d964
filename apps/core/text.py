import re

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def slugify(value: str) -> str:
    """The spec's slug rule: lowercase; runs of non-alphanumerics become one hyphen;
    leading and trailing hyphens are trimmed."""
    return _NON_ALNUM.sub("-", (value or "").lower()).strip("-")
