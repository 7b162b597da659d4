// The hand bodies a table's log leaves in effect. GET /v1/tables/{id} gives each hand's
// result but not the body it was scored from, so a correction starts from the events
// (GET …/events), read the way the ledger reads them (calculator/ledger/state.py): undo
// takes back the last change in effect (added, corrected or voided), redo makes the last
// undone one again, and any new change empties what redo could make.

const EDITS = new Set(["added", "corrected", "voided"]);

/** The current body of every hand, in order (index 0 is hand 1), from the table's events.
 * A voided hand keeps its body: a void can be undone, and "bring back" sends that body
 * as a correction (which counts the hand again). */
export function currentBodies(events) {
  const inEffect = [];
  let undone = [];
  for (const event of events) {
    if (EDITS.has(event.type)) {
      inEffect.push(event);
      undone = [];
    } else if (event.type === "undone" && inEffect.length) {
      undone.push(inEffect.pop());
    } else if (event.type === "redone" && undone.length) {
      inEffect.push(undone.pop());
    }
  }
  const bodies = [];
  for (const edit of inEffect) {
    if (edit.type === "added") bodies.push(edit.body);
    else if (edit.type === "corrected") bodies[edit.number - 1] = edit.body;
  }
  return bodies;
}
