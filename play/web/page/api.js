// api.js — talking to the stackplay server: one GET of a JSON endpoint that
// never throws. Every call resolves to {data} or {error: "one line"}.

// The query string, each name and value percent-encoded (spaces as %20, '/'
// and '#' encoded too, so a board like "..../#..#" survives the trip).
export function queryString(params) {
  return Object.entries(params)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
}

// JSON text parsed with every "seed" number kept as its digits (a string):
// a seed is any 64-bit number, and a JavaScript number rounds one above 2^53.
export function parseKeepingSeeds(text) {
  return JSON.parse(text.replace(/([{,]\s*"seed"\s*:\s*)(\d+)/g, '$1"$2"'));
}

export async function getJSON(path, params = {}) {
  const query = queryString(params);
  const url = query ? `${path}?${query}` : path;
  let response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/json' } });
  } catch (e) {
    return { error: `cannot reach the server (${e && e.message ? e.message : e})` };
  }
  let body = null;
  try {
    body = parseKeepingSeeds(await response.text());
  } catch {
    body = null;
  }
  if (!response.ok) {
    const said = body && typeof body.error === 'string' ? body.error : '';
    return { error: said || `HTTP ${response.status} ${response.statusText}`.trim(), status: response.status };
  }
  if (body === null || typeof body !== 'object') {
    return { error: `${path}: the answer is not JSON` };
  }
  return { data: body };
}

// The /api/table answer, asked once and shared by the views (the explorer
// draws the table; the replay picks its default game by it). An error is
// not remembered: the next call asks again.
let tableAnswer = null;
export function tableInfo() {
  if (!tableAnswer) {
    tableAnswer = getJSON('/api/table').then((answer) => {
      if (answer.error) tableAnswer = null;
      return answer;
    });
  }
  return tableAnswer;
}

// A counter to drop stale answers: take a ticket before a request, and
// after it check that no newer ticket was taken meanwhile.
export class Latest {
  constructor() { this.n = 0; }
  take() { return ++this.n; }
  is(ticket) { return ticket === this.n; }
}
