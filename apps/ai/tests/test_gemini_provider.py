"""The gemini provider through the real google-genai client, against a local server that answers
like the generateContent REST API."""
from __future__ import annotations

import json
import socket

import pytest

from apps.ai.providers.base import BlogRequest, GenerationError, SeoRequest
from apps.ai.providers.gemini import GeminiProvider
from apps.ai.providers.retry import RetryPolicy
from apps.ai.tests.conftest import FAST_RETRY
from apps.ai.tests.fake_gemini import (
    error_reply,
    json_reply,
    quota_failure,
    retry_info,
    text_reply,
)

SEO = {
    "metaTitle": "Brewing Coffee at Home: A Practical Guide for Beginners",
    "metaDescription": "Learn how to brew great coffee at home: beans, grind size, water temperature and the "
                       "tools you need, explained step by step for beginners.",
    "keywords": ["coffee", "brewing", "home barista", "grind size", "pour over"],
}
BLOG = {
    "title": "Brewing Coffee at Home",
    "content": "<h2>Introduction</h2><p onclick=\"steal()\">Good coffee starts with fresh beans.</p>"
               "<script>alert('x')</script><h2>Grind</h2><p>Grind just before brewing.</p>",
    "excerpt": "Everything you need to brew great coffee at home.",
    "slug": "Brewing Coffee -- at Home!",
    "metaTitle": "Brewing Coffee at Home: A Practical Guide for Beginners",
    "metaDescription": "Learn how to brew great coffee at home.",
    "focusKeyword": "brew coffee at home",
    "tags": ["Coffee", "Brewing", "coffee"],
    "categories": ["Food"],
}
SEO_REQUEST = SeoRequest(title="Brewing coffee at home", content="Beans, grind and water.", excerpt="")


def test_seo_success_sends_the_spec_parameters_and_returns_the_metadata(gemini, fake_gemini):
    fake_gemini.script(json_reply(SEO))

    result = gemini.generate_seo(SEO_REQUEST)

    assert result == SEO
    [call] = fake_gemini.requests
    assert call.path == "/v1beta/models/gemini-test:generateContent"
    assert call.headers.get("x-goog-api-key") == "test-key"
    config = call.body["generationConfig"]
    assert config["temperature"] == 0.7
    assert config["topK"] == 40
    assert config["topP"] == 0.95
    assert config["maxOutputTokens"] == 1024
    assert config["responseMimeType"] == "application/json"
    assert set(config["responseSchema"]["required"]) == {"metaTitle", "metaDescription", "keywords"}
    prompt = call.body["contents"][0]["parts"][0]["text"]
    assert "Brewing coffee at home" in prompt and "Beans, grind and water." in prompt


def test_blog_success_is_sanitised_and_normalised(gemini, fake_gemini):
    fake_gemini.script(json_reply(BLOG))

    result = gemini.generate_blog(BlogRequest("How to brew coffee at home", "friendly", "beginners"))

    assert "<script" not in result["content"] and "onclick" not in result["content"]
    assert "<h2>Introduction</h2>" in result["content"]
    assert result["slug"] == "brewing-coffee-at-home"
    assert result["tags"] == ["Coffee", "Brewing"]  # duplicates dropped
    assert result["categories"] == ["Food"]
    assert result["canonicalUrl"] == ""
    config = fake_gemini.requests[0].body["generationConfig"]
    assert config["maxOutputTokens"] == 8192
    prompt = fake_gemini.requests[0].body["contents"][0]["parts"][0]["text"]
    assert "friendly tone" in prompt and "beginners" in prompt and "How to brew coffee at home" in prompt


def test_json_wrapped_in_a_code_fence_is_accepted(gemini, fake_gemini):
    fake_gemini.script(text_reply("```json\n" + json.dumps(SEO) + "\n```"))
    assert gemini.generate_seo(SEO_REQUEST)["keywords"] == SEO["keywords"]


def test_malformed_json_fails_with_the_parse_message_and_is_not_retried(gemini, fake_gemini):
    fake_gemini.script(text_reply('{"metaTitle": "cut off'))

    with pytest.raises(GenerationError) as exc:
        gemini.generate_seo(SEO_REQUEST)

    assert exc.value.message == "Failed to parse AI response"
    assert len(fake_gemini.requests) == 1


@pytest.mark.parametrize("missing", ["metaTitle", "metaDescription", "keywords"])
def test_seo_missing_a_field_is_incomplete(gemini, fake_gemini, missing):
    data = {key: value for key, value in SEO.items() if key != missing}
    fake_gemini.script(json_reply(data))

    with pytest.raises(GenerationError) as exc:
        gemini.generate_seo(SEO_REQUEST)

    assert exc.value.message == "Incomplete SEO data generated"


def test_seo_with_empty_keywords_is_incomplete(gemini, fake_gemini):
    fake_gemini.script(json_reply({**SEO, "keywords": []}))
    with pytest.raises(GenerationError, match="Incomplete SEO data generated"):
        gemini.generate_seo(SEO_REQUEST)


def test_blog_without_content_fails(gemini, fake_gemini):
    fake_gemini.script(json_reply({"title": "Only a title"}))
    with pytest.raises(GenerationError) as exc:
        gemini.generate_blog(BlogRequest("How to brew coffee at home"))
    assert exc.value.message == "Failed to generate blog content"


