from typing import Any

from django import template

register = template.Library()


@register.filter
def get_item(mapping: Any, key: str) -> Any:
    """mapping[key] in a template (dict keys with dots or slashes, such as plugin names)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None
