"""Scenarios, their nodes, their saved versions and their runs.

Sharing without accounts: a scenario's slug (the live link) is public to whoever has it; changing it
needs the edit secret, stored only as a hash. Every saved state is a ScenarioVersion whose id is
derived from its scenario and its content, so a permalink always shows exactly that version, and
only its own scenario's (scenarios.permalink_for).
"""

import hashlib
import hmac
import secrets
import string
from typing import Any

from django.db import models
from django.utils import timezone

from playground.packed_frames import PackedFrameField

SLUG_ALPHABET = string.ascii_letters + string.digits
SLUG_LENGTH = 10  # 62^10 ≈ 8e17: not guessable, short enough to read aloud
PERMALINK_LENGTH = 12
MAX_WORKLOAD_BYTES = 256 * 1024  # a workload typed or pasted in the editor


def new_slug() -> str:
    return "".join(secrets.choice(SLUG_ALPHABET) for _ in range(SLUG_LENGTH))


def new_edit_secret() -> str:
    return secrets.token_urlsafe(24)


def hash_secret(secret: str) -> str:
    # The secret is 192 random bits: a fast hash is enough, salting adds nothing.
    return hashlib.sha256(secret.encode()).hexdigest()


class Scenario(models.Model):
    slug = models.CharField(max_length=16, unique=True, default=new_slug, editable=False)
    title = models.CharField(max_length=120)
    description = models.TextField(blank=True, max_length=4000)
    # The workload as written, on the row; empty when it is stored apart (workload_text): an
    # imported cluster's 25 MiB would be rewritten with the row by every edit's version bump.
    stored_workload = models.TextField(db_column="workload_yaml", blank=True)
    workload_text = models.ForeignKey("StoredText", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    scheduler_config_yaml = models.TextField(blank=True)
    version = models.PositiveIntegerField(default=1)
    edit_secret_hash = models.CharField(max_length=64, editable=False)
    forked_from = models.ForeignKey(
        "ScenarioVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks"
    )
    # The editor's own labels and taints to drag onto nodes, beside the common ones: part of the
    # scenario (every editor and tab sees them), not of its versions (they change no cluster).
    palette = models.JSONField(default=list, blank=True)  # [{"kind", "key", "value", "effect"}]
    gallery_key = models.CharField(max_length=64, blank=True, db_index=True)  # set for built-in examples
    gallery_order = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # Not fields: the nodes as an edit left them and the version it saved (playground/board.py's
    # edit), so that the board drawn in answer neither loads 5,000 rows a second time nor looks the
    # version up again (its 5,000 nodes decoded and compared). None: load them.
    edited_nodes: "list[Node] | None" = None
    edited_version: "ScenarioVersion | None" = None
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["gallery_order", "-created_at"]

    def __str__(self) -> str:
        return f"{self.title} ({self.slug})"

    def set_edit_secret(self) -> str:
        secret = new_edit_secret()
        self.edit_secret_hash = hash_secret(secret)
        return secret

    def check_edit_secret(self, secret: str) -> bool:
        return bool(secret) and hmac.compare_digest(self.edit_secret_hash, hash_secret(secret))

    @property
    def is_gallery(self) -> bool:
        return bool(self.gallery_key)

    @property
    def workload_yaml(self) -> str:
        return self.workload_text.text if self.workload_text_id else self.stored_workload

    @workload_yaml.setter
    def workload_yaml(self, text: str) -> None:
        """A workload over MAX_WORKLOAD_BYTES is stored apart, once per content; save() writes the text
        before the row (save with update_fields=WORKLOAD_FIELDS)."""
        if len(text) <= MAX_WORKLOAD_BYTES:
            self.stored_workload, self.workload_text = text, None
            return
        self.stored_workload = ""
        self.workload_text = StoredText(digest=StoredText.digest_of(text), text=text, size=len(text))
        self._unsaved_text = self.workload_text

    @property
    def workload_imported(self) -> bool:
        """Bigger than a typed workload may be (an imported cluster's pods): an edit of it is checked
        within the import's bound, the documents it changed only (playground/workload_changes.py)."""
        return self.workload_text_id is not None or len(self.stored_workload.encode()) > MAX_WORKLOAD_BYTES

    @property
    def workload_digest(self) -> str:
        """The SHA-256 of the workload: read off the row when it is stored apart."""
        return self.workload_text_id or StoredText.digest_of(self.stored_workload)

    def save(self, *args: Any, **kwargs: Any) -> None:
        unsaved: StoredText | None = getattr(self, "_unsaved_text", None)
        if unsaved is not None and self.workload_text is unsaved:
            unsaved.save_once()
            self.workload_text = unsaved  # its primary key is set: the row may refer to it
        self._unsaved_text = None
        super().save(*args, **kwargs)


class Node(models.Model):
    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="nodes")
    name = models.CharField(max_length=253)
    position = models.PositiveIntegerField(default=0)
    labels = models.JSONField(default=dict)
    taints = models.JSONField(default=list)  # [{"key", "value", "effect"}]
    capacity = models.JSONField(default=dict)  # {"cpu": "4", "memory": "16Gi", "pods": "110", ...}
    # What pods fit into (status.allocatable), as an imported node had it; empty: the capacity.
    allocatable = models.JSONField(default=dict, blank=True)
    unschedulable = models.BooleanField(default=False)

    class Meta:
        ordering = ["position", "id"]
        constraints = [models.UniqueConstraint(fields=["scenario", "name"], name="unique_node_name_per_scenario")]

    def __str__(self) -> str:
        return self.name

    # A node saved or deleted one by one moves its scenario's updated_at: the scenario's row then
    # says its content changed, which scenarios.snapshot relies on to skip comparing 5,000 nodes.
    # (Edits change nodes in bulk only after bump(), which moves the row itself.)
    def save(self, *args: Any, **kwargs: Any) -> None:
        super().save(*args, **kwargs)
        self._touch_scenario()

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        deleted = super().delete(*args, **kwargs)
        self._touch_scenario()
        return deleted

    def _touch_scenario(self) -> None:
        # update() writes the row's small columns only: its workload, when big, lives apart.
        Scenario.objects.filter(pk=self.scenario_id).update(updated_at=timezone.now())


