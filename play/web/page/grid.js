// grid.js — boards of square cells drawn with a CSS grid, shared by the three
// views: building one, painting a well's rows, marking cells.
import { pieceColour } from './shapes.js';

// The window's width a grid leaves to the page: margins, the grid's border
// and a scroll bar.
const FIT_MARGIN = 48;

// Builds width x (height + extra) cells into container. Board cells get the
// class "cell" and data-x / data-y (y from the floor up, so the top row of
// the drawing has y = height-1); the `extra` rows above the board (where a
// piece spawns) get the class "buffer" and no coordinates.
export function makeGrid(container, width, height, options = {}) {
  const { extra = 0, maxHeight = 600, maxWidth = 400, maxCell = 28 } = options;
  const total = height + extra;
  // Each cell takes its size plus a 1px grid line.
  const size = Math.max(6, Math.min(maxCell, Math.floor(maxHeight / total) - 1, Math.floor(maxWidth / width) - 1));
  container.replaceChildren();
  // On a narrow window the cells shrink so that the grid fits the window's
  // width less the page's margins (FIT_MARGIN), down to 4px.
  container.style.setProperty('--cell', `min(${size}px, max(4px, calc((100vw - ${FIT_MARGIN}px) / ${width} - 1px)))`);
  container.style.gridTemplateColumns = `repeat(${width}, var(--cell))`;
  const cells = Array.from({ length: total }, () => new Array(width));
  const fragment = document.createDocumentFragment();
  for (let y = total - 1; y >= 0; y--) {
    for (let x = 0; x < width; x++) {
      const el = document.createElement('div');
      if (y < height) {
        el.className = 'cell';
        el.dataset.x = x;
        el.dataset.y = y;
      } else {
        el.className = 'buffer';
      }
      cells[y][x] = el;
      fragment.append(el);
    }
  }
  container.append(fragment);
  return {
    width, height, total, size, cells,
    at(x, y) { return cells[y]?.[x] ?? null; },
  };
}

// A well's rows (top row first) from column heights: a hole-free stack.
export function rowsFromHeights(heights, height) {
  const rows = [];
  for (let y = height - 1; y >= 0; y--) rows.push(heights.map((h) => (y < h ? '#' : '.')).join(''));
  return rows;
}

// Paints rows (top first; '.' empty, a piece letter or '#' filled) into a
// grid built with the same size, and clears every mark.
export function paintRows(grid, rows) {
  for (let y = 0; y < grid.height; y++) {
    const row = rows[grid.height - 1 - y] ?? '';
    for (let x = 0; x < grid.width; x++) {
      const ch = row[x] ?? '.';
      const el = grid.cells[y][x];
      el.className = ch === '.' ? 'cell' : 'cell filled';
      el.style.background = ch === '.' || ch === '#' ? '' : pieceColour(ch);
      el.title = '';
    }
  }
}

// Adds class cls to the cells [[x, y], ...] that are on the grid; with a
// colour, also sets their background.
export function markCells(grid, cells, cls, colour) {
  for (const [x, y] of cells) {
    const el = grid.at(x, y);
    if (!el) continue;
    el.classList.add(cls);
    if (colour) el.style.setProperty('--mark', colour);
  }
}

export function clearMarks(grid, cls) {
  if (!grid) return;
  for (const row of grid.cells) for (const el of row) el.classList.remove(cls);
}

// The cells a hole-free stack gains going from heights `before` to `after`.
export function addedCells(before, after) {
  const cells = [];
  after.forEach((h, x) => {
    for (let y = before[x] ?? 0; y < h; y++) cells.push([x, y]);
  });
  return cells;
}
