"""The images archive of an import (docs/import-export.md#images): Ghost's `content/images`
folder, WordPress's `wp-content/uploads` folder, as a zip uploaded beside the export or inside
the export's own zip. `ImageArchive.find(address)` names the archive's file an address of the old
site means, matched by its path with or without the old host: `/content/images/2020/01/a.jpg`,
`__GHOST_URL__/content/images/...`, `https://old.example/wp-content/uploads/2020/01/a.jpg`, a
path relative to the folder (`2020/01/a.jpg`), Ghost's resized copies (`size/w600/...`) and
WordPress's (`a-1024x576.jpg`) resolving to the original when the archive has it.

An address on another host is matched only when its path names one of the two folders (an image
of another site that happens to share a file name is not taken for the blog's own)."""
from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote, urlsplit

MARKERS = ("content/images/", "wp-content/uploads/")
FOLDERS = ("images/", "uploads/")  # the folder zipped on its own
GHOST_URL = "__GHOST_URL__"
_WP_SIZE = re.compile(r"-\d{1,5}x\d{1,5}(?=\.[A-Za-z0-9]{2,5}$)")
_GHOST_SIZE = re.compile(r"^size/w\d{1,5}(?:h\d{1,5})?/")


def _relative(path: str) -> str:
    """A path inside the archive or of the old site, relative to the images folder."""
    path = posixpath.normpath("/" + path).lstrip("/")
    for marker in MARKERS:
        index = path.find(marker)
        if index >= 0:
            return path[index + len(marker):]
    return path


class ImageArchive:
    def __init__(self, files: dict[str, bytes], *, site_url: str = ""):
        self.files = files
        self.site_host = (urlsplit(site_url).hostname or "").lower()
        self.index: dict[str, str] = {}
        for key in files:
            for name in (_relative(key), key, *(key[len(f):] for f in FOLDERS if key.startswith(f))):
                self.index.setdefault(name, key)

    def __bool__(self) -> bool:
        return bool(self.files)

    def find(self, address: str) -> str | None:
        """The archive's key of the file `address` names, or None."""
        if not self.files or not address:
            return None
        try:
            return self._find(address)
        except ValueError:  # an address urllib cannot split (`https://[::1/x.png`)
            return None

    def _find(self, address: str) -> str | None:
        address = address.strip()
        if address.startswith(GHOST_URL):
            address = address[len(GHOST_URL):]
        if re.match(r"^https?://", address, re.IGNORECASE) or address.startswith("//"):
            parts = urlsplit(address if not address.startswith("//") else "https:" + address)
            path = parts.path
            own = (parts.hostname or "").lower() == self.site_host and bool(self.site_host)
            if not own and not any(marker in path for marker in MARKERS):
                return None
        else:
            path = urlsplit(address).path
        try:
            path = unquote(path, errors="strict")
        except UnicodeDecodeError:
            pass
        relative = _GHOST_SIZE.sub("", _relative(path))
        for candidate in dict.fromkeys((_WP_SIZE.sub("", relative), relative)):
            key = self.index.get(candidate)
            if key is not None:
                return key
        return None

    def bytes_of(self, address: str) -> bytes | None:
        key = self.find(address)
        return self.files[key] if key is not None else None
