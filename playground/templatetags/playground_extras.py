import re
from typing import Any

from django import template
from django.conf import settings
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from playground.tile_html import tile_html

register = template.Library()


@register.filter
def get_item(mapping: Any, key: str) -> Any:
    """mapping[key] in a template (dict keys with dots or slashes, such as plugin names)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


OWNER_HUES = 16


@register.filter
def owner_hue(owner: str | None) -> int:
    """A colour bucket for a pod's owner, as static/js/owner-hue.js computes it (the same string
    hash), so a ReplicaSet's pods have one colour whether the server or the player drew them."""
    data = (owner or "").encode("utf-16-le")
    value = 0
    for index in range(0, len(data), 2):
        value = (value * 31 + (data[index] | data[index + 1] << 8)) & 0xFFFFFFFF
    return value % OWNER_HUES


_WORD_START = re.compile(r"(?<=[a-z])(?=[A-Z])")


@register.filter
def camel_breaks(name: str) -> SafeString:
    """A plugin name that may wrap between its words (NodeResources<wbr>Fit), so that a score
    table of ten plugins fits a side panel without a sideways scroll."""
    return mark_safe("<wbr>".join(escape(part) for part in _WORD_START.split(str(name))))


@register.simple_tag
def max_request_bytes() -> int:
    """The most a form may send (DATA_UPLOAD_MAX_MEMORY_SIZE): the page checks it before sending,
    so text over it stays where the person typed or pasted it (static/js/form-limits.js)."""
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)


@register.simple_tag
def max_import_file_bytes() -> int:
    """The most an import's file may hold as sent (IMPORT_MAX_UPLOAD_BYTES): checked by the page
    before sending too, so a file over it costs neither the upload nor the wait."""
    return int(settings.IMPORT_MAX_UPLOAD_BYTES)


@register.simple_tag
def node_tile(card: dict[str, Any]) -> str:
    """The card's compact tile, rendered once for what it shows (playground/tile_html.py)."""
    return mark_safe(tile_html(card))  # the template's own output, escaped there


@register.filter
def is_error_text(stderr: str | None) -> bool:
    """kubectl's errors start so; other stderr lines ("No resources found") are information."""
    return bool(stderr) and str(stderr).startswith(("error", "Error"))
