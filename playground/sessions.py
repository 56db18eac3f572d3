"""Sessions in the database, so a browser's edit rights are not bounded by a cookie's 4 KB.

Until 2026-12 sessions were signed cookies: the whole session (one edit secret per scenario) travelled
in the cookie, and Chromium dropped it past 4 KB, with every edit right in it. A browser that still
holds such a cookie is moved over on its first request: its signed data, if the signature holds,
becomes a new database session (a signed cookie value contains ":", a database key never does).
"""

from typing import Any

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.core import signing

LEGACY_SALT = "django.contrib.sessions.backends.signed_cookies"


class SessionStore(DatabaseSessionStore):
    def __init__(self, session_key: str | None = None) -> None:
        legacy = session_key if session_key and ":" in session_key else None
        super().__init__(None if legacy else session_key)
        if legacy:
            data = self._signed_cookie_data(legacy)
            if data:
                self._session_cache = data
                self.modified = True  # saved at the end of this request, under a new database key

    def _signed_cookie_data(self, value: str) -> dict[str, Any]:
        try:
            data = signing.loads(
                value, serializer=self.serializer, max_age=self.get_session_cookie_age(), salt=LEGACY_SALT
            )
        except (signing.BadSignature, ValueError):
            return {}
        return data if isinstance(data, dict) else {}
