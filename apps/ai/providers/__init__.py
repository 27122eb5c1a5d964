"""AI text providers: `gemini` (Google's Gemini API through google-genai) and `offline`
(deterministic drafts, no network). settings.AI_PROVIDER picks one."""
from __future__ import annotations

from apps.ai.providers.base import BlogRequest, GenerationError, Provider, SeoRequest, TranslateRequest

__all__ = ["BlogRequest", "GenerationError", "Provider", "SeoRequest", "TranslateRequest", "get_provider"]


def get_provider(name: str | None = None) -> Provider:
    from django.conf import settings

    name = (name or settings.AI_PROVIDER or "offline").strip().lower()
    if name == "gemini":
        from apps.ai.providers.gemini import GeminiProvider

        return GeminiProvider.from_settings()
    if name == "offline":
        from apps.ai.providers.offline import OfflineProvider

        return OfflineProvider()
    raise ValueError(f"Unknown AI_PROVIDER {name!r} (use gemini or offline)")
