"""The text of the public API benchmark's posts: plain Python, no project import, so that both the
product's seeding (bench/public_api_data.py) and Wagtail's anchor, in a virtualenv of its own
(bench/wagtail_site's seed_blog), write the same words from the same random sequence."""
from __future__ import annotations

import random

WORDS = ("content platform editor publish article reader garden kitchen travel market design review "
         "library season harbor summit meadow lantern orbit canvas signal thread pattern velvet copper "
         "maple river stone cloud ember quartz willow falcon").split()


def zephyr_posts(posts: int) -> set[int]:
    """The numbers of the 15 posts that mention "zephyr" among the first `posts`."""
    return {i * max(1, posts // 15) for i in range(15)}


def html_body(rng: random.Random, n: int) -> str:
    paragraphs = []
    while sum(len(p) for p in paragraphs) < 2000:
        words = " ".join(rng.choice(WORDS) for _ in range(40))
        paragraphs.append(f"<p>{words} <strong>topic{n % 500}</strong>.</p>")
    return "".join(paragraphs)
