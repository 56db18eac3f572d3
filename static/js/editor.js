// The workload editor: line numbers, and validation as you type through the engine's parser
// (debounced); the error's line is highlighted and the message says document, field and line.

const form = document.getElementById("workload-form");
const textarea = document.getElementById("workload");
const gutter = form?.querySelector(".gutter");
const status = document.getElementById("validation");
let timer = null;
let errorLine = null;

function renderGutter() {
  if (!gutter) return;
  const count = textarea.value.split("\n").length;
  let text = "";
  for (let i = 1; i <= count; i++) text += (i === errorLine ? "▶ " : "") + i + "\n";
  gutter.textContent = text;
  gutter.scrollTop = textarea.scrollTop;
}

async function validate() {
  const body = new FormData();
  body.set("yaml", textarea.value);
  body.set("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
  try {
    const response = await fetch(form.dataset.validateUrl, { method: "POST", body, headers: { "X-CSRFToken": body.get("csrfmiddlewaretoken") } });
    const result = await response.json();
    if (result.ok) {
      errorLine = null;
      status.textContent = "✓ valid";
      status.className = "validation ok";
      textarea.removeAttribute("aria-invalid");
    } else {
      const problem = result.problems[0];
      errorLine = problem.line;
      const where = problem.line ? `line ${problem.line}: ` : "";
      const subject = [problem.document, problem.path].filter(Boolean).join(" ");
      status.textContent = `${where}${subject ? subject + ": " : ""}${problem.message}`;
      status.className = "validation error";
      textarea.setAttribute("aria-invalid", "true");
    }
  } catch {
    status.textContent = "could not validate (offline?)";
    status.className = "validation";
  }
  renderGutter();
}

if (form && textarea) {
  textarea.addEventListener("input", () => {
    renderGutter();
    clearTimeout(timer);
    timer = setTimeout(validate, 400);
  });
  textarea.addEventListener("scroll", () => { if (gutter) gutter.scrollTop = textarea.scrollTop; });
  textarea.addEventListener("keydown", (event) => {
    if (event.key === "Tab") {
      event.preventDefault();
      textarea.setRangeText("  ", textarea.selectionStart, textarea.selectionEnd, "end");
      textarea.dispatchEvent(new Event("input"));
    }
  });
  // The board's version moves with every save: keep the editor's form on the current one.
  document.addEventListener("htmx:after:swap", () => {
    const board = document.getElementById("board");
    if (board) document.getElementById("workload-version").value = board.dataset.version;
  });
  renderGutter();
  if (textarea.value.trim()) validate();
}
