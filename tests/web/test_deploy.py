"""`manage.py check --deploy` is clean with the environment a production deployment sets (README,
"Deploying"), and the local default (`make run`: plain http on 127.0.0.1) stays what it was."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "ALLOWED_HOSTS": "playground.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://playground.example.com",
    "SECURE_COOKIES": "1",
    "SECURE_SSL_REDIRECT": "1",
    "HSTS_SECONDS": "31536000",
    "HSTS_PRELOAD": "1",
}
SETTINGS_VARIABLES = {*PRODUCTION, "SECRET_KEY", "HSTS_INCLUDE_SUBDOMAINS", "DATABASE_URL", "REDIS_URL"}


def check_deploy(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARIABLES}
    environment = (
        clean
        | {
            "DJANGO_SETTINGS_MODULE": "playground.settings",
            "PLAYGROUND_VAR_DIR": str(tmp_path),
            "SECRET_KEY": secrets.token_urlsafe(50),
        }
        | env
    )
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_deploy_check_is_clean_with_the_production_environment(tmp_path):
    result = check_deploy(tmp_path, **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_the_local_default_is_plain_http_and_the_deploy_check_says_what_production_adds(tmp_path):
    result = check_deploy(tmp_path, DEBUG="0")
    assert result.returncode != 0
    found = {code for code in ("W004", "W008", "W012", "W016") if f"security.{code}" in result.stderr}
    assert found == {"W004", "W008", "W012", "W016"}, result.stderr  # HSTS, https redirect, secure cookies
    assert "W009" not in result.stderr and "W020" not in result.stderr  # a real key, a host list
