"""The offline provider: a coherent, deterministic draft written from the input alone.

No network, no randomness, no clock: the same input always gives the same draft. It is the
default when no Gemini key is configured, so the product is fully usable without an external
service (and tests and demos are reproducible).
"""
from __future__ import annotations

import re
from collections import Counter
from html import escape

from apps.ai.providers.base import BlogRequest, SeoRequest
from apps.ai.providers.results import blog_result, clip_words, plain_text, seo_result
from apps.core.text import slugify

META_TITLE_RANGE = (50, 60)
META_DESCRIPTION_RANGE = (150, 160)
KEYWORD_RANGE = (5, 10)

STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being
below between both but by can could did do does doing down during each even every few for from
further get gets getting got had has have having he her here hers herself him himself his how i if
in into is it its itself just let like made make makes many me more most much must my myself need
needs new no nor not now of off often on once one only or other our ours ourselves out over own
per please really same she should so some such than that the their theirs them themselves then
there these they this those through to too under until up upon us use used using very via want
was we well were what when where which while who whom why will with within without would you your
yours yourself yourselves blog post article write writing written create draft generate compose
tell explain describe give show things thing way ways lot lots able
""".split())

_WORD = re.compile(r"[a-z0-9][a-z0-9+#'-]*[a-z0-9+#]|[a-z0-9]", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_LEAD_IN = re.compile(
    r"^(?:please\s+)?(?:can\s+you\s+)?(?:write|create|generate|draft|compose|make|produce)\s+"
    r"(?:me\s+|us\s+)?(?:an?\s+|the\s+)?(?:short\s+|long\s+|detailed\s+|quick\s+|new\s+)?"
    r"(?:blog\s+post|blog|post|article|piece|guide|story)?\s*(?:about|on|for|covering|explaining)?\s*",
    re.IGNORECASE,
)
_SMALL_WORDS = frozenset("a an and as at but by for in of on or the to vs via with".split())

TITLE_PATTERNS = {
    "professional": "{topic}: A Practical Guide",
    "casual": "Let's Talk About {topic}",
    "friendly": "A Friendly Guide to {topic}",
    "authoritative": "{topic}: What You Need to Know",
    "conversational": "So You Want to Understand {topic}?",
}
AUDIENCE_NOUNS = {
    "general": "everyone",
    "beginners": "beginners",
    "experts": "experts",
    "business": "business teams",
    "technical": "technical teams",
}
TONE_ADJECTIVES = {
    "professional": "practical",
    "casual": "relaxed",
    "friendly": "friendly",
    "authoritative": "definitive",
    "conversational": "down-to-earth",
}
INTROS = {
    "professional": "{topic} is a subject worth approaching with a clear plan.",
    "casual": "Let's be honest: {topic} sounds bigger than it is.",
    "friendly": "If {topic} has been on your mind, you are in good company.",
    "authoritative": "{topic} rewards those who understand its fundamentals.",
    "conversational": "Have you ever wondered what {topic} really involves?",
}
AUDIENCE_ANGLES = {
    "general": "This guide keeps things clear and jargon-free, so anyone can follow along.",
    "beginners": "We start from the basics and build up step by step, assuming no prior knowledge.",
    "experts": "We skip the basics and focus on the details that make a difference in practice.",
    "business": "We focus on the outcomes that matter to a business: cost, time and results.",
    "technical": "We look at how it works under the hood and what it means for your implementation.",
}
CONCLUSIONS = {
    "professional": "With a clear plan and steady follow-through, {topic} becomes a dependable part of your work.",
    "casual": "That's it: {topic} is easier than it looks once you get going.",
    "friendly": "Take it one step at a time, and {topic} will soon feel familiar.",
    "authoritative": "Master these fundamentals and {topic} will work for you, not against you.",
    "conversational": "So, where will you start with {topic}? Pick one step and try it this week.",
}

# Broad categories and words that point to them (first match wins ties, so the order matters).
CATEGORY_WORDS = {
    "Technology": "software ai data cloud code coding programming python javascript web app apps developer "
                  "developers api apis security computer computers digital tech technology machine learning "
                  "internet devops database databases automation algorithm algorithms server servers network "
                  "mobile django react kubernetes docker linux",
    "Business": "business businesses startup startups marketing sales management strategy company companies "
                "customer customers brand branding growth leadership product products revenue entrepreneur "
                "productivity team teams remote work hiring",
    "Finance": "money investing investment investments budget budgeting savings finance financial tax taxes "
               "stocks crypto retirement banking loan loans",
    "Health": "health healthy fitness diet nutrition exercise sleep mental wellness medical yoga running "
              "meditation stress",
    "Education": "learn learning education students student teaching teacher school course courses study "
                 "skills training",
    "Lifestyle": "travel food recipe recipes home garden gardening fashion family hobby hobbies cooking coffee "
                 "pets parenting",
    "Science": "science research climate energy environment physics biology chemistry space",
}
_CATEGORY_INDEX = {name: frozenset(words.split()) for name, words in CATEGORY_WORDS.items()}

# Phrases that round a meta title or description up to its length guide, tried in order; then
# single words of at most 9 letters, so greedy filling always lands inside the range.
META_TITLE_PHRASES = (" | A Practical Guide", " | Tips and Best Practices", " for {audience}", " Explained",
                      " | Guide", " | Tips", " 101")
META_DESCRIPTION_PHRASES = (" Learn the key ideas and avoid the most common mistakes.",
                            " Practical tips and clear steps you can use today.",
                            " Real examples included.", " Start today.", " Read on.", " Try it.")
FILLER_WORDS = "Tips and Best Practices for Everyone Explained Simply with Clear Steps".split()


# --- text helpers ---------------------------------------------------------------------------------
def _title_case(text: str) -> str:
    words = text.split()
    out = []
    for index, word in enumerate(words):
        if word.isupper() and len(word) > 1:  # acronyms stay as they are
            out.append(word)
        elif index and word.lower() in _SMALL_WORDS:
            out.append(word.lower())
        else:
            out.append(word[:1].upper() + word[1:])
    return " ".join(out)


def _first_sentence(text: str) -> str:
    for sentence in _SENTENCE_END.split(text):
        if sentence.strip():
            return sentence.strip()
    return ""


def _without_dangling(words: list[str]) -> list[str]:
    """Words without trailing function words ("... Road Trip Through the" ends on "Trip")."""
    out = list(words)
    while len(out) > 1 and out[-1].lower().strip(" .,!?;:-\"'") in (STOPWORDS | _SMALL_WORDS):
        out.pop()
    return out


def topic_of(text: str) -> str:
    """The subject of a brief: its first sentence without a 'write a post about' lead-in, at
    most 8 words and 60 characters, cut on a word boundary and never ending on a function word,
    title-cased."""
    sentence = _first_sentence(plain_text(text))
    sentence = _LEAD_IN.sub("", sentence, count=1).strip() or sentence
    # A clause after a comma or a dash is not part of the subject ("..., notes 123").
    sentence = re.split(r"\s*(?:[,;:(]|\s[-\u2013\u2014]\s)\s*", sentence, maxsplit=1)[0] or sentence
    words = [w for w in re.split(r"\s+", sentence.strip(" .,!?;:\"'()[]")) if w]
    if len(words) > 8:
        # Cut where a phrase starts ("... trip | through the national parks"), not inside one.
        head = words[:8]
        joints = [i for i in range(3, 8) if head[i].lower() in (STOPWORDS | _SMALL_WORDS)]
        words = head[: joints[-1]] if joints else head
    words = _without_dangling(words)
    topic = " ".join(words).strip(" .,!?;:-\"'")
    if not _WORD.search(topic):
        return "This Topic"
    clipped = clip_words(_title_case(topic), 60)
    return " ".join(_without_dangling(clipped.split()))


def keywords_of(*texts: str, limit: int = 10) -> list[str]:
    """Significant words, most frequent first (ties: first seen first)."""
    counts: Counter[str] = Counter()
    first_seen: dict[str, int] = {}
    for text in texts:
        for match in _WORD.finditer(plain_text(text).lower()):
            word = match.group(0).strip("'")
            if len(word) < 3 or word in STOPWORDS or word.isdigit():
                continue
            counts[word] += 1
            first_seen.setdefault(word, len(first_seen))
    ranked = sorted(counts, key=lambda w: (-counts[w], first_seen[w]))
    return ranked[:limit]


def categories_of(keywords: list[str]) -> list[str]:
    scores = {name: sum(1 for k in keywords if k in words) for name, words in _CATEGORY_INDEX.items()}
    ranked = [name for name in _CATEGORY_INDEX if scores[name] > 0]
    ranked.sort(key=lambda name: -scores[name])  # stable: ties keep the table's order
    return ranked[:2] or ["General"]


def fit_length(bases: str | tuple[str, ...], low: int, high: int, phrases: tuple[str, ...] = (), *,
               audience: str = "general", sentence: bool = False) -> str:
    """Text of a length in [low, high] (needs high - low >= 10): the first base that is not too
    long (else the last one, cut at a word), extended when too short.

    Phrases are appended, in order, when they fit; then filler words of at most 9 characters,
    one at a time while the text is shorter than `low`: one word and its space add at most 10,
    so the text never overshoots `high`."""
    noun = AUDIENCE_NOUNS.get(audience, "everyone")
    candidates = [plain_text(b) for b in ((bases,) if isinstance(bases, str) else bases)]
    text = next((c for c in candidates if c and len(c) <= high), None)
    if text is None:
        text = clip_words(next((c for c in reversed(candidates) if c), ""), high)
    if sentence and text and text[-1].isalnum() and len(text) < high:
        text += "."
    for phrase in phrases:
        if len(text) >= low:
            break
        candidate = (text + phrase.format(audience=noun)).strip()
        if len(candidate) <= high:
            text = candidate
    words = iter(FILLER_WORDS * 8)
    while len(text) < low:
        word = next(words)
        text = f"{text} {word}" if text else word
    if sentence and text[-1].isalnum() and len(text) < high:
        text += "."
    return text


# --- the provider ---------------------------------------------------------------------------------
MACHINE_NOTE = ("<p><strong>Machine-made draft</strong> (offline provider, {source} → {target}): the text below "
                "is the original, not yet translated. Translate and review it before publishing.</p>")


class OfflineProvider:
    name = "offline"

    def generate_blog(self, request: BlogRequest) -> dict:
        tone = request.tone if request.tone in TITLE_PATTERNS else "professional"
        audience = request.audience if request.audience in AUDIENCE_NOUNS else "general"
        topic = topic_of(request.input_content)
        keywords = keywords_of(topic, request.input_content)
        if not keywords:
            keywords = [w.lower() for w in topic.split()][:1] or ["topic"]
        title = clip_words(TITLE_PATTERNS[tone].format(topic=topic), 100)
        audience_noun = AUDIENCE_NOUNS[audience]
        adjective = TONE_ADJECTIVES[tone]
        focus = self._focus(topic, keywords)
        excerpt = clip_words(
            f"A {adjective} guide to {topic}, written for {audience_noun}: why it matters, the key ideas "
            "behind it and practical steps to get started.", 200)
        short_description = f"A {adjective} guide to {topic}, written for {audience_noun}."
        tags = [_title_case(k) for k in keywords[:5]]
        raw = {
            "title": title,
            "content": self._content(topic, keywords, tone, audience),
            "excerpt": excerpt,
            "slug": slugify(title),
            "metaTitle": fit_length((title, topic), *META_TITLE_RANGE, META_TITLE_PHRASES, audience=audience),
            "metaDescription": fit_length((excerpt, short_description), *META_DESCRIPTION_RANGE,
                                          META_DESCRIPTION_PHRASES, audience=audience, sentence=True),
            "focusKeyword": focus,
            "tags": tags,
            "categories": categories_of(keywords),
        }
        return blog_result(raw)

    def generate_seo(self, request: SeoRequest) -> dict:
        source = request.title or request.excerpt or request.content
        topic = topic_of(source)
        keywords = keywords_of(request.title, request.excerpt, request.content, limit=KEYWORD_RANGE[1])
        keywords = self._pad_keywords(keywords, topic)
        title_base = request.title or topic
        description_base = (
            request.excerpt
            or " ".join(_SENTENCE_END.split(request.content)[:2]).strip()
            or f"Everything you need to know about {topic}."
        )
        raw = {
            "metaTitle": fit_length((title_base, topic), *META_TITLE_RANGE, META_TITLE_PHRASES),
            "metaDescription": fit_length((description_base, f"Everything you need to know about {topic}."),
                                          *META_DESCRIPTION_RANGE, META_DESCRIPTION_PHRASES, sentence=True),
            "keywords": keywords,
        }
        return seo_result(raw)

    @staticmethod
    def _focus(topic: str, keywords: list[str]) -> str:
        """The topic when it is short, else its first two significant words."""
        if topic == "This Topic":
            return keywords[0]
        words = topic.lower().rstrip("?").split()
        if len(words) <= 3:
            return " ".join(words)
        significant = [w for w in words if w not in STOPWORDS]
        return " ".join(significant[:2]) or keywords[0]

    @staticmethod
    def _pad_keywords(keywords: list[str], topic: str) -> list[str]:
        """5 to 10 distinct keywords: the significant words, then phrases built on the topic."""
        low, high = KEYWORD_RANGE
        out = list(dict.fromkeys(k[:40] for k in keywords))[:high]
        head = topic.lower() if topic != "This Topic" else (out[0] if out else "content")
        head = clip_words(head.rstrip("?"), 40)  # so every phrase stays a short, distinct keyword
        for phrase in (head, f"{head} guide", f"{head} tips", f"{head} examples", f"{head} best practices",
                       f"how to {head}", f"{head} for beginners"):
            if len(out) >= low:
                break
            if phrase not in out:
                out.append(phrase)
        return out

    @staticmethod
    def _content(topic: str, keywords: list[str], tone: str, audience: str) -> str:
        t = escape(topic)
        audience_noun = escape(AUDIENCE_NOUNS[audience])
        key_items = "".join(
            f"<li><strong>{escape(_title_case(k))}</strong>: what it means for {t}, and why it deserves "
            "your attention.</li>"
            for k in keywords[:5]
        )
        main = escape(keywords[0])
        # Headings name the subject once, briefly; the others are about the reader's next step.
        short = escape(_title_case(OfflineProvider._focus(topic, keywords)))
        return (
            f"<h2>Introduction</h2>"
            f"<p>{escape(INTROS[tone].format(topic=topic))} {escape(AUDIENCE_ANGLES[audience])}</p>"
            f"<h2>Why {short} Matters</h2>"
            f"<p>For {audience_noun}, {t} is more than a passing trend. Understanding it helps you make "
            f"better decisions, save time and avoid costly detours. The sooner the basics are in place, "
            f"the sooner the results follow.</p>"
            f"<h2>Key Ideas to Understand</h2>"
            f"<ul>{key_items}</ul>"
            f"<h2>Putting It Into Practice</h2>"
            f"<ol><li>Start small: pick one clear goal related to {main}.</li>"
            f"<li>Set aside regular time and measure what changes.</li>"
            f"<li>Review the results, keep what works and adjust the rest.</li></ol>"
            f"<h2>Common Mistakes to Avoid</h2>"
            f"<p>Trying to do everything at once, skipping the fundamentals and not measuring progress "
            f"are the most common reasons {t} efforts stall. Keep the scope small and the feedback "
            f"loop short.</p>"
            f"<h2>Conclusion</h2>"
            f"<p>{escape(CONCLUSIONS[tone].format(topic=topic))}</p>"
        )

    def translate_post(self, request) -> dict:
        """No model offline: the draft keeps the source's text, HTML structure, links and images,
        and says plainly that it is machine-made and not translated yet (a note first in the
        content, the language in the title), so nobody publishes it by mistake."""
        fields = dict(request.fields)
        note = MACHINE_NOTE.format(source=escape(request.source_language), target=escape(request.target_language))
        fields["content"] = note + (fields.get("content") or "")
        fields["title"] = f"[{request.target_language}, machine draft] {fields.get('title', '')}".strip()
        return fields
