// moves.js — the move-generation view: a board to draw on, /api/moves for the
// drawn board, and the search's events animated (reached, popped, placeable),
// the placements listed as the animation finds them, then coloured by spin,
// each clickable for its cells and inputs; and the bot's decision on the
// board (bot.js).
import { getJSON, Latest } from './api.js';
import * as bot from './bot.js';
import { buildCompare, clearCompare, markCurrent, refreshCompare } from './compare.js';
import { makeGrid } from './grid.js';
import { cellList, cellsKey, locationCells, placeWords, rotationWords, spellInputs } from './shapes.js';
import { LIMITS } from './tables.js';

// A cell's tint: the most telling thing seen there so far.
const TINTS = ['', 't-r', 't-p', 't-ok', 't-mini', 't-full'];
const CURRENT = ['', 'cur-r', 'cur-p', 'cur-ok', 'cur-mini', 'cur-full'];
const KIND_CODE = { reached: 1, popped: 2, placeable: 3 };
const SPIN_RANK = { none: 0, mini: 1, full: 2 };
const SPIN_BIT = { none: 1, mini: 2, full: 4 };
const NO_SELECTION = 'Click a placement to see its cells and inputs.';

const $ = (id) => document.getElementById(id);

const state = {
  width: 10,
  height: 20,
  extra: 2,        // rows drawn above the board, where pieces spawn
  filled: [],      // filled[y][x], y from the floor
  grid: null,
  marks: [],       // marks[y][x] = {tint, cur, fin, sel, bot} over the drawn rows
  run: null,       // the answer being animated and how far it got
  mode: 'ready',   // ready | loading | playing | paused | done | error
  selected: -1,
  current: [],     // cells of the current event's location
  frame: 0,        // requestAnimationFrame id
  bot: [],         // cells of the bot's choice
};
const loads = new Latest();

// ---------- the board ----------

function newBoard(width, height) {
  state.width = width;
  state.height = height;
  state.filled = Array.from({ length: height }, () => new Array(width).fill(false));
  buildGrid();
}

function buildGrid() {
  state.grid = makeGrid($('moves-board'), state.width, state.height,
    { extra: state.extra, maxHeight: 600, maxWidth: 420 });
  state.marks = Array.from({ length: state.grid.total },
    () => Array.from({ length: state.width }, () => ({ tint: 0, cur: 0, fin: '', sel: false, bot: false })));
  state.current = [];
  for (const [x, y] of state.bot) if (onBoard(x, y)) state.marks[y][x].bot = true;
  renderAll();
}

function render(x, y) {
  const el = state.grid.at(x, y);
  if (!el) return;
  const m = state.marks[y][x];
  let cls = y < state.height ? 'cell' : 'buffer';
  if (y < state.height && state.filled[y][x]) cls += ' filled';
  else if (m.fin) cls += ` f-${m.fin}`;
  else if (m.tint) cls += ` ${TINTS[m.tint]}`;
  if (m.cur) cls += ` cur ${CURRENT[m.cur]}`;
  if (m.sel) cls += ' sel';
  if (m.bot) cls += ' bot';
  el.className = cls;
}

function renderAll() {
  for (let y = 0; y < state.grid.total; y++) for (let x = 0; x < state.width; x++) render(x, y);
}

function onBoard(x, y) {
  return x >= 0 && x < state.width && y >= 0 && y < state.grid.total;
}

// Rows top first, '.' empty and '#' filled, joined by '/'.
function boardText() {
  const rows = [];
  for (let y = state.height - 1; y >= 0; y--) rows.push(state.filled[y].map((f) => (f ? '#' : '.')).join(''));
  return rows.join('/');
}

function setFilled(x, y, value) {
  if (y >= state.height || state.filled[y][x] === value) return;
  state.filled[y][x] = value;
  render(x, y);
}

