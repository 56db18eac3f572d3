// A run's frames arrive with changes to objects shown before as deltas: {"op": "pod~", its key,
// and only the fields that changed} (playground/change_deltas.py). The page reads every frame of a
// run in order from the first, so each delta applies to the object as the frame before left it;
// here it becomes the whole object again before anything else sees the frame.

const IDENTITY = { pod: ["key"], node: ["name"], workload: ["kind", "key"] };

function identity(op, change) {
  const fields = IDENTITY[op];
  return fields ? `${op} ${fields.map((name) => change[name]).join("/")}` : null;
}

// `shown`: a Map kept for the run, from each live object's identity to its last whole frame.
export function expandFrame(frame, shown) {
  if (!frame.changes?.length) return frame;
  const changes = frame.changes.map((change) => {
    const op = change.op;
    if (op.endsWith("~")) {
      const whole = op.slice(0, -1);
      const key = identity(whole, change);
      const expanded = { ...shown.get(key), ...change, op: whole };
      shown.set(key, expanded);
      return expanded;
    }
    if (op.endsWith("-")) {
      const key = identity(op.slice(0, -1), change);
      if (key) shown.delete(key);
      return change;
    }
    const key = identity(op, change);
    if (key) shown.set(key, change);
    return change;
  });
  return { ...frame, changes };
}
