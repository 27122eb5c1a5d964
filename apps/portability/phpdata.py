"""PHP's serialize() format, read strictly (WordPress plugins keep arrays in it: Polylang's
languages and translation groups in the descriptions of its terms). Only what those hold is read:
arrays (`a:2:{...}`), strings (`s:5:"text";`, the length in UTF-8 bytes), integers, booleans,
floats and null. Objects (`O:`, `C:`), references (`r:`, `R:`) and anything else are refused, as
are nesting deeper than DEPTH_MAX, more than ITEMS_MAX items and trailing bytes: a ValueError
saying where. Never eval, never PHP's own unserialize (which builds objects).
"""
from __future__ import annotations

import re

DEPTH_MAX = 8
ITEMS_MAX = 10_000
SIZE_MAX = 1_000_000  # bytes of serialized text read

_NUMBER = re.compile(rb"-?\d{1,19}")
_FLOAT = re.compile(rb"-?(?:\d{1,30}(?:\.\d{0,30})?(?:[eE][-+]?\d{1,3})?|INF|NAN)")


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.at, self.items = data, 0, 0

    def fail(self, what: str) -> ValueError:
        return ValueError(f"not PHP serialized data: {what} at byte {self.at}")

    def expect(self, token: bytes) -> None:
        if self.data[self.at:self.at + len(token)] != token:
            raise self.fail(f"{token.decode()!r} expected")
        self.at += len(token)

    def number(self, pattern: re.Pattern = _NUMBER) -> bytes:
        found = pattern.match(self.data, self.at)
        if found is None:
            raise self.fail("a number expected")
        self.at = found.end()
        return found.group()

    def value(self, depth: int):
        self.items += 1
        if self.items > ITEMS_MAX:
            raise self.fail("too many items")
        kind = self.data[self.at:self.at + 2]
        self.at += 2
        if kind == b"N;":
            return None
        if kind == b"b:":
            flag = self.number()
            self.expect(b";")
            if flag not in (b"0", b"1"):
                raise self.fail("a boolean is 0 or 1")
            return flag == b"1"
        if kind == b"i:":
            number = int(self.number())
            self.expect(b";")
            return number
        if kind == b"d:":
            number = float(self.number(_FLOAT))
            self.expect(b";")
            return number
        if kind == b"s:":
            length = int(self.number())
            self.expect(b':"')
            end = self.at + length
            if length < 0 or end > len(self.data):
                raise self.fail("a string longer than the data")
            raw, self.at = self.data[self.at:end], end
            self.expect(b'";')
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise self.fail("a string that is not UTF-8") from exc
        if kind == b"a:":
            if depth >= DEPTH_MAX:
                raise self.fail("arrays nested too deeply")
            count = int(self.number())
            self.expect(b":{")
            if count < 0 or count > ITEMS_MAX:
                raise self.fail("an array of too many items")
            found = {}
            for _ in range(count):
                key = self.value(depth + 1)
                if not isinstance(key, (int, str)) or isinstance(key, bool):
                    raise self.fail("an array key is an integer or a string")
                found[key] = self.value(depth + 1)
            self.expect(b"}")
            return found
        self.at -= 2
        raise self.fail("an unsupported value (objects and references are refused)")


def php_unserialize(text: str | bytes):
    """The value of PHP serialized `text` (arrays as dicts, keys as given); ValueError otherwise."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if len(data) > SIZE_MAX:
        raise ValueError("not PHP serialized data: too long")
    reader = _Reader(data.strip())
    value = reader.value(0)
    if reader.at != len(reader.data):
        raise reader.fail("bytes after the value")
    return value