def test_blog_missing_optional_fields_are_derived(gemini, fake_gemini):
    fake_gemini.script(json_reply({"title": "Brewing Coffee at Home", "content": "<p>Fresh beans matter most.</p>"}))

    result = gemini.generate_blog(BlogRequest("How to brew coffee at home"))

    assert result["slug"] == "brewing-coffee-at-home"
    assert result["excerpt"] == "Fresh beans matter most."
    assert result["metaTitle"] == "Brewing Coffee at Home"
    assert result["metaDescription"] == "Fresh beans matter most."
    assert result["tags"] == [] and result["categories"] == []


def test_no_candidates_means_no_response(gemini, fake_gemini):
    fake_gemini.script((200, {"promptFeedback": {"blockReason": "SAFETY"}}))
    with pytest.raises(GenerationError) as exc:
        gemini.generate_seo(SEO_REQUEST)
    assert exc.value.message == "No response from AI service"


def test_429_with_retry_delay_waits_that_long_then_succeeds(gemini, fake_gemini):
    fake_gemini.script(
        error_reply(429, "RESOURCE_EXHAUSTED", "rate limited", [
            quota_failure("GenerateRequestsPerMinutePerProjectPerModel-FreeTier"), retry_info("0.6s"),
        ]),
        json_reply(SEO),
    )

    assert gemini.generate_seo(SEO_REQUEST) == SEO

    assert len(fake_gemini.requests) == 2
    # The backoff alone would be ~0.05 s; the server asked for 0.6 s.
    assert fake_gemini.gaps()[0] >= 0.6


def test_503_twice_then_success_backs_off_exponentially(gemini, fake_gemini):
    fake_gemini.script(
        error_reply(503, "UNAVAILABLE", "The model is overloaded."),
        error_reply(503, "UNAVAILABLE", "The model is overloaded."),
        json_reply(SEO),
    )

    assert gemini.generate_seo(SEO_REQUEST) == SEO

    assert len(fake_gemini.requests) == 3
    first, second = fake_gemini.gaps()
    assert first >= FAST_RETRY.initial_delay
    assert second >= 2 * FAST_RETRY.initial_delay


@pytest.mark.parametrize("status", [500, 504])
def test_other_server_errors_are_retried(gemini, fake_gemini, status):
    fake_gemini.script(error_reply(status, "INTERNAL"), json_reply(SEO))
    assert gemini.generate_seo(SEO_REQUEST) == SEO
    assert len(fake_gemini.requests) == 2


def test_retries_are_capped(gemini, fake_gemini):
    fake_gemini.default = error_reply(503, "UNAVAILABLE")

    with pytest.raises(GenerationError) as exc:
        gemini.generate_seo(SEO_REQUEST)

    assert exc.value.message == "Gemini API error: 503"
    assert len(fake_gemini.requests) == FAST_RETRY.attempts


@pytest.mark.parametrize("status,name", [(400, "INVALID_ARGUMENT"), (403, "PERMISSION_DENIED"), (404, "NOT_FOUND")])
def test_client_errors_fail_fast(gemini, fake_gemini, status, name):
    fake_gemini.script(error_reply(status, name, "API key not valid"))

    with pytest.raises(GenerationError) as exc:
        gemini.generate_seo(SEO_REQUEST)

    assert exc.value.message == f"Gemini API error: {status}"
    assert len(fake_gemini.requests) == 1


def test_per_day_quota_fails_fast(gemini, fake_gemini):
    fake_gemini.script(error_reply(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota", [
        quota_failure("GenerateRequestsPerDayPerProjectPerModel-FreeTier"), retry_info("3s"),
    ]))

    with pytest.raises(GenerationError) as exc:
        gemini.generate_seo(SEO_REQUEST)

    assert exc.value.message == "Gemini API error: 429"
    assert len(fake_gemini.requests) == 1


def test_a_retry_delay_beyond_the_cap_is_not_waited_for(gemini, fake_gemini):
    fake_gemini.script(error_reply(429, "RESOURCE_EXHAUSTED", "slow down", [retry_info("45s")]))

    with pytest.raises(GenerationError) as exc:
        gemini.generate_seo(SEO_REQUEST)

    assert exc.value.message == "Gemini API error: 429"
    assert len(fake_gemini.requests) == 1


def test_unreachable_service_means_no_response_after_retries():
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    provider = GeminiProvider(api_key="k", model="gemini-test", base_url=f"http://127.0.0.1:{port}",
                              timeout_seconds=2, retry=RetryPolicy(attempts=2, initial_delay=0.01, jitter=0.01))
    with pytest.raises(GenerationError) as exc:
        provider.generate_seo(SEO_REQUEST)
    assert exc.value.message == "No response from AI service"


def test_thinking_budget_is_sent_when_configured(fake_gemini):
    provider = GeminiProvider(api_key="k", model="gemini-test", base_url=fake_gemini.url, thinking_budget=0)
    fake_gemini.script(json_reply(SEO))
    provider.generate_seo(SEO_REQUEST)
    thinking = fake_gemini.requests[0].body["generationConfig"]["thinkingConfig"]
    # The SDK writes this field snake_case; the API's JSON parser accepts both spellings.
    assert thinking in ({"thinkingBudget": 0}, {"thinking_budget": 0})