class StoredText(models.Model):
    """A big text stored once, by its SHA-256, however many versions hold it: an imported cluster's
    workload (25 MiB for 50,000 pods) is not copied into each version a cordon or a rename makes."""

    digest = models.CharField(max_length=64, primary_key=True)
    text = models.TextField()
    # len(text), kept: SQLite's LENGTH() reads the whole value (25 MiB) to count its characters.
    size = models.PositiveBigIntegerField(default=0)

    @staticmethod
    def digest_of(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    def save_once(self) -> None:
        """Written unless a row of this digest is there already (never read back: it may be 25 MiB);
        another request may be writing the same text meanwhile."""
        if not StoredText.objects.filter(digest=self.digest).exists():
            StoredText.objects.bulk_create([self], ignore_conflicts=True)
        self._state.adding = False


# How a scenario's save names its workload's columns (update_fields).
WORKLOAD_FIELDS = ("stored_workload", "workload_text")


def config_part(scheduler_config_yaml: str) -> str:
    """How a version's document ends with its scheduler configuration (scenarios.export_document)."""
    config = scheduler_config_yaml.strip()
    return "---\n" + config + "\n" if config else ""


class ScenarioVersion(models.Model):
    """An immutable saved state. Its permalink id is a hash of its scenario's slug and its content."""

    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    permalink = models.CharField(max_length=PERMALINK_LENGTH, unique=True)
    title = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    # The whole scenario as one YAML file (nodes, workload, config): see `document`. With the
    # workload stored apart (workload_text), only what comes before the workload.
    stored_document = models.TextField(db_column="document")
    nodes = models.JSONField(default=list)  # the board, as Node rows hold it
    # The workload exactly as written, comments included; empty when stored apart (workload_text).
    stored_workload = models.TextField(db_column="workload_yaml", blank=True)
    workload_text = models.ForeignKey(StoredText, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    scheduler_config_yaml = models.TextField(blank=True)
    # The characters of YAML its own row holds (document, workload, configuration), kept: the bounded
    # history sums it on every edit, and SQLite's LENGTH() read every version's megabytes to count them.
    stored_size = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # `number` is the scenario's version counter when this content was first saved; the same
        # content saved again (an undo) is the same version, so numbers need not be unique.
        ordering = ["-number"]

    def __str__(self) -> str:
        return f"{self.scenario.slug} v{self.number}"

    @property
    def workload_yaml(self) -> str:
        return self.workload_text.text if self.workload_text_id else self.stored_workload

    @workload_yaml.setter
    def workload_yaml(self, text: str) -> None:
        """The workload on the row itself (the document, made whole first, is left as it was)."""
        self.stored_document, self.stored_workload, self.workload_text = self.document, text, None

    @property
    def document(self) -> str:
        """The whole scenario as one YAML file, as scenarios.export_document wrote it."""
        if not self.workload_text_id:
            return self.stored_document
        # One join, not a chain of +: each + copies the 25 MiB of an imported workload again.
        parts = (self.stored_document, self.workload_text.text.strip(), "\n", config_part(self.scheduler_config_yaml))
        return "".join(parts)

    @document.setter
    def document(self, text: str) -> None:
        workload = self.workload_yaml
        self.stored_document, self.stored_workload, self.workload_text = text, workload, None

    @property
    def cluster_document(self) -> str:
        """The document without its trailing KubeSchedulerConfiguration: what the engine loads as
        objects (it takes the configuration apart, from scheduler_config_yaml)."""
        if self.workload_text_id:  # joined without the configuration: no 30 MiB copy to cut it off
            return "".join((self.stored_document, self.workload_text.text.strip(), "\n"))
        config = self.scheduler_config_yaml.strip()
        suffix = "---\n" + config + "\n"
        document = self.document
        if config and document.endswith(suffix):
            return document[: -len(suffix)]
        return document


# A version's columns that grow with the scenario (5,000 nodes: megabytes of JSON and YAML, 40-50 ms
# to decode): a run's listing or a kept run's explanation reads only its number, permalink and
# configuration, and loads these only if it comes to need them (a replay).
VERSION_BULK_FIELDS = ("version__nodes", "version__stored_document", "version__stored_workload")


class RunQuerySet(models.QuerySet["Run"]):
    def with_version(self) -> "RunQuerySet":
        """The runs with their versions joined, the versions' bulky columns left for later."""
        return self.select_related("version").defer(*VERSION_BULK_FIELDS)


class Run(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        FINISHED = "finished"
        FAILED = "failed"
        # Its executor stopped (a server or worker restart) before the end: the stored events are
        # kept, and resuming replays the same version and seed, storing only what is missing.
        INTERRUPTED = "interrupted"

    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="runs")
    version = models.ForeignKey(ScenarioVersion, on_delete=models.CASCADE, related_name="runs")
    seed = models.BigIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Written every few seconds by whoever executes the run; a running run whose heartbeat stopped
    # was interrupted (its process died), whichever process notices it.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # Someone opened the run by its address (?run=<id>): a link to it was shared or kept, so the
    # retention policy (playground/retention.py) never deletes it.
    linked = models.BooleanField(default=False)
    # The Kubernetes API's clock on this run (playground/kubeapi/live.py): simulated second
    # `api_clock_sim` was at Unix second `api_clock_wall`, and simulated time goes on with the wall
    # clock from there. Set when the API first serves the run, or by the API write that made it.
    api_clock_sim = models.FloatField(null=True, blank=True)
    api_clock_wall = models.FloatField(null=True, blank=True)

    objects = RunQuerySet.as_manager()


class RunEvent(models.Model):
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    payload = PackedFrameField()  # the frame, deflated (playground/packed_frames.py)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["run", "seq"], name="unique_event_seq")]
