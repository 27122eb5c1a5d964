from django import template

from apps.plans.rules import human_bytes

register = template.Library()


@register.filter(name="bytes")
def bytes_(value) -> str:
    return human_bytes(int(value or 0))
