"""The smallest fixes for a Pending pod (search.py), one module per scheduler plugin whose
rejections they answer, as scheduler/plugins/ lays the plugins out."""

from scheduler_core.explain.suggestions.fix import Fix
from scheduler_core.explain.suggestions.search import suggest_fixes

__all__ = ["Fix", "suggest_fixes"]
