// The event log as `kubectl events` lists it, at the player's position: the engine says in each
// event which row it counts on (firstSeq, count, shownMessage: scheduler_core/store/
// event_correlation.py); this module only gathers the rows and prints their ages as kubectl does.

// duration.HumanDuration (k8s.io/apimachinery), as scheduler_core/store/event_correlation.py's
// human_duration: the same table of cases tests both.
export function kubectlAge(seconds) {
  const whole = Math.trunc(seconds);
  if (whole < -1) return "<invalid>";
  if (whole < 0) return "0s";
  if (whole < 120) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 10) return whole % 60 ? `${minutes}m${whole % 60}s` : `${minutes}m`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(whole / 3600);
  if (hours < 8) return minutes % 60 ? `${hours}h${minutes % 60}m` : `${hours}h`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 ? `${days}d${hours % 24}h` : `${days}d`;
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (hours < 24 * 365 * 8) return days % 365 ? `${years}y${days % 365}d` : `${years}y`;
  return `${years}y`;
}

// The LAST SEEN cell: "5s", or "5s (x3 over 2m)".
export function lastSeen(row, now) {
  const last = kubectlAge(now - row.last.time);
  return row.count > 1 ? `${last} (x${row.count} over ${kubectlAge(now - row.firstTime)})` : last;
}

export function rowMessage(event) {
  return event.shownMessage ?? event.message;
}

// The rows up to frame `position` (exclusive), newest last: each row once, where its latest event
// is, with its count and message then; events the spam filter dropped leave their row as it was.
// `keep(event)` filters, `limit` bounds the rows; `timeOfSeq(seq)` gives a row's first time.
export function groupedRows(frames, position, { limit, keep, timeOfSeq }) {
  const rows = [];
  const seen = new Set();
  for (let index = position - 1; index >= 0 && rows.length < limit; index--) {
    const event = frames[index].event;
    if (!event || event.droppedBySpamFilter) continue;
    const key = event.firstSeq ?? event.seq;
    if (seen.has(key)) continue;
    seen.add(key);
    if (keep && !keep(event)) continue;
    rows.push({ index, last: event, count: event.count ?? 1, firstTime: timeOfSeq(key) ?? event.time, key });
  }
  return rows.reverse();
}