// Click toggles a cell; pressing and dragging paints (or erases) a stroke.
function wireBoard() {
  const board = $('moves-board');
  let stroke = null; // {value, painted}
  let dragged = false;
  const cellOf = (target) => {
    const el = target.closest && target.closest('#moves-board .cell');
    return el ? [Number(el.dataset.x), Number(el.dataset.y)] : null;
  };
  board.addEventListener('pointerdown', (e) => {
    const at = cellOf(e.target);
    dragged = false;
    stroke = at ? { value: !state.filled[at[1]][at[0]], start: at } : null;
  });
  board.addEventListener('pointerover', (e) => {
    if (!stroke || !(e.buttons & 1)) return;
    const at = cellOf(e.target);
    if (!at || (at[0] === stroke.start[0] && at[1] === stroke.start[1] && !dragged)) return;
    if (!dragged) { invalidate(); setFilled(stroke.start[0], stroke.start[1], stroke.value); }
    dragged = true;
    setFilled(at[0], at[1], stroke.value);
  });
  window.addEventListener('pointerup', () => { stroke = null; });
  board.addEventListener('click', (e) => {
    if (dragged) { dragged = false; return; }
    const at = cellOf(e.target);
    if (!at) return;
    invalidate();
    setFilled(at[0], at[1], !state.filled[at[1]][at[0]]);
  });
}

// ---------- status ----------

function setMode(mode) {
  state.mode = mode;
  $('moves-status').textContent = mode;
  $('moves-play').disabled = mode === 'playing' || mode === 'loading';
  $('moves-pause').disabled = mode !== 'playing';
  $('moves-end').disabled = mode === 'loading' || mode === 'done';
}

function showError(text) {
  $('moves-error').textContent = text || '';
}

function clearSearchMarks() {
  for (const row of state.marks) for (const m of row) { m.tint = 0; m.cur = 0; m.fin = ''; m.sel = false; }
  state.current = [];
  state.selected = -1;
}

// Anything the answer was for changed: stop and forget the run (and, when
// the board, the piece or the turns changed, the comparison and the bot's
// decision).
function invalidate(boardChanged = true) {
  loads.take();
  if (boardChanged) {
    clearCompare($('moves-compare'));
    $('moves-compare-note').textContent = 'Shown when the animation ends.';
    bot.clear();
  }
  stopLoop();
  state.run = null;
  clearSearchMarks();
  renderAll();
  $('moves-count').textContent = '—';
  $('moves-turns').textContent = '—';
  $('moves-progress').textContent = '';
  $('moves-placements').replaceChildren();
  $('moves-inputs').textContent = NO_SELECTION;
  showError('');
  setMode('ready');
}

// The bot's choice drawn on the board (no cells: none).
function markBot(cells) {
  for (const [x, y] of state.bot) if (onBoard(x, y)) state.marks[y][x].bot = false;
  state.bot = cells.filter(([x, y]) => onBoard(x, y));
  for (const [x, y] of state.bot) state.marks[y][x].bot = true;
  renderAll();
}

// ---------- one answer ----------

async function load() {
  const ticket = loads.take();
  stopLoop();
  showError('');
  setMode('loading');
  const piece = $('moves-piece').value;
  const { data, error } = await getJSON('/api/moves', { board: boardText(), piece,
    algorithm: $('moves-algorithm').value, rotate180: rotate180() ? 1 : undefined });
  if (!loads.is(ticket)) return false;
  if (error) {
    showError(error);
    setMode('error');
    return false;
  }
  startRun(data, piece);
  return true;
}

function startRun(data, piece) {
  const placements = Array.isArray(data.placements) ? data.placements : [];
  const events = Array.isArray(data.events) ? data.events : [];
  const kinds = (data.event_kinds || ['reached', 'popped', 'placeable']).map((k) => KIND_CODE[k] || 1);
  const spinAt = new Map();
  for (const p of placements) {
    const key = `${p.x},${p.y},${p.rotation}`;
    const old = spinAt.get(key);
    if (!old || SPIN_RANK[p.spin] > SPIN_RANK[old]) spinAt.set(key, p.spin);
  }
  // Make room above the board for the highest location drawn.
  let top = state.height - 1;
  const see = (cells) => { for (const [, y] of cells) top = Math.max(top, y); };
  for (const e of events) see(locationCells(piece, e[1], e[2], e[3]));
  for (const p of placements) see(p.cells || []);
  const extra = Math.min(8, Math.max(2, top - state.height + 1));
  if (extra !== state.extra) { state.extra = extra; buildGrid(); }

  clearSearchMarks();
  renderAll();
  // Each placement by its cells: a placeable event reveals the placement
  // with its cells the first time one is played.
  const byCells = new Map(placements.map((p, i) => [cellsKey(p.cells || []), i]));
  state.run = { data, piece, placements, events, kinds, spinAt, byCells, found: [], listed: new Set(), pos: 0,
    seen: [0, 0, 0, 0], budget: 0 };
  $('moves-turns').textContent = data.rotate180 === true ? '90° and 180°' : '90° only';
  const list = $('moves-placements');
  list.replaceChildren();
  list.scrollTop = 0;
  $('moves-inputs').textContent = NO_SELECTION;
  showCount();
  progress();
}

