"""Per-request additions to the Content Security Policy that settings.SECURE_CSP cannot express."""

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase
from django.utils.deprecation import MiddlewareMixin


class WebsocketConnectSrcMiddleware(MiddlewareMixin):
    """Lets a page open its websocket: connect-src gets ws:// and wss:// of the host it was served from.

    CSP level 3 browsers already match same-host websockets with 'self'; this names them for the
    others. Listed after django.middleware.csp.ContentSecurityPolicyMiddleware, so it runs first on
    the response and hands that middleware the policy to write, through the same per-response
    override the csp_override decorator uses (and on top of any such view override).
    """

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        config = getattr(response, "_csp_config", settings.SECURE_CSP)
        sources = config.get("connect-src") if config else None
        if sources is None:
            return response
        try:
            host = request.get_host()  # validated against ALLOWED_HOSTS
        except DisallowedHost:
            return response
        if host.startswith("["):  # a CSP host-source cannot name an IPv6 literal; 'self' covers it
            return response
        response._csp_config = {**config, "connect-src": [*sources, f"ws://{host}", f"wss://{host}"]}
        return response
