// A form whose text is over what the server takes in one request (DATA_UPLOAD_MAX_MEMORY_SIZE,
// given on <body>) is not sent: the server would refuse it without reading it, and the answer
// would replace the part of the page that holds the text (an import's pasted kubectl output). The
// form says so instead, and the text stays where it was typed or pasted.

const limit = () => Number(document.body?.dataset.maxRequestBytes ?? 0);

// What the server counts against its limit: a URL-encoded body as sent; a multipart form's fields
// as they are (Django counts the fields' bytes, not the boundaries between them).
function bytesOf(form) {
  const encoder = new TextEncoder();
  const fields = [...new FormData(form)].filter(([, value]) => typeof value === "string");
  if (form.enctype === "multipart/form-data") {
    return fields.reduce((sum, [name, value]) => sum + encoder.encode(name).length + encoder.encode(value).length, 0);
  }
  const body = new URLSearchParams();
  for (const [name, value] of fields) body.append(name, value);
  return encoder.encode(body.toString()).length;
}

function mebibytes(bytes) {
  return `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 1)} MiB`;
}

function notice(form) {
  let element = form.querySelector(":scope > .form-limit");
  if (!element) {
    element = document.createElement("p");
    element.className = "flash error form-limit";
    element.setAttribute("role", "alert");
    form.prepend(element);
  }
  return element;
}

function showRefusal(form, size) {
  const bytes = (count) => count.toLocaleString("en");
  notice(form).textContent = `This is ${bytes(size)} bytes; the most one request may carry is ${bytes(limit())} bytes (${mebibytes(limit())}). Nothing was sent.`
    + (form.querySelector("textarea[name=nodes_yaml]")
      ? " Strip what the scheduler never reads first, e.g. kubectl get nodes -o yaml | yq 'del(.items[].metadata.managedFields)', or import fewer nodes."
      : "");
}

// A chosen file over its input's data-max-bytes (an import's file, IMPORT_MAX_UPLOAD_BYTES): the
// server would drop it unread after the whole upload; the page says so before sending any of it.
function oversizedFile(form) {
  for (const input of form.querySelectorAll("input[type=file][data-max-bytes]")) {
    const most = Number(input.dataset.maxBytes);
    for (const file of input.files ?? []) if (most && file.size > most) return { file, most };
  }
  return null;
}

function showFileRefusal(form, { file, most }) {
  notice(form).textContent = `${file.name} is ${mebibytes(file.size)}; an import takes files of at most ${mebibytes(most)}.`
    + " Nothing was sent. Gzip it first (kubectl's YAML compresses about tenfold), or strip managedFields.";
}

// Capturing, at the document: this runs before htmx's own handler on the form, and stops it.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || (form.method || "get").toLowerCase() !== "post") return;
  const file = oversizedFile(form);
  const size = limit() ? bytesOf(form) : 0;
  if (!file && size <= limit()) {
    form.querySelector(":scope > .form-limit")?.remove();
    return;
  }
  event.preventDefault();
  event.stopImmediatePropagation();
  if (file) showFileRefusal(form, file);
  else showRefusal(form, size);
}, true);
