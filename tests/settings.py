"""Test settings: the app's own settings, with a throwaway secret so DEBUG can stay off."""

import os

os.environ.setdefault("SECRET_KEY", "insecure-test-secret-key-not-for-production")

from playground.settings import *  # noqa: F403

# Web tests run inside a transaction that a worker thread could not see: runs execute inline.
RUNS_IN_BACKGROUND = False
