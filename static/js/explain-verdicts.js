// The verdicts of the explanation shown, by node name: { feasible, reason }. A small cluster's panel
// has a row per node (data-verdict-node); a big one's lists a few and carries every node's verdict
// as one JSON document (#explain-verdicts, playground/explain_table.py).

export function explainVerdicts() {
  const verdicts = new Map();
  for (const row of document.querySelectorAll("#explain [data-verdict-node]")) {
    verdicts.set(row.dataset.verdictNode, { feasible: row.dataset.feasible === "true", reason: row.dataset.reason ?? "" });
  }
  const all = document.querySelector("#explain #explain-verdicts");
  if (!all) return verdicts;
  let document_;
  try {
    document_ = JSON.parse(all.textContent);
  } catch {
    return verdicts;
  }
  for (const name of document_.fits ?? []) verdicts.set(name, { feasible: true, reason: "" });
  for (const [reason, names] of Object.entries(document_.blocked ?? {})) {
    for (const name of names) verdicts.set(name, { feasible: false, reason });
  }
  return verdicts;
}
