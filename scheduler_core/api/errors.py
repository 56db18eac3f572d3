"""Exceptions the engine raises for bad input. Each names where the problem is."""


class ManifestError(Exception):
    """A manifest the engine cannot accept.

    ``document`` names the object ("Deployment default/web", or "document 3" when it has no name yet),
    ``path`` the field (``spec.template.spec.containers[0].resources.requests.cpu``), ``line`` the
    1-based YAML line when known.
    """

    def __init__(self, document: str, path: str, message: str, line: int | None = None, source: str = "") -> None:
        super().__init__(document, path, message, line, source)
        self.document = document
        self.path = path
        self.message = message
        self.line = line
        self.source = source  # the file, when there is one

    def __str__(self) -> str:
        """file:line: Document field: message (as compilers print, so editors can jump to it)."""
        if self.source:
            where = f"{self.source}:{self.line}: " if self.line is not None else f"{self.source}: "
        else:
            where = f"line {self.line}: " if self.line is not None else ""
        subject = " ".join(part for part in (self.document, self.path) if part)
        return f"{where}{subject}: {self.message}" if subject else f"{where}{self.message}"

    def as_dict(self) -> dict[str, object]:
        return {"document": self.document, "path": self.path, "line": self.line, "message": self.message}


class QuantityError(ValueError):
    """A string that is not a Kubernetes quantity."""


class ActionError(Exception):
    """An action that cannot be carried out (its target does not exist...): reported as an event."""
