// explorer.js — the table explorer: a stack's value (/api/board), every
// piece's placements ranked best first (click one to move to its successor),
// and the game-length distribution from the stack (/api/lengths), beside as
// many seeded games as asked.
import { getJSON, Latest, tableInfo } from './api.js';
import { addedCells, clearMarks, makeGrid, markCells, paintRows, rowsFromHeights } from './grid.js';
import { heightsText, pieceColour, placeWords, spellInputs } from './shapes.js';
import { drawLengths } from './chart.js';

const $ = (id) => document.getElementById(id);

const state = {
  table: null,      // the /api/table answer once loaded
  started: false,
  grid: null,
  heights: null,    // the shown board's heights
  history: [],      // heights strings visited before, for Back
};
const boards = new Latest();
const lengths = new Latest();

function showError(text) {
  $('explorer-error').textContent = text || '';
}

function emptyHeights() {
  return new Array(state.table.width).fill(0).join(',');
}

// The first time the view is shown: what table is loaded, then the empty board.
export async function show() {
  if (state.started) return;
  state.started = true;
  const { data, error } = await tableInfo();
  if (error) {
    showError(error);
    state.started = false;
    return;
  }
  if (!data.loaded) {
    $('explorer-note').hidden = false;
    $('explorer-controls').hidden = true;
    $('explorer-main').hidden = true;
    $('explorer-info').textContent = '';
    return;
  }
  state.table = data;
  const value = Number.isFinite(data.value_empty) ? `, empty well's value ${data.value_empty.toFixed(6)}` : '';
  $('explorer-info').textContent =
    `Table ${data.file ?? ''}: ${data.width} wide, ${data.height} high, ${data.states} boards, ` +
    `pieces ${data.piece_letters ?? data.pieces ?? ''}${value}.`;
  state.grid = makeGrid($('explorer-well'), data.width, data.height, { maxHeight: 540, maxWidth: 300 });
  $('explorer-main').hidden = false;
  if (!$('explorer-heights').value.trim()) $('explorer-heights').value = emptyHeights();
  go(false);
}

// Shows the board typed in the heights input (remembering the current one for Back).
async function go(remember = true) {
  if (!state.table) return;
  const text = heightsText($('explorer-heights').value);
  const ticket = boards.take();
  lengths.take();
  showError('');
  $('explorer-go').disabled = true;
  const { data, error } = await getJSON('/api/board', { heights: text });
  if (!boards.is(ticket)) return;
  $('explorer-go').disabled = false;
  if (error) {
    showError(error);
    return;
  }
  const previous = state.heights ? state.heights.join(',') : null;
  if (remember && previous !== null && previous !== data.heights.join(',')) state.history.push(previous);
  $('explorer-back').disabled = state.history.length === 0;
  state.heights = data.heights;
  $('explorer-heights').value = data.heights.join(',');
  drawBoard(data);
  loadLengths(data.heights.join(','));
}

function drawBoard(data) {
  paintRows(state.grid, rowsFromHeights(data.heights, state.table.height));
  $('explorer-value').textContent = Number(data.value).toFixed(6);
  const blocks = (data.pieces || []).map((piece) => {
    const block = document.createElement('div');
    block.className = 'piece-block';
    const head = document.createElement('h4');
    const chip = document.createElement('span');
    chip.className = 'chip';
    chip.style.background = pieceColour(piece.piece);
    head.append(chip, `${piece.piece}`);
    if (piece.weight !== undefined && piece.weight !== 1) head.append(` (weight ${piece.weight})`);
    block.append(head);
    const placements = piece.placements || [];
    if (placements.length === 0) {
      const p = document.createElement('p');
      p.className = 'ends';
      p.textContent = 'does not fit: the game ends here';
      block.append(p);
      return block;
    }
    const list = document.createElement('ol');
    placements.forEach((placement, i) => list.append(placementItem(piece.piece, placement, i)));
    block.append(list);
    return block;
  });
  const list = $('explorer-placements');
  list.replaceChildren(...blocks);
  list.scrollTop = 0;
}

function placementItem(letter, placement, index) {
  const li = document.createElement('li');
  li.className = index === 0 ? 'placement best' : 'placement';
  li.dataset.piece = letter;
  li.dataset.index = index;
  li.tabIndex = 0;
  const value = document.createElement('span');
  value.className = 'value';
  value.textContent = Number(placement.value).toFixed(6);
  const cells = addedCells(state.heights, placement.successor_heights || []);
  const where = document.createElement('span');
  where.textContent = ` ${cells.length ? placeWords(placement.rotation_name ?? placement.rotation, cells) : `rotation ${placement.rotation_name ?? placement.rotation} · column ${placement.column}`}` +
    ` → [${(placement.successor_heights || []).join(',')}]`;
  li.append(value, where);
  if (placement.inputs) {
    const code = document.createElement('code');
    code.textContent = placement.inputs;
    code.title = spellInputs(placement.inputs);
    li.append(' ', code);
  } else if (placement.hard_drop === false) {
    li.append(' (not by a hard drop)');
  }
  const preview = (on) => {
    clearMarks(state.grid, 'preview');
    if (on) markCells(state.grid, cells, 'preview', pieceColour(letter));
  };
  li.addEventListener('mouseenter', () => preview(true));
  li.addEventListener('mouseleave', () => preview(false));
  const move = () => {
    if (!placement.successor_heights) return;
    $('explorer-heights').value = placement.successor_heights.join(',');
    go(true);
  };
  li.addEventListener('click', move);
  li.addEventListener('keydown', (e) => { if (e.key === 'Enter') move(); });
  return li;
}

// The chart for the stack: the games and seed as typed (the server checks
// them and says what is wrong).
async function loadLengths(heights) {
  const ticket = lengths.take();
  const box = $('explorer-lengths');
  const games = $('explorer-games').value.trim();
  const seed = $('explorer-seed').value.trim();
  box.replaceChildren(Object.assign(document.createElement('p'), {
    className: 'muted', textContent: `Playing ${games} games…` }));
  const { data, error } = await getJSON('/api/lengths', { heights, games, seed });
  if (!lengths.is(ticket)) return;
  if (error) {
    box.replaceChildren();
    showError(error);
    return;
  }
  drawLengths(box, data);
}

export function init() {
  $('explorer-go').addEventListener('click', () => go(true));
  $('explorer-heights').addEventListener('keydown', (e) => { if (e.key === 'Enter') go(true); });
  $('explorer-back').addEventListener('click', () => {
    const previous = state.history.pop();
    if (previous === undefined) return;
    $('explorer-heights').value = previous;
    go(false);
  });
  const replay = () => {
    if (!state.heights) return;
    showError('');
    loadLengths(state.heights.join(','));
  };
  $('explorer-play').addEventListener('click', replay);
  for (const id of ['explorer-games', 'explorer-seed']) {
    $(id).addEventListener('keydown', (e) => { if (e.key === 'Enter') replay(); });
  }
  $('explorer-empty').addEventListener('click', () => {
    if (!state.table) return;
    $('explorer-heights').value = emptyHeights();
    go(true);
  });
}
