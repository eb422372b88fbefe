// shapes.js — the SRS tetrominoes (cells of each rotation), the pieces'
// colours, and spelling out input strings ("lcH" -> "left rotate-cw hard-drop"),
// and cells written as columns and rows. The shapes and the inputs' words
// come from tables.js, which the build writes from the C++ (play/web/page_tables.cpp),
// and so do the rotations' names (0 R 2 L), the one convention of every view.
import { INPUT_WORDS, ROTATION_NAMES, ROTATION_WORDS, SHAPES } from './tables.js';

export const PIECES = ['I', 'O', 'T', 'S', 'Z', 'J', 'L'];

// The board cells a location covers: the piece in that rotation with its
// box's bottom-left corner at (x, y).
export function locationCells(piece, x, y, rotation) {
  const turns = SHAPES[piece];
  if (!turns) return [];
  return turns[((rotation % 4) + 4) % 4].map(([cx, cy]) => [x + cx, y + cy]);
}

// A rotation's name: an SRS rotation's number (0-3) named 0 R 2 L; a name
// the server gave (an answer's rotation_name) kept as it is.
export function rotationName(rotation) {
  if (typeof rotation === 'string') return rotation;
  return ROTATION_NAMES[rotation] ?? String(rotation);
}

// The SRS orientations by name (the bot's answer) as rotations: north is 0.
const ORIENTATION_ROTATIONS = { north: 0, east: 1, south: 2, west: 3 };
export function rotationOfOrientation(name) {
  return ORIENTATION_ROTATIONS[name] ?? -1;
}

// A placement as the page words it everywhere: "rotation L · columns 3–5,
// rows 0–1" (the rotation 0 R 2 L, then where its cells lie).
export function placeWords(rotation, cells) {
  const span = cellSpan(cells);
  return `rotation ${rotationName(rotation)}${span ? ` · ${span}` : ''}`;
}

// "R (one turn clockwise)".
export function rotationWords(rotation) {
  const words = ROTATION_WORDS[rotation];
  return words ? `${rotationName(rotation)} (${words})` : rotationName(rotation);
}

// Column heights as typed ("1 2 3", "1, 2, 3", "1,2,3") as the API takes
// them, "1,2,3": spaces separate like commas, never joining digits ("1 2"
// is two heights, not 12); an empty one ("1,,2") is left for the server to
// refuse.
export function heightsText(typed) {
  const text = String(typed).trim();
  return text ? text.split(/\s*,\s*|\s+/).join(',') : '';
}

// A key naming a set of cells whatever their order ("1,0;2,0;...").
export function cellsKey(cells) {
  return cells.map(([x, y]) => `${x},${y}`).sort().join(';');
}

// Where cells lie, as a person reads a well: "columns 3–5, rows 0–1"
// (columns from 0 at the left wall, rows from 0 at the floor).
export function cellSpan(cells) {
  if (!cells || cells.length === 0) return '';
  const range = (values, one, many) => {
    const lo = Math.min(...values), hi = Math.max(...values);
    return lo === hi ? `${one} ${lo}` : `${many} ${lo}–${hi}`;
  };
  return `${range(cells.map((c) => c[0]), 'column', 'columns')}, ${range(cells.map((c) => c[1]), 'row', 'rows')}`;
}

// "(3,0) (4,0) (4,1) (5,1)": each cell as (column, row), left to right, bottom up.
export function cellList(cells) {
  return [...(cells || [])].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([x, y]) => `(${x},${y})`).join(' ');
}

// Colours of the pieces in a well (muted, distinguishable on white).
export const PIECE_COLOURS = {
  I: '#5bc0de', O: '#e8c547', T: '#a26dc2', S: '#6bbf59',
  Z: '#e06666', J: '#4a78c9', L: '#ee9a3a',
};
export const FILLED_COLOUR = '#8a919e';

export function pieceColour(letter) {
  return PIECE_COLOURS[String(letter).toUpperCase()] ?? FILLED_COLOUR;
}

// "lllcH" -> "left left left rotate-cw hard-drop" (unknown letters kept as ?x).
export function spellInputs(inputs) {
  if (inputs === null || inputs === undefined) return '';
  return [...String(inputs)].map((ch) => INPUT_WORDS[ch] ?? `?${ch}`).join(' ');
}