// The placements found so far while the animation plays; the API's count
// once it is over.
function showCount() {
  const run = state.run;
  const box = $('moves-count');
  if (!run) { box.textContent = '—'; return; }
  if (state.mode === 'done') {
    const counts = run.data.counts;
    box.textContent = String(counts && Number.isFinite(counts.placements) ? counts.placements : run.placements.length);
    return;
  }
  const soFar = document.createElement('span');
  soFar.className = 'muted';
  soFar.textContent = ' found so far';
  box.replaceChildren(String(run.found.length), soFar);
}

// A placeable event: lists the placement with these cells, if not yet listed.
function reveal(cells) {
  const run = state.run;
  const index = run.byCells.get(cellsKey(cells));
  if (index === undefined || run.listed.has(index)) return;
  run.listed.add(index);
  run.found.push(index);
  $('moves-placements').append(placementItem(run.placements[index], index));
}

// Applies one event to the tints; returns its code and cells.
function apply(event) {
  const run = state.run;
  const [k, x, y, rotation] = event;
  let code = run.kinds[k] || 1;
  run.seen[code] += 1;
  if (code === 3) {
    const spin = run.spinAt.get(`${x},${y},${rotation}`);
    if (spin === 'mini') code = 4;
    if (spin === 'full') code = 5;
  }
  const cells = locationCells(run.piece, x, y, rotation);
  if (code >= 3) reveal(cells);
  for (const [cx, cy] of cells) {
    if (!onBoard(cx, cy)) continue;
    const m = state.marks[cy][cx];
    if (m.tint < code) { m.tint = code; render(cx, cy); }
  }
  return { code, cells };
}

function setCurrent(cells, code) {
  for (const [x, y] of state.current) { state.marks[y][x].cur = 0; render(x, y); }
  state.current = cells.filter(([x, y]) => onBoard(x, y));
  for (const [x, y] of state.current) { state.marks[y][x].cur = code; render(x, y); }
}

function progress() {
  const run = state.run;
  if (!run) return;
  const [, r, p, ok] = run.seen;
  $('moves-progress').textContent =
    `${run.pos} of ${run.events.length} (reached ${r}, popped ${p}, placeable ${ok})`;
}

// A cell's colour from the spins of the placements covering it: its best
// spin, or both colours where a T-spin mini and a full T-spin cover it.
function finishColour(bits) {
  if ((bits & SPIN_BIT.mini) && (bits & SPIN_BIT.full)) return 'both';
  if (bits & SPIN_BIT.full) return 'full';
  if (bits & SPIN_BIT.mini) return 'mini';
  return 'none';
}

// The end: every placement listed in the API's order and drawn, each cell
// in its spins' colours, and the five algorithms compared.
function finish() {
  stopLoop();
  const run = state.run;
  setCurrent([], 0);
  const bits = state.marks.map((row) => row.map(() => 0));
  for (const p of run.placements) {
    const spinBits = (p.spins || [p.spin]).reduce((b, spin) => b | (SPIN_BIT[spin] ?? SPIN_BIT.none), 0);
    for (const [x, y] of p.cells || []) if (onBoard(x, y)) bits[y][x] |= spinBits;
  }
  state.marks.forEach((row, y) => row.forEach((m, x) => { m.fin = bits[y][x] ? finishColour(bits[y][x]) : ''; }));
  if (run.found.length !== run.placements.length || run.found.some((index, i) => index !== i)) {
    listPlacements(run.placements);
  }
  run.found = run.placements.map((_, i) => i);
  run.listed = new Set(run.found);
  renderAll();
  setMode('done');
  showCount();
  progress();
  compareAll();
}

// Advances n events (drawing the last one as the current location).
function advance(n) {
  const run = state.run;
  let last = null;
  for (let i = 0; i < n && run.pos < run.events.length; i++) last = apply(run.events[run.pos++]);
  if (last) setCurrent(last.cells, last.code);
  showCount();
  progress();
  if (run.pos >= run.events.length) finish();
}

// ---------- the animation loop ----------

function eventsPerSecond() {
  return Math.max(1, Math.round(10 ** (Number($('moves-speed').value) / 25)));
}

function showSpeed() {
  $('moves-speed-label').textContent = `${eventsPerSecond()} events/s`;
}

