// compare.js — the move-generation view's table of all five algorithms on
// the drawn board: placements and T-spins of each (/api/moves?events=0) and
// what its search cost (the server's search_ms), rows where an algorithm
// finds fewer placements than bfs highlighted.
import { getJSON, Latest } from './api.js';

export const ALGORITHMS = ['harddrop', 'quick', 'bfs', 'convolution', 'convolution-seed'];
const latest = new Latest();

function rows(table) {
  return new Map([...table.tBodies[0].rows].map((tr) => [tr.dataset.algorithm, tr]));
}

// One row per algorithm: tr[data-algorithm] with td.count, td.mini, td.full, td.time, td.diff.
export function buildCompare(table) {
  table.tBodies[0].replaceChildren(...ALGORITHMS.map((name) => {
    const tr = document.createElement('tr');
    tr.dataset.algorithm = name;
    tr.innerHTML = '<th scope="row"></th><td class="count">—</td><td class="mini"></td>' +
      '<td class="full"></td><td class="time"></td><td class="diff"></td>';
    tr.cells[0].textContent = name;
    return tr;
  }));
}

export function markCurrent(table, algorithm) {
  for (const [name, tr] of rows(table)) tr.classList.toggle('current', name === algorithm);
}

// Fetches the five answers for board and piece (with 180° turns when
// rotate180) and fills the rows; calls onError with the first error text, if any.
export async function refreshCompare(table, board, piece, rotate180, onError) {
  const ticket = latest.take();
  const byName = rows(table);
  for (const tr of byName.values()) {
    tr.classList.remove('fewer', 'more', 'failed');
    tr.querySelector('.count').textContent = '…';
    for (const cls of ['mini', 'full', 'time', 'diff']) tr.querySelector(`.${cls}`).textContent = '';
  }
  const answers = await Promise.all(ALGORITHMS.map((algorithm) =>
    getJSON('/api/moves', { board, piece, algorithm, events: 0, rotate180: rotate180 ? 1 : undefined })));
  if (!latest.is(ticket)) return;
  const count = ({ data }) => (data ? data.counts?.placements ?? data.placements?.length ?? 0 : null);
  const bfs = count(answers[ALGORITHMS.indexOf('bfs')]);
  let firstError = '';
  ALGORITHMS.forEach((name, i) => {
    const tr = byName.get(name);
    const { data, error } = answers[i];
    const cell = (cls) => tr.querySelector(`.${cls}`);
    if (error) {
      tr.classList.add('failed');
      cell('count').textContent = '—';
      cell('diff').textContent = error;
      firstError ||= error;
      return;
    }
    const n = count(answers[i]);
    cell('count').textContent = String(n);
    cell('mini').textContent = String(data.counts?.spins_mini ?? '');
    cell('full').textContent = String(data.counts?.spins_full ?? '');
    cell('time').textContent = Number.isFinite(data.search_ms) ? `${formatMs(data.search_ms)} ms` : '';
    if (bfs === null) return;
    if (n < bfs) {
      tr.classList.add('fewer');
      cell('diff').textContent = `misses ${bfs - n}`;
    } else if (n > bfs) {
      tr.classList.add('more');
      cell('diff').textContent = `+${n - bfs}`;
    } else {
      cell('diff').textContent = name === 'bfs' ? 'reference' : 'all';
    }
  });
  if (firstError) onError(firstError);
}

// A search's time: 3 significant digits, at most 3 decimals ("0.012", "1.35").
function formatMs(ms) {
  return ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toPrecision(3) : ms.toFixed(3);
}

// The board or piece changed: the numbers no longer hold (an answer on its
// way is dropped too).
export function clearCompare(table) {
  latest.take();
  for (const tr of rows(table).values()) {
    tr.classList.remove('fewer', 'more', 'failed');
    tr.querySelector('.count').textContent = '—';
    for (const cls of ['mini', 'full', 'time', 'diff']) tr.querySelector(`.${cls}`).textContent = '';
  }
}
