// The public API, as any app calls it: JSON in and out, problem+json errors, bearer
// tokens, Idempotency-Key and If-Match on table writes, If-None-Match on polls.

/** An answer of 400 or more; `problem` is the RFC 9457 body when there is one. */
export class ApiError extends Error {
  constructor(status, problem, retryAfter = null, etag = null) {
    super(problem?.detail ?? `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.retryAfter = retryAfter; // seconds, from a 429's or 503's Retry-After
    this.etag = etag; // a table's answers name its version (a 412: the version now)
  }

  /** The problem's entries ({pointer, code, detail}), or one made from the detail. */
  get entries() {
    const errors = this.problem?.errors;
    if (errors?.length) return errors;
    return [{ pointer: "", code: "", detail: this.message }];
  }

  /** Whether the endpoint itself is missing on this server (not yet deployed). */
  get absent() {
    return this.status === 405 || (this.status === 404 && this.entries[0].code === "not_found");
  }
}

/** No answer by then is no answer: the call fails as when the network does (a write keeps
 * its key for the retry), instead of holding the page for good (a phone whose Wi-Fi died
 * with a request on its way: the browser may wait minutes). The service answers far
 * sooner, past its own deadline (GOSTOP_REQUEST_DEADLINE) with a 503. */
const TIMEOUT_MS = 20000;

/** The call's own signal, if the caller has one (a preview: the next one aborts it, so it
 * never holds the page); else the timeout (where the browser has it). */
function bounded(signal) {
  if (signal || typeof AbortSignal.timeout !== "function") return signal;
  return AbortSignal.timeout(TIMEOUT_MS);
}

/**
 * One call: `{status, etag, data}`; `data` is parsed JSON, text for text answers, null for
 * a 304. Throws ApiError for 400+, TypeError when the network fails, and (a call without
 * `options.signal`) a TimeoutError when no answer came in time.
 */
export async function call(method, path, options = {}) {
  const headers = { Accept: "application/json, application/problem+json, */*" };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.key) headers["Idempotency-Key"] = options.key;
  if (options.ifMatch != null) headers["If-Match"] = `"${options.ifMatch}"`;
  if (options.ifNoneMatch) headers["If-None-Match"] = options.ifNoneMatch;
  let body;
  if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  const response = await fetch(path, { method, headers, body, signal: bounded(options.signal) });
  // the version, as a strong tag: a proxy that compresses the answer makes it weak (nginx:
  // W/"3" for a table read, "3" for a small 412), and the page compares the tags it gets
  const etag = response.headers.get("ETag")?.replace(/^W\//, "") ?? null;
  if (response.status === 304) return { status: 304, etag, data: null };
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (response.status >= 400) {
    const wait = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
    throw new ApiError(response.status, typeof data === "object" ? data : null,
      Number.isFinite(wait) ? wait : null, etag);
  }
  return { status: response.status, etag, data };
}

/**
 * A fresh Idempotency-Key. crypto.randomUUID exists only in secure contexts, and a
 * phone on the table's Wi-Fi opens the page over plain http: getRandomValues works there.
 */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
