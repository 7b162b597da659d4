// What the device remembers: language, last roster, rule set, the tables it opened.
// Private browsing or a full disk makes localStorage throw: the page then just forgets.
const PREFIX = "gostop.";

/** The value stored under `key`, or `fallback`. */
export function load(key, fallback = null) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

/** Remember `value` under `key` (JSON). */
export function save(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // nothing to do: the page works without memory
  }
}
