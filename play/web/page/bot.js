// bot.js — "Ask the bot" on the move-generation view: the real game's
// decision (/api/decide) on the drawn board for the chosen piece and the next
// pieces typed, its choice drawn on the board, its inputs, its plan for the
// known pieces and the other first choices it weighed.
import { getJSON, Latest } from './api.js';
import { cellList, pieceColour, placeWords, rotationOfOrientation, spellInputs } from './shapes.js';

const $ = (id) => document.getElementById(id);
const asks = new Latest();
let view = null;  // the move view's hooks: board() its text, piece(), mark(cells)

function element(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.append(...children);
  return node;
}

function code(text) {
  return element('code', '', text ?? '');
}

// The next pieces as typed, without spaces or commas, in capitals.
function nextPieces() {
  return $('bot-next').value.replace(/[\s,]+/g, '').toUpperCase();
}

export function init(hooks) {
  view = hooks;
  $('bot-ask').addEventListener('click', ask);
  $('bot-next').addEventListener('keydown', (e) => { if (e.key === 'Enter') ask(); });
  $('bot-hold').addEventListener('change', () => { $('bot-held').disabled = !$('bot-hold').checked; });
}

// The board or the piece changed: the decision shown no longer holds.
export function clear() {
  asks.take();
  $('bot-error').textContent = '';
  $('bot-result').replaceChildren();
  $('bot-ask').disabled = false;
  if (view) view.mark([]);
}

async function ask() {
  const ticket = asks.take();
  const hold = $('bot-hold').checked;
  const alternatives = $('bot-alternatives').value.trim();
  const params = {
    board: view.board(),
    piece: view.piece(),
    next: nextPieces() || undefined,
    hold: hold ? 1 : undefined,
    held: hold ? $('bot-held').value || undefined : undefined,
    policy: $('bot-policy').value,
    preview: $('bot-preview').value || undefined,
    moves: $('bot-moves').value,
    alternatives: alternatives === '' ? undefined : alternatives,
  };
  $('bot-error').textContent = '';
  $('bot-result').replaceChildren(element('p', 'muted', 'thinking…'));
  $('bot-ask').disabled = true;
  view.mark([]);
  const { data, error } = await getJSON('/api/decide', params);
  if (!asks.is(ticket)) return;
  $('bot-ask').disabled = false;
  if (error) {
    $('bot-result').replaceChildren();
    $('bot-error').textContent = error;
    return;
  }
  showDecision(data);
}

// One placement of the decision in words: the piece, where its cells are,
// whether it holds first, the lines it clears.
function placementWords(p) {
  const held = p.hold ? 'hold, then ' : '';
  const lines = p.lines ? `, clears ${p.lines} line${p.lines === 1 ? '' : 's'}` : '';
  const rotation = rotationOfOrientation(p.srs?.orientation);
  const where = rotation >= 0 ? placeWords(rotation, p.cells) : cellList(p.cells);
  return `${held}${p.piece}, ${where}${lines}`;
}

// The placement's SRS inputs, raw then spelled out (the raw ones with the
// id given, if any).
function inputsOf(p, id) {
  if (!p.inputs) return [element('span', 'muted', 'no SRS inputs (not reachable from spawn)')];
  const raw = code(p.inputs);
  if (id) raw.id = id;
  return [raw, ' ', element('span', 'muted', `(${spellInputs(p.inputs)})`)];
}

// What the search's counts mean (also in the view's help).
const FIRST_PLACEMENTS = 'first placements: the places the current piece (or, with hold, the held one) can go; ' +
  'the search starts from each of them';
const LEAVES = 'leaves: the ends of the search, each one way to place every known piece searched, ' +
  'whose board the policy scores';

// Text with its meaning as a tooltip, underlined dotted.
function explained(text, meaning) {
  const span = element('span', 'explained', text);
  span.title = meaning;
  return span;
}

function showDecision(d) {
  const box = $('bot-result');
  const searched = () => element('p', 'muted',
    `${d.policy}: ${d.pieces_searched} piece${d.pieces_searched === 1 ? '' : 's'} searched, `,
    explained(`${d.placements} first placements`, FIRST_PLACEMENTS), ', ',
    explained(`${Number(d.leaves).toLocaleString('en')} leaves`, LEAVES), ', ',
    `${(Number(d.seconds) * 1000).toFixed(2)} ms`);
  if (!d.best) {
    box.replaceChildren(element('p', 'choice-line', `No move: ${d.game_over ?? 'no placement'}.`), searched());
    return;
  }
  const best = d.best;
  view.mark(best.cells || []);
  const chip = element('span', 'chip');
  chip.style.background = pieceColour(best.piece);
  const facts = [];
  if (best.srs?.spin && best.srs.spin !== 'none') facts.push(`T-spin ${best.srs.spin}`);
  facts.push(best.lost ? 'the game is lost after it' : `score ${Number(best.score).toFixed(2)}`);
  const parts = [
    element('p', 'choice-line', chip, `The bot plays: ${placementWords(best)}`),
    element('p', '', 'inputs: ', ...inputsOf(best, 'bot-inputs')),
    element('p', '', `cells (column, row): ${cellList(best.cells)} · ${facts.join(' · ')}`),
  ];
  const plan = Array.isArray(d.plan) ? d.plan : [];
  if (plan.length > 1) {
    parts.push(element('h4', '', 'Its plan for the known pieces'));
    parts.push(element('ol', 'bot-plan', ...plan.map((p) =>
      element('li', '', `${placementWords(p)}: `, ...inputsOf(p)))));
  }
  const others = Array.isArray(d.alternatives) ? d.alternatives.slice(1) : [];
  if (others.length > 0) {
    const list = element('ol', 'bot-alternatives', ...others.map((p) => element('li', '',
      `${p.lost ? 'lost' : `score ${Number(p.score).toFixed(2)}`}: ${placementWords(p)} `, code(p.inputs ?? ''))));
    list.start = 2;
    parts.push(element('details', '', element('summary', '', `The next ${others.length} first choices`), list));
  }
  parts.push(searched());
  box.replaceChildren(...parts);
}
