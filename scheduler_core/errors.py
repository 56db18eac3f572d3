"""Exceptions the engine raises for bad input. Each names where the problem is."""


class ManifestError(Exception):
    """A manifest the engine cannot accept.

    ``document`` names the object ("Deployment default/web", or "document 3" when it has no name yet),
    ``path`` the field (``spec.template.spec.containers[0].resources.requests.cpu``), ``line`` the
    1-based YAML line when known.
    """

    def __init__(self, document: str, path: str, message: str, line: int | None = None) -> None:
        super().__init__(document, path, message, line)
        self.document = document
        self.path = path
        self.message = message
        self.line = line

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        field = f" {self.path}:" if self.path else ":"
        return f"{where}{self.document}{field} {self.message}"

    def as_dict(self) -> dict[str, object]:
        return {"document": self.document, "path": self.path, "line": self.line, "message": self.message}


class QuantityError(ValueError):
    """A string that is not a Kubernetes quantity."""
