// The import form's progress bar. An import names itself with a random token in a request header
// (X-Import-Progress); while its answer is awaited the page asks the server how far it has come
// (sending the files, reading the nodes, reading the pods, saving: playground/import_progress.py)
// twice a second and draws it. Without JavaScript the form still imports, without the bar.

const POLL_MS = 500;
const HEADER = "X-Import-Progress";
let current = null; // { form, token, timer, started, phase }

function importForm(event) {
  const source = event.detail?.ctx?.sourceElement ?? event.target;
  return source instanceof Element ? source.closest(".import-form") : null;
}

function newToken() {
  // getRandomValues works on plain http too (randomUUID needs a secure context).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function parts(form) {
  const box = form.querySelector("[data-import-progress]");
  return box && {
    box,
    bar: box.querySelector("progress"),
    stage: box.querySelector(".import-stage"),
    detail: box.querySelector(".import-detail"),
  };
}

function draw(state, answer) {
  const view = parts(state.form);
  if (!view) return;
  const seconds = Math.round((performance.now() - state.started) / 1000);
  if (answer?.phase) {
    view.bar.value = answer.overall * 100;
    if (answer.phase !== state.phase) {
      state.phase = answer.phase;
      view.stage.textContent = `${answer.label} (${answer.step} of ${answer.steps})…`; // announced once a phase (role=status)
    }
    view.detail.textContent = `${Math.round(answer.overall * 100)}% · ${seconds} s`;
  } else if (state.phase) {
    view.detail.textContent = `${seconds} s`; // over, or asked of another process: the last stage stays
  }
}

async function poll(state) {
  if (current !== state) return;
  const url = `${state.form.dataset.progressUrl}${state.token}`;
  try {
    const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (response.ok && current === state) draw(state, await response.json());
  } catch {
    // the server is busy or gone: the import's own answer says what happened
  }
  if (current === state) state.timer = setTimeout(() => poll(state), POLL_MS);
}

function stop() {
  if (!current) return;
  clearTimeout(current.timer);
  current = null;
}

document.addEventListener("htmx:config:request", (event) => {
  const form = importForm(event);
  if (!form) return;
  form.dataset.importToken = newToken();
  event.detail.ctx.request.headers[HEADER] = form.dataset.importToken;
});

document.addEventListener("htmx:before:request", (event) => {
  const form = importForm(event);
  if (!form?.dataset.importToken) return;
  stop();
  const view = parts(form);
  if (view) {
    view.bar.removeAttribute("value"); // indeterminate until the server has something to say
    view.stage.textContent = "Sending the files (1 of 4)…";
    view.detail.textContent = "";
  }
  // Shown once htmx marks the indicator: then brought into view, under the button just pressed.
  requestAnimationFrame(() => view?.box.scrollIntoView({ block: "nearest" }));
  current = { form, token: form.dataset.importToken, timer: 0, started: performance.now(), phase: "" };
  current.timer = setTimeout(() => poll(current), POLL_MS / 2);
});

document.addEventListener("htmx:finally:request", (event) => {
  if (importForm(event) && current?.form === importForm(event)) stop();
});
