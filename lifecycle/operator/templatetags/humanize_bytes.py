import json

from django import template

from apps.plans.rules import human_bytes

register = template.Library()


@register.filter(name="as_json")
def as_json(value) -> str:
    """An action's detail as people read JSON ("" when there is none)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True) if value else ""


@register.filter(name="bytes")
def bytes_(value) -> str:
    return human_bytes(int(value or 0))
