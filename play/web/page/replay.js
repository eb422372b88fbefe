// replay.js — the replay view: one seeded game from /api/game (the stacking
// game on the table from any start, or real tetris), stepped frame by frame
// with the chosen placement highlighted and the alternatives the policy
// weighed; a game without a move says why.
import { getJSON, Latest, tableInfo } from './api.js';
import { addedCells, clearMarks, makeGrid, markCells, paintRows, rowsFromHeights } from './grid.js';
import { cellSpan, heightsText, pieceColour, placeWords } from './shapes.js';

const $ = (id) => document.getElementById(id);
const POLICIES = {
  stacking: ['table', 'heuristic', 'random', 'seed001', 'lookahead 1', 'lookahead 2', 'lookahead 3', 'lookahead 4'],
  tetris: ['dellacherie', 'lee', 'el-tetris', 'seed001'],
};

const state = { game: null, frame: 0, grid: null, gridSize: '', touched: false, shown: false };
const loads = new Latest();
let defaultGame = Promise.resolve();  // settles once the default game (by the table) is chosen

function showError(text) {
  $('replay-error').textContent = text || '';
}

// The game's policies, and the options that game takes (start heights for
// stacking, a number of pieces for tetris).
function fillPolicies() {
  const game = $('replay-game').value;
  const select = $('replay-policy');
  const names = POLICIES[game] || [];
  select.replaceChildren(...names.map((name) => new Option(name, name)));
  $('replay-heights-label').hidden = game !== 'stacking';
  $('replay-pieces-label').hidden = game !== 'tetris';
}

// The request's parameters as typed: the server checks each (a seed of
// "abc" is refused, not read as 1) and its error is shown.
function parameters() {
  const game = $('replay-game').value;
  const params = { game, seed: $('replay-seed').value.trim(), policy: $('replay-policy').value };
  if (game === 'stacking') {
    const heights = heightsText($('replay-heights').value);
    if (heights) params.heights = heights;
  } else {
    params.pieces = $('replay-pieces').value.trim();
  }
  return params;
}

async function load() {
  const ticket = loads.take();
  showError('');
  $('replay-status').textContent = 'loading…';
  $('replay-load').disabled = true;
  const { data, error } = await getJSON('/api/game', parameters());
  if (!loads.is(ticket)) return;
  $('replay-load').disabled = false;
  if (error || !Array.isArray(data.turns) || data.turns.length === 0) {
    unload();
    showError(error || 'the game has no turns');
    return;
  }
  state.game = data;
  state.frame = 0;
  const size = `${data.width}x${data.height}`;
  if (!state.grid || state.gridSize !== size) {
    state.grid = makeGrid($('replay-well'), data.width, data.height, { maxHeight: 600, maxWidth: 320 });
    state.gridSize = size;
  }
  const slider = $('replay-slider');
  slider.max = data.turns.length - 1;
  slider.disabled = false;
  $('replay-status').textContent = summary(data);
  showError(whyNoMove(data));
  show();
}

// No game: the well emptied, the frame, the turn and the alternatives
// cleared, so nothing drawn is taken for the game that failed to load.
function unload() {
  state.game = null;
  state.frame = 0;
  if (state.grid) {
    paintRows(state.grid, []);
    clearMarks(state.grid, 'chosen');
    clearMarks(state.grid, 'preview');
  }
  $('replay-frame').textContent = 'no game loaded';
  $('replay-status').textContent = 'no game loaded';
  $('replay-prev').disabled = true;
  $('replay-next').disabled = true;
  const slider = $('replay-slider');
  slider.value = 0;
  slider.max = 0;
  slider.disabled = true;
  $('replay-turn').replaceChildren();
  $('replay-alternatives').replaceChildren();
}

// The view is shown: the first time, it loads the game the fields name
// (seed 7 by default), once the default game is chosen.
export async function showView() {
  if (state.shown) return;
  state.shown = true;
  await defaultGame;
  if (!state.game) load();
}

function summary(g) {
  if (g.game === 'tetris') {
    return `tetris, ${g.policy}, seed ${g.seed}: ${g.pieces_placed} pieces, ${g.lines} lines, ` +
      `${g.points} points${g.topped_out ? ', topped out' : ''}`;
  }
  return `stacking on the table, ${g.policy}, seed ${g.seed}: ${g.pieces_placed} pieces placed`;
}

// A game that ends before its first move, in words ('' when it has moves).
function whyNoMove(g) {
  if (g.pieces_placed !== 0) return '';
  const first = g.turns[0]?.piece ?? '?';
  const empty = (g.turns[0]?.heights_before || []).every((h) => h === 0);
  const board = empty ? 'the empty well' : 'this board';
  if (g.game === 'tetris') return `No move: the first piece, ${first}, cannot enter the well.`;
  return `No move: the first piece, ${first}, has no placement without a hole on ${board}, ` +
    'so the stacking game ends at once. Try another seed.';
}

function go(frame) {
  if (!state.game) return;
  const last = state.game.turns.length - 1;
  state.frame = Math.max(0, Math.min(last, frame));
  show();
}