function startLoop() {
  stopLoop();
  let last = performance.now();
  const tick = (now) => {
    if (state.mode !== 'playing' || !state.run) return;
    const run = state.run;
    run.budget += (Math.min(now - last, 250) / 1000) * eventsPerSecond();
    last = now;
    const n = Math.floor(run.budget);
    run.budget -= n;
    if (n > 0) advance(n);
    if (state.mode === 'playing') state.frame = requestAnimationFrame(tick);
  };
  if (state.run.pos >= state.run.events.length) { finish(); return; }
  state.frame = requestAnimationFrame(tick);
}

function stopLoop() {
  if (state.frame) cancelAnimationFrame(state.frame);
  state.frame = 0;
}

function rotate180() {
  return $('moves-rotate180').checked;
}

function compareAll() {
  const turns = rotate180() ? ', with 180° turns' : '';
  $('moves-compare-note').textContent = `${$('moves-piece').value} on this board${turns}.`;
  refreshCompare($('moves-compare'), boardText(), $('moves-piece').value, rotate180(), (error) => {
    if (!$('moves-error').textContent) showError(error);
  });
}

async function play() {
  if (state.run && state.mode === 'paused' && state.run.pos < state.run.events.length) {
    setMode('playing');
    startLoop();
    return;
  }
  if (await load()) {
    setMode('playing');
    startLoop();
  }
}

function pause() {
  if (state.mode !== 'playing') return;
  stopLoop();
  setMode('paused');
}

async function step() {
  if (state.mode === 'loading') return;
  if (state.mode === 'playing') { pause(); return; }
  if (!state.run || state.mode === 'done' || state.mode === 'error') {
    if (!(await load())) return;
    setMode('paused');
  }
  advance(1);
  if (state.mode !== 'done') setMode('paused');
}

// Skips the rest of the animation: every remaining event at once.
async function toEnd() {
  if (state.mode === 'loading') return;
  if (!state.run || state.mode === 'done' || state.mode === 'error') {
    if (!(await load())) return;
  }
  advance(state.run.events.length - state.run.pos);
  if (state.mode !== 'done') finish();
}

// ---------- placements ----------

// Is the placement reached both as a T-spin mini and as a full T-spin (by
// different last moves)? The API's `spin` names the best; `spins` all.
function bothSpins(p) {
  return (p.spins || []).includes('mini') && (p.spins || []).includes('full');
}

// One placement of the list: its rotation, where its cells are, its spin
// and its inputs. (An <ol> numbers it; value is its number in the API's list.)
function placementItem(p, index) {
  const li = document.createElement('li');
  li.dataset.index = index;
  li.value = index + 1;
  li.className = `spin-${p.spin}`;
  if (index === state.selected) li.classList.add('selected');
  const swatch = document.createElement('span');
  const both = bothSpins(p);
  swatch.className = `swatch f-${both ? 'both' : SPIN_RANK[p.spin] === undefined ? 'none' : p.spin}`;
  const spin = both ? ' · T-spin full and mini' : p.spin === 'none' ? '' : ` · T-spin ${p.spin}`;
  li.append(swatch, `${placeWords(p.rotation, p.cells)}${spin}${kickWords(p.kick, ' · ')} `);
  const code = document.createElement('code');
  code.textContent = p.inputs ?? '';
  li.append(code);
  return li;
}

// The SRS kick the placement's last turn used ('' when it needs none): kick
// 0 is the turn in place, 1-4 the offsets tried after it.
function kickWords(kick, before = '') {
  return Number.isInteger(kick) && kick > 0 ? `${before}kick ${kick}` : '';
}

// The whole list, in the API's order (keeping where it was scrolled to).
function listPlacements(placements) {
  const list = $('moves-placements');
  const top = list.scrollTop;
  list.replaceChildren(...placements.map((p, i) => placementItem(p, i)));
  list.scrollTop = top;
}

function select(index) {
  const run = state.run;
  if (!run) return;
  for (const row of state.marks) for (const m of row) m.sel = false;
  const chosen = index === state.selected ? -1 : index;
  state.selected = chosen;
  for (const li of $('moves-placements').children) li.classList.toggle('selected', Number(li.dataset.index) === chosen);
  const box = $('moves-inputs');
  if (chosen < 0) {
    box.textContent = NO_SELECTION;
  } else {
    const p = run.placements[chosen];
    for (const [x, y] of p.cells || []) if (onBoard(x, y)) state.marks[y][x].sel = true;
    box.replaceChildren(...describePlacement(p, chosen));
  }
  renderAll();
}

