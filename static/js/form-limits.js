// A form whose text is over what the server takes in one request (DATA_UPLOAD_MAX_MEMORY_SIZE,
// given on <body>) is not sent: the server would refuse it without reading it, and the answer
// would replace the part of the page that holds the text (an import's pasted kubectl output). The
// form says so instead, and the text stays where it was typed or pasted.

const limit = () => Number(document.body?.dataset.maxRequestBytes ?? 0);

function bytesOf(form) {
  const body = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === "string") body.append(name, value);
  return new TextEncoder().encode(body.toString()).length;
}

function mebibytes(bytes) {
  return `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 1)} MiB`;
}

function showRefusal(form, size) {
  let notice = form.querySelector(":scope > .form-limit");
  if (!notice) {
    notice = document.createElement("p");
    notice.className = "flash error form-limit";
    notice.setAttribute("role", "alert");
    form.prepend(notice);
  }
  const bytes = (count) => count.toLocaleString("en");
  notice.textContent = `This is ${bytes(size)} bytes; the most one request may carry is ${bytes(limit())} bytes (${mebibytes(limit())}). Nothing was sent.`
    + (form.querySelector("textarea[name=nodes_yaml]")
      ? " Strip what the scheduler never reads first, e.g. kubectl get nodes -o yaml | yq 'del(.items[].metadata.managedFields)', or import fewer nodes."
      : "");
}

// Capturing, at the document: this runs before htmx's own handler on the form, and stops it.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !limit() || (form.method || "get").toLowerCase() !== "post") return;
  const size = bytesOf(form);
  if (size <= limit()) {
    form.querySelector(":scope > .form-limit")?.remove();
    return;
  }
  event.preventDefault();
  event.stopImmediatePropagation();
  showRefusal(form, size);
}, true);
