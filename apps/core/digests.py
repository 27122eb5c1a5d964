"""SHA-1 and SHA-256 from CPython's own implementations, for the hashes a web worker makes on every
public API request (the reply cache's query hash, an API key's hash, a listing's count key): the
same digests as hashlib's, without OpenSSL. hashlib's are OpenSSL's, and the first one a worker
computes brings about 1 MB of OpenSSL's code into its memory; a content worker needs no other
(docs/performance.md: Worker memory per pool). hashlib's where CPython lacks its own."""
from __future__ import annotations

try:
    from _sha1 import sha1
except ImportError:  # pragma: no cover - a CPython built without its own SHA-1
    from hashlib import sha1

try:
    from _sha256 import sha256  # CPython 3.11
except ImportError:  # pragma: no cover
    try:
        from _sha2 import sha256  # CPython 3.12 and later
    except ImportError:
        from hashlib import sha256

__all__ = ["sha1", "sha256"]
