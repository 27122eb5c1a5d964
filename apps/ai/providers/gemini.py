"""The Gemini provider, through Google's google-genai SDK (generateContent, structured JSON).

The SDK's own retries are off: retries follow Gemini's error semantics in `retry.py`
(honour RetryInfo, fail fast on a per-day quota), which the SDK's generic retry does not.
"""
from __future__ import annotations

import json
import logging
import re
from functools import lru_cache
from typing import Any

from google import genai
from google.genai import errors as genai_errors
from google.genai import types

from apps.ai.providers import prompts
from apps.ai.providers.base import (
    NO_RESPONSE,
    PARSE_FAILED,
    BlogRequest,
    GenerationError,
    SeoRequest,
    api_error_message,
)
from apps.ai.providers.results import blog_result, seo_result, translation_result
from apps.ai.providers.retry import RETRYABLE_STATUSES, ProviderCallError, RetryPolicy, call_with_retries

logger = logging.getLogger(__name__)

try:  # the SDK talks through httpx or its fork httpx2, whichever is installed
    import httpx
except ImportError:  # pragma: no cover
    httpx = None
try:
    import httpx2
except ImportError:  # pragma: no cover
    httpx2 = None
TRANSPORT_ERRORS: tuple[type[BaseException], ...] = tuple(
    module.TransportError for module in (httpx, httpx2) if module is not None
)

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")
_PER_DAY = re.compile(r"per[\s_-]?day", re.IGNORECASE)
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL | re.IGNORECASE)


def _details(error: genai_errors.APIError) -> list[dict]:
    body = error.details if isinstance(error.details, dict) else {}
    inner = body.get("error") if isinstance(body.get("error"), dict) else body
    details = inner.get("details")
    return [item for item in details if isinstance(item, dict)] if isinstance(details, list) else []


