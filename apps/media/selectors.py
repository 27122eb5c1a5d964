from __future__ import annotations

import uuid

from django.db.models import Q, QuerySet

from apps.core.selectors import get_or_404
from apps.media.models import Media

NOT_FOUND = "Media not found"


def media_list(*, search: str = "") -> QuerySet[Media]:
    """Newest first; `search` matches file name or alt text (case-insensitive)."""
    queryset = Media.objects.select_related("uploaded_by").order_by("-uploaded_at", "-id")
    search = (search or "").strip()
    if search:
        queryset = queryset.filter(Q(file_name__icontains=search) | Q(alt_text__icontains=search))
    return queryset


def media_get(media_id: str | uuid.UUID, *, for_update: bool = False) -> Media:
    queryset = Media.objects.select_related("uploaded_by")
    if for_update:
        queryset = queryset.select_for_update(of=("self",))
    return get_or_404(queryset, media_id, NOT_FOUND)


def media_featured_post_count(media: Media) -> int:
    """How many posts use this media as featured image (Post.featured_image, PROTECT)."""
    return media.featured_in_posts.count()
