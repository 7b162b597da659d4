// The hand bodies a table's log leaves in effect, and why each hand was last changed.
// GET /v1/tables/{id} gives each hand's result but neither the body it was scored from nor
// the reason of its correction or void, so both come from the events (GET …/events), read
// the way the ledger reads them (calculator/ledger/state.py): undo takes back the last
// change in effect (added, corrected or voided), redo makes the last undone one again, and
// any new change empties what redo could make.

const EDITS = new Set(["added", "corrected", "voided"]);

/** The changes in effect, in the order they were made, and the undone ones redo could
 * make again, the next last. */
function stacks(events) {
  const made = [];
  let undone = [];
  for (const event of events) {
    if (EDITS.has(event.type)) {
      made.push(event);
      undone = [];
    } else if (event.type === "undone" && made.length) {
      undone.push(made.pop());
    } else if (event.type === "redone" && undone.length) {
      made.push(undone.pop());
    }
  }
  return { made, undone };
}

/** The changes in effect, in the order they were made (undone ones left out). */
function inEffect(events) {
  return stacks(events).made;
}

/** What Undo would take back and Redo would make again: each the event of that change
 * ({type: "added" | "corrected" | "voided" | "restored", number, by, …}: "restored", a
 * correction of a hand voided then, which brought it back), or null. */
export function undoRedo(events) {
  const { made, undone } = stacks(events);
  const voided = new Set(); // the hands voided by the changes in effect, up to each
  const kind = (edit) => (edit.type === "corrected" && voided.has(edit.number)
    ? { ...edit, type: "restored" } : edit);
  let undo = null;
  for (const edit of made) {
    undo = kind(edit);
    if (edit.type === "voided") voided.add(edit.number);
    else if (edit.type === "corrected") voided.delete(edit.number);
  }
  const redo = undone.at(-1);
  return { undo, redo: redo ? kind(redo) : null };
}

/** The current body of every hand, in order (index 0 is hand 1), from the table's events.
 * A voided hand keeps its body: a void can be undone, and "bring back" sends that body
 * as a correction (which counts the hand again). */
export function currentBodies(events) {
  const bodies = [];
  for (const edit of inEffect(events)) {
    if (edit.type === "added") bodies.push(edit.body);
    else if (edit.type === "corrected") bodies[edit.number - 1] = edit.body;
  }
  return bodies;
}

/** Why each hand stands as it does: hand number → the last correction or void in effect,
 * {type: "corrected" | "voided", reason, by, at}. A hand never changed since it was added
 * (or whose changes were all undone) has none. */
export function lastEdits(events) {
  const last = new Map();
  for (const edit of inEffect(events)) {
    if (edit.type === "corrected" || edit.type === "voided") {
      last.set(edit.number, { type: edit.type, reason: edit.reason, by: edit.by, at: edit.at });
    }
  }
  return last;
}