def retry_delay_of(error: genai_errors.APIError) -> float | None:
    """Seconds the server asks to wait: RetryInfo.retryDelay ("1.5s"), else Retry-After."""
    for item in _details(error):
        if str(item.get("@type", "")).endswith("google.rpc.RetryInfo"):
            match = _DURATION.match(str(item.get("retryDelay", "")))
            if match:
                return float(match.group(1))
    headers = getattr(getattr(error, "response", None), "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def is_per_day_quota(error: genai_errors.APIError) -> bool:
    """A 429 whose QuotaFailure names a per-day quota: waiting minutes will not help."""
    for item in _details(error):
        if str(item.get("@type", "")).endswith("google.rpc.QuotaFailure"):
            for violation in item.get("violations") or []:
                if isinstance(violation, dict) and (
                    _PER_DAY.search(str(violation.get("quotaId", "")))
                    or _PER_DAY.search(str(violation.get("quotaMetric", "")))
                ):
                    return True
    return False


def classify(error: genai_errors.APIError) -> ProviderCallError:
    status = int(error.code or 0)
    per_day = status == 429 and is_per_day_quota(error)
    return ProviderCallError(
        status,
        retryable=status in RETRYABLE_STATUSES and not per_day,
        retry_after=retry_delay_of(error),
        reason=f"{error.status or ''} {error.message or ''}".strip() + (" (per-day quota)" if per_day else ""),
    )


def parse_json_text(text: str) -> Any:
    fenced = _FENCE.match(text)
    try:
        return json.loads(fenced.group(1) if fenced else text)
    except (TypeError, ValueError) as exc:
        raise GenerationError(PARSE_FAILED, detail=str(exc)) from exc


class GeminiProvider:
    name = "gemini"

    def __init__(self, *, api_key: str, model: str, base_url: str = "", api_version: str = "v1beta",
                 timeout_seconds: float = 60, retry: RetryPolicy | None = None,
                 blog_max_output_tokens: int = 8192, seo_max_output_tokens: int = 1024,
                 thinking_budget: int | None = 0) -> None:
        if not api_key:
            raise ValueError("GEMINI_API_KEY is required for the gemini provider")
        self.model = model
        self.retry = retry or RetryPolicy()
        self.blog_max_output_tokens = blog_max_output_tokens
        self.seo_max_output_tokens = seo_max_output_tokens
        self.thinking_budget = thinking_budget
        http_options = types.HttpOptions(
            base_url=base_url or None,
            api_version=api_version or None,
            timeout=int(timeout_seconds * 1000),
        )
        self.client = genai.Client(api_key=api_key, http_options=http_options)

    @staticmethod
    def settings_kwargs() -> dict:
        from django.conf import settings

        budget = str(settings.GEMINI_THINKING_BUDGET).strip()
        return {
            "api_key": settings.GEMINI_API_KEY,
            "model": settings.GEMINI_MODEL,
            "base_url": settings.GEMINI_BASE_URL,
            "api_version": settings.GEMINI_API_VERSION,
            "timeout_seconds": settings.GEMINI_TIMEOUT_SECONDS,
            "retry": RetryPolicy.from_settings(),
            "blog_max_output_tokens": settings.AI_BLOG_MAX_OUTPUT_TOKENS,
            "seo_max_output_tokens": settings.AI_SEO_MAX_OUTPUT_TOKENS,
            "thinking_budget": int(budget) if budget else None,
        }

    @classmethod
    def from_settings(cls) -> "GeminiProvider":
        """One provider per configuration and process: building the SDK client (its HTTP
        client and TLS context) costs about 250 ms, so it is reused from job to job."""
        return _cached(tuple(sorted(cls.settings_kwargs().items())))

    # --- the two generations ------------------------------------------------------------------
    def generate_blog(self, request: BlogRequest) -> dict:
        raw = self._generate_json(
            prompts.blog_prompt(request), system=prompts.BLOG_SYSTEM, schema=prompts.BLOG_SCHEMA,
            max_output_tokens=self.blog_max_output_tokens,
        )
        return blog_result(raw)

    def generate_seo(self, request: SeoRequest) -> dict:
        raw = self._generate_json(
            prompts.seo_prompt(request), system=prompts.SEO_SYSTEM, schema=prompts.SEO_SCHEMA,
            max_output_tokens=self.seo_max_output_tokens,
        )
        return seo_result(raw)

    def translate_post(self, request) -> dict:
        raw = self._generate_json(
            prompts.translate_prompt(request), system=prompts.TRANSLATE_SYSTEM, schema=prompts.TRANSLATE_SCHEMA,
            max_output_tokens=self.blog_max_output_tokens,
        )
        return translation_result(raw, request)

    # --- one generateContent call, with retries -----------------------------------------------
    def _config(self, *, system: str, schema: dict, max_output_tokens: int) -> types.GenerateContentConfig:
        return types.GenerateContentConfig(
            system_instruction=system,
            temperature=0.7,
            top_k=40,
            top_p=0.95,
            max_output_tokens=max_output_tokens,
            response_mime_type="application/json",
            response_schema=schema,
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
            thinking_config=(
                types.ThinkingConfig(thinking_budget=self.thinking_budget)
                if self.thinking_budget is not None else None
            ),
        )

    def _call_once(self, prompt: str, config: types.GenerateContentConfig) -> types.GenerateContentResponse:
        try:
            return self.client.models.generate_content(model=self.model, contents=prompt, config=config)
        except genai_errors.APIError as exc:
            raise classify(exc) from exc
        except TRANSPORT_ERRORS as exc:
            raise ProviderCallError(None, retryable=True, reason=f"{type(exc).__name__}: {exc}") from exc

    def _generate_json(self, prompt: str, *, system: str, schema: dict, max_output_tokens: int) -> Any:
        config = self._config(system=system, schema=schema, max_output_tokens=max_output_tokens)
        try:
            response = call_with_retries(lambda: self._call_once(prompt, config), self.retry)
        except ProviderCallError as exc:
            logger.warning("Gemini call failed for good: %s", exc)
            if exc.status is None:
                raise GenerationError(NO_RESPONSE, detail=exc.reason) from exc
            raise GenerationError(api_error_message(exc.status), detail=exc.reason) from exc
        text = self._text_of(response)
        if not text:
            raise GenerationError(NO_RESPONSE, detail=self._why_empty(response))
        return parse_json_text(text)

    @staticmethod
    def _text_of(response: types.GenerateContentResponse) -> str:
        candidates = response.candidates or []
        if not candidates or candidates[0].content is None:
            return ""
        parts = candidates[0].content.parts or []
        # Thought parts (when thinking is on) are not the answer.
        return "".join(part.text for part in parts if part.text and not part.thought).strip()

    @staticmethod
    def _why_empty(response: types.GenerateContentResponse) -> str:
        feedback = response.prompt_feedback
        if feedback is not None and feedback.block_reason:
            return f"prompt blocked: {feedback.block_reason}"
        candidates = response.candidates or []
        if candidates:
            return f"finish reason: {candidates[0].finish_reason}"
        return "no candidates"


@lru_cache(maxsize=4)
def _cached(config: tuple) -> GeminiProvider:
    return GeminiProvider(**dict(config))