// The well after the turn's piece, its cells highlighted, and the list.
function show() {
  const g = state.game;
  const turn = g.turns[state.frame];
  const n = g.turns.length;
  $('replay-frame').textContent = `move ${turn.move ?? state.frame + 1} of ${n}`;
  $('replay-prev').disabled = state.frame === 0;
  $('replay-next').disabled = state.frame === n - 1;
  $('replay-slider').value = state.frame;
  const grid = state.grid;
  const colour = pieceColour(turn.piece);
  let chosen = [];
  let alternatives = [];
  const facts = [];
  if (g.game === 'tetris') {
    paintRows(grid, turn.rows || []);
    chosen = turn.cells || [];
    alternatives = (turn.alternatives || []).map((a, i) => ({
      cells: a.cells || [], text: `score ${fmt(a.score, 3)}`, where: cellSpan(a.cells || []), choice: i === 0 }));
    facts.push(`score ${fmt(turn.score, 3)}`, `lines cleared ${turn.lines_cleared ?? 0}`,
      `lines ${turn.lines ?? 0}`, `points ${turn.points ?? 0}`);
  } else if (turn.fits === false) {
    paintRows(grid, turn.well || rowsFromHeights(turn.heights_before || [], g.height));
    facts.push(`no placement without a hole: the game ends after ${g.pieces_placed} pieces`);
    if (Number.isFinite(turn.value_before)) facts.push(`value before ${fmt(turn.value_before, 6)}`);
  } else {
    const before = turn.heights_before || [];
    paintRows(grid, turn.well || rowsFromHeights(turn.heights_after || [], g.height));
    chosen = addedCells(before, turn.heights_after || []);
    // Ranked by the table's value; the policy's choice is the one with its
    // orientation and column (not the first, for a policy other than table).
    alternatives = (turn.alternatives || []).map((a) => {
      const cells = addedCells(before, a.heights_after || []);
      return { cells, text: `value ${fmt(a.value, 6)}`, where: placeWords(a.rotation_name ?? a.rotation, cells),
        choice: a.orientation === turn.orientation && a.column === turn.column };
    });
    facts.push(placeWords(turn.rotation_name ?? turn.rotation, chosen),
      `value ${fmt(turn.value_before, 6)} → ${fmt(turn.value_after, 6)}`);
  }
  markCells(grid, chosen, 'chosen', colour);
  describe(turn, facts);
  listAlternatives(alternatives, colour);
}

function describe(turn, facts) {
  const box = $('replay-turn');
  const head = document.createElement('h3');
  const chip = document.createElement('span');
  chip.className = 'chip';
  chip.style.background = pieceColour(turn.piece);
  head.append(chip, `piece ${turn.piece}`);
  const p = document.createElement('p');
  p.textContent = facts.join(' · ');
  box.replaceChildren(head, p);
}

function listAlternatives(alternatives, colour) {
  const list = $('replay-alternatives');
  list.scrollTop = 0;
  if (alternatives.length === 0) {
    list.replaceChildren(Object.assign(document.createElement('li'), { className: 'muted', textContent: 'no placements' }));
    return;
  }
  list.replaceChildren(...alternatives.map((a, i) => {
    const li = document.createElement('li');
    li.className = a.choice ? 'choice' : '';
    li.dataset.index = i;
    const value = document.createElement('span');
    value.className = 'value';
    value.textContent = a.text;
    li.append(value, ` ${a.where}`, a.choice ? ' (the choice)' : '');
    li.addEventListener('mouseenter', () => markCells(state.grid, a.cells, 'preview', colour));
    li.addEventListener('mouseleave', () => clearMarks(state.grid, 'preview'));
    return li;
  }));
}

function fmt(x, digits) {
  return Number.isFinite(x) ? x.toFixed(digits) : '—';
}

// Arrow keys step while this view is shown (not while typing in a field).
function onKey(e) {
  if ($('view-replay').hidden || !state.game) return;
  if (e.target.closest && e.target.closest('input, select, textarea')) return;
  if (e.key === 'ArrowLeft') { go(state.frame - 1); e.preventDefault(); }
  if (e.key === 'ArrowRight') { go(state.frame + 1); e.preventDefault(); }
  if (e.key === 'Home') { go(0); e.preventDefault(); }
  if (e.key === 'End') { go(state.game.turns.length - 1); e.preventDefault(); }
}

export function init() {
  fillPolicies();
  $('replay-game').addEventListener('change', () => { state.touched = true; fillPolicies(); });
  // The stacking game needs a table: without one, the real game is the default.
  defaultGame = tableInfo().then(({ data }) => {
    if (data && data.loaded === false && !state.touched) {
      $('replay-game').value = 'tetris';
      fillPolicies();
    }
  });
  $('replay-load').addEventListener('click', load);
  $('replay-prev').addEventListener('click', () => go(state.frame - 1));
  $('replay-next').addEventListener('click', () => go(state.frame + 1));
  $('replay-slider').addEventListener('input', (e) => go(Number(e.target.value)));
  document.addEventListener('keydown', onKey);
}