// The selected placement in words: its rotation and spin, its cells as
// (column, row), the API's reference point, and its inputs spelled out.
function describePlacement(p, index) {
  const line = (...parts) => {
    const div = document.createElement('div');
    div.append(...parts);
    return div;
  };
  const words = document.createElement('span');
  words.className = 'words';
  words.textContent = p.inputs ? spellInputs(p.inputs) : 'not reachable from spawn';
  const raw = document.createElement('code');
  raw.textContent = p.inputs ?? '';
  const spin = bothSpins(p) ? 'a full T-spin, and a mini by another last move'
    : p.spin === 'none' ? 'no spin' : `T-spin ${p.spin}`;
  // Each other way to lock it (no spin, a mini) with the inputs that do.
  const others = Object.entries(p.spin_inputs || {}).filter(([kind]) => kind !== p.spin)
    .map(([kind, inputs]) => {
      const code = document.createElement('code');
      code.textContent = inputs;
      code.title = spellInputs(inputs);
      return line(`${kind === 'none' ? 'with no spin' : `as a T-spin ${kind}`}: `, code);
    });
  return [
    line(`#${index + 1}: rotation ${rotationWords(p.rotation)}, ${spin}`),
    line(`cells (column, row): ${cellList(p.cells)}`),
    line(`its rotation box's bottom-left corner (the API's x, y): column ${p.x}, row ${p.y}`),
    line(!Number.isInteger(p.kick) || p.kick < 0 ? 'no turn: no kick'
      : p.kick === 0 ? 'its last turn needs no kick (kick 0, the turn in place)'
        : `its last turn needs kick ${p.kick} (the ${['', 'second', 'third', 'fourth', 'fifth'][p.kick]} SRS test)`),
    line(`inputs${p.spin === 'none' ? '' : ` (they end with the turn that makes the ${p.spin} T-spin)`}: `, words, ' ', raw),
    ...others,
  ];
}

// ---------- controls ----------

function readSize() {
  const clamp = (input, lo, hi, fallback) => {
    const n = Math.round(Number(input.value));
    const v = Number.isFinite(n) && input.value !== '' ? Math.min(hi, Math.max(lo, n)) : fallback;
    input.value = v;
    return v;
  };
  return [clamp($('moves-width'), LIMITS.leastWidth, LIMITS.mostWidth, 10), clamp($('moves-height'), 1, LIMITS.mostHeight, 20)];
}

// The counterexample: an I over a 4-wide shaft above a 1-wide hole.
function presetShaft() {
  $('moves-width').value = 10;
  $('moves-height').value = 20;
  $('moves-piece').value = 'I';
  invalidate();
  newBoard(10, 20);
  for (let y = 0; y < 20; y++) {
    const row = y === 0 ? '###.######' : '###....###';
    for (let x = 0; x < 10; x++) state.filled[y][x] = row[x] === '#';
  }
  renderAll();
}

export function init() {
  // The size inputs' bounds are the server's (tables.js), not the page's own.
  $('moves-width').min = LIMITS.leastWidth;
  $('moves-width').max = LIMITS.mostWidth;
  $('moves-height').max = LIMITS.mostHeight;
  newBoard(10, 20);
  wireBoard();
  buildCompare($('moves-compare'));
  markCurrent($('moves-compare'), $('moves-algorithm').value);
  showSpeed();
  setMode('ready');
  $('moves-resize').addEventListener('click', () => {
    const [w, h] = readSize();
    invalidate();
    newBoard(w, h);
  });
  $('moves-clear').addEventListener('click', () => {
    invalidate();
    for (const row of state.filled) row.fill(false);
    renderAll();
  });
  $('moves-preset-shaft').addEventListener('click', presetShaft);
  $('moves-piece').addEventListener('change', () => invalidate());
  $('moves-rotate180').addEventListener('change', () => invalidate());
  $('moves-end').addEventListener('click', toEnd);
  bot.init({ board: boardText, piece: () => $('moves-piece').value, mark: markBot });
  $('moves-algorithm').addEventListener('change', () => {
    invalidate(false);
    markCurrent($('moves-compare'), $('moves-algorithm').value);
  });
  $('moves-play').addEventListener('click', play);
  $('moves-pause').addEventListener('click', pause);
  $('moves-step').addEventListener('click', step);
  $('moves-speed').addEventListener('input', showSpeed);
  $('moves-placements').addEventListener('click', (e) => {
    const li = e.target.closest('li[data-index]');
    if (li) select(Number(li.dataset.index));
  });
}
