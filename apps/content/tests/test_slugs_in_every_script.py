"""The slug rule of posts, pages, categories and tags keeps the letters of every script
(docs/content.md#slugs): a title or custom slug in Cyrillic, Arabic or Devanagari gives a slug in
that script (not `post`, `post-2`); ASCII gives what it always gave."""
from __future__ import annotations

import pytest

from apps.core.text import slugify


@pytest.mark.parametrize(("text", "slug"), [
    ("Hello, World!!", "hello-world"),
    ("  My  Custom__Slug!! ", "my-custom-slug"),
    ("Тестовая запись", "тестовая-запись"),
    ("عربی زبان", "عربی-زبان"),
    ("हिन्दी भाषा", "हिन्दी-भाषा"),  # the vowel signs and the virama (combining marks) kept
    ("שָׁלוֹם", "שָׁלוֹם"),
    ("日本語のタイトル", "日本語のタイトル"),
    ("Café déjà vu", "café-déjà-vu"),
    ("Cafe\u0301", "café"),  # NFC: one form for the same letters
    ("!!!", ""),
])
def test_the_unicode_slug_rule(text, slug):
    assert slugify(text, allow_unicode=True) == slug


def test_ascii_text_gets_the_same_slug_under_both_rules():
    for text in ("Hello World", "React & Redux: A Guide", "Top 10 Tips (2024)", "UPPER_case_with_underscores"):
        assert slugify(text, allow_unicode=True) == slugify(text)


@pytest.mark.django_db
def test_a_title_in_another_script_gets_a_slug_in_that_script(api, payload):
    payload["postTitle"] = "Тестовая запись"
    slugs = [api.post("/api/posts/upload", payload).json()["post"]["slug"] for _ in range(2)]
    assert slugs == ["тестовая-запись", "тестовая-запись-2"]


@pytest.mark.django_db
def test_a_custom_slug_in_another_script_is_kept(api, payload):
    payload["customSlug"] = "हिन्दी भाषा"
    post = api.post("/api/posts/upload", payload).json()["post"]
    assert post["slug"] == "हिन्दी-भाषा"
    again = api.put(f"/api/posts/{post['id']}", {"customSlug": post["slug"], "title": "Edited"})
    assert again.status_code == 200 and again.json()["post"]["slug"] == "हिन्दी-भाषा"


@pytest.mark.django_db
def test_a_category_slug_in_another_script_is_accepted(api):
    made = api.post("/api/categories/add", {"name": "خبر", "slug": "خبر"})
    assert made.status_code == 201, made.content
    assert made.json()["category"]["slug"] == "خبر"
