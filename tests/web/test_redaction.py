"""Edit keys out of log lines, however a path spells them; nothing else in a line changes."""

import logging

import pytest

from playground.redaction import RedactEditKeys, redact, redact_path

KEY = "Zr2q0m1Y3e6d7xKq9pQ8wT5vU4sR1aBc"


@pytest.mark.parametrize(
    ("path", "logged"),
    [
        (f"/s/abc/edit/{KEY}", "/s/abc/edit/[redacted]"),
        (f"/s/abc/edit/{KEY}?next=/", "/s/abc/edit/[redacted]"),
        (f"/s/abc/EDIT/{KEY}", "/s/abc/edit/[redacted]"),
        (f"/s/abc/ed%69t/{KEY}", "/s/abc/edit/[redacted]"),
        (f"/s/abc/ed%2569t%2F{KEY}", "/s/abc/edit/[redacted]"),
        (f"/s/abc/edit/%0A{KEY}", "/s/abc/edit/[redacted]"),
        (f"/s/abc/edit/\n{KEY}", "/s/abc/edit/[redacted]"),  # Django's path, decoded once already
        (f"/s/a%0Ab/edit/%22 {KEY}", "/s/a%0Ab/edit/[redacted]"),
        (f"/s/a%0Ab/ed%69t/{KEY}", "/s/a\\nb/edit/[redacted]"),  # decoded, so escaped: no forged log line
    ],
)
def test_an_edit_key_in_a_path_is_redacted_however_it_is_encoded(path, logged):
    assert redact_path(path) == logged
    if "\n" not in path:  # free text is cut line by line; Django passes the path as an argument
        assert KEY not in redact(f"GET {path} 403")


TOKEN = "kpv_2ed45ed74aa7064f7c1cde4d1a53ec70640bcbcd"


@pytest.mark.parametrize(
    ("path", "logged"),
    [
        (f"/k8s/abc/t/{TOKEN}/api/v1/pods?limit=500", "/k8s/abc/t/[redacted]/api/v1/pods?limit=500"),
        (f"/k8s/abc/t/{TOKEN}", "/k8s/abc/t/[redacted]"),
        (f"/k8s/abc/%74/{TOKEN}/api", "/k8s/abc/t/[redacted]/api"),
        (f"/k8s/abc/t/{TOKEN}%0A/api", "/k8s/abc/t/[redacted]/api"),
    ],
)
def test_an_api_token_in_a_path_is_redacted_and_the_rest_kept(path, logged):
    """Over plain HTTP a scenario's Kubernetes API takes its token in the path (kubectl sends no
    credentials without TLS): the token goes, the resource asked for stays."""
    assert redact_path(path) == logged
    assert TOKEN not in redact(f"GET {path} 200")


def test_free_text_keeps_its_other_lines():
    text = f"Traceback (most recent call last):\n  File x\nValueError: bad path /s/abc/edit/{KEY}"
    assert redact(text) == "Traceback (most recent call last):\n  File x\nValueError: bad path /s/abc/edit/[redacted]"


@pytest.mark.parametrize("line", ["GET /s/abc/edit 200", "POST /s/abc/edit 303", "50% done", "GET /s/a%20b"])
def test_a_line_without_an_edit_key_is_left_alone(line):
    assert redact(line) == line and redact_path(line) == line


def test_the_logging_filter_redacts_arguments_and_tracebacks():
    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, "%s: %s", ("Forbidden", ""), None)
    record.args = ("Forbidden", f"/s/abc/edit/{KEY}")
    try:
        raise ValueError(f"bad path /s/abc/edit/{KEY}")
    except ValueError:
        import sys

        record.exc_info = sys.exc_info()
    assert RedactEditKeys().filter(record) is True  # rewritten, never dropped
    text = logging.Formatter().format(record)
    assert KEY not in text
    assert "Forbidden: /s/abc/edit/[redacted]" in text and "ValueError: bad path /s/abc/edit/[redacted]" in text
